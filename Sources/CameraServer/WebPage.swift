/// The page served at `/`: one self-contained HTML file (no outside scripts, styles or fonts: the
/// machine serving it may have no internet). It shows the live picture and drives the camera
/// through the API: the shutter (with a countdown and a review when asked), the booth (with
/// Retake while a shot is shown), the camera, filter and zoom, the review's Save and Cancel, the
/// last photo, and the gallery; the session's events (`/api/events`) draw the countdown and
/// whatever the camera shows whole. The kiosk view (`/?kiosk`) shows a guest only their own
/// pictures: between guests, and once a result has stood for the settings' `attract_after`
/// seconds, it shows the attract screen (the booth album's pictures in turn, and an invitation).
enum WebPage {
    static let html = PageHead.opening(title: "camctl") + #"""
          * { box-sizing: border-box; }
          body { margin: 0; font: 16px/1.4 system-ui, sans-serif; background: #111; color: #eee; }
          main { display: flex; flex-direction: column; gap: 12px; padding: 12px; max-width: 1100px; margin: auto; }
          /* 4:3, and short enough that the shutter under it shows without scrolling on a laptop's screen. */
          #stage { position: relative; background: #000; border-radius: 8px; overflow: hidden; aspect-ratio: 4 / 3;
                   width: min(100%, calc((100vh - 200px) * 4 / 3)); align-self: center; }
          #live, #shown { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
          #shown { display: none; background: rgba(0, 0, 0, .85); }
          #countdown { position: absolute; inset: 0; display: none; align-items: center; justify-content: center;
                       font-size: min(40vw, 40vh); font-weight: 700; color: #fff; text-shadow: 0 0 24px #000; }
          #last { position: absolute; left: 12px; bottom: 12px; width: 20%; max-width: 160px; border: 2px solid #fff;
                  border-radius: 6px; display: none; cursor: pointer; }
          #reviewbar { position: absolute; left: 0; right: 0; bottom: 0; display: none; justify-content: center; gap: 16px;
                       padding: 16px; background: linear-gradient(transparent, rgba(0, 0, 0, .8)); }
          #message { min-height: 1.4em; color: #bbb; }
          #guestwarning { margin: 8px 0; padding: 8px 12px; border-radius: 8px; background: #5a3a00; color: #ffd9a0; }
          body.kiosk #guestwarning { position: fixed; left: 2vmin; top: 2vmin; max-width: 60vw; z-index: 2; }
          #message.error { color: #ff7b72; }
          .controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; justify-content: center; }
          button { font: inherit; padding: 12px 18px; border-radius: 999px; border: 0; background: #333; color: #eee; cursor: pointer;
                   min-height: 48px; }
          button:disabled { opacity: .4; }
          button.primary { background: var(--accent); color: #111; font-weight: 700; }
          #shutter { width: 76px; height: 76px; border-radius: 50%; border: 6px solid #eee; background: #fff; padding: 0; }
          label { display: inline-flex; gap: 6px; align-items: center; }
          #settings, #camerasettings { margin: 8px 0; } #settings form, #camerasettings form { display: flex; flex-wrap: wrap; gap: 8px 16px; margin-top: 8px; }
          input[type=text] { font: inherit; background: #222; color: #eee; border: 1px solid #444; border-radius: 6px; padding: 6px; width: 12em; }
          select, input[type=number] { font: inherit; background: #222; color: #eee; border: 1px solid #444; border-radius: 6px; padding: 6px; }
          input[type=number] { width: 4.5em; }
          #gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(110px, 1fr)); gap: 8px; }
          #gallery .item { position: relative; }
          #gallery a { display: block; aspect-ratio: 1; background: #222; border-radius: 6px; overflow: hidden; }
          #gallery img { width: 100%; height: 100%; object-fit: cover; }
          #gallery .delete { position: absolute; top: 4px; right: 4px; min-height: 0; padding: 4px 9px; background: rgba(0, 0, 0, .7); }
          #more { margin-top: 8px; }
          #printerstate { color: #bbb; }
          /* How the guest's print goes, on the kiosk. */
          #printstatus { display: none; position: fixed; left: 50%; top: 4vh; transform: translateX(-50%); padding: 1.5vmin 3vmin;
                         border-radius: 12px; background: rgba(0, 0, 0, .75); font-size: 3vmin; z-index: 2; }
          body.kiosk #printstatus:not(:empty) { display: block; }
          body.attract #printstatus { display: none; }
          h2 { font-size: 1.1em; margin: 8px 0 0; }
          #qr { width: 220px; height: 220px; background: #fff; padding: 8px; border-radius: 8px; image-rendering: pixelated; }
          #guestlink { color: var(--accent); word-break: break-all; }
          #mailform { display: flex; gap: 6px; justify-content: center; }
          #mailform[hidden] { display: none; }
          #mailform input { min-width: 0; flex: 1; padding: 8px; font: inherit; }
          @media (min-width: 900px) { main { display: grid; grid-template-columns: 2fr 1fr; align-items: start; }
                                      #side { grid-column: 2; grid-row: 1 / span 3; } }
          /* The kiosk view (/?kiosk): the picture on the whole screen, one big button for a booth, its
             countdown, review and result with the QR code; no settings, no gallery. */
          #kioskshutter { display: none; position: fixed; left: 50%; bottom: 5vh; transform: translateX(-50%); width: 20vmin;
                          height: 20vmin; min-width: 96px; min-height: 96px; border-radius: 50%; border: 1.2vmin solid #fff;
                          background: var(--accent); color: #111; font-weight: 700; font-size: 3vmin; }
          body.kiosk main { display: block; padding: 0; max-width: none; }
          body.kiosk #stage { position: fixed; inset: 0; border-radius: 0; aspect-ratio: auto; width: auto; align-self: auto; }
          body.kiosk .controls, body.kiosk #settings, body.kiosk #camerasettings, body.kiosk #message, body.kiosk #side h2, body.kiosk #side > p, body.kiosk #gallery, body.kiosk #more,
          body.kiosk #guestlink { display: none; }
          body.kiosk #kioskshutter { display: block; }
          body.kiosk #takehome { position: fixed; right: 2vmin; top: 2vmin; padding: 12px; border-radius: 12px; text-align: center;
                                 background: rgba(0, 0, 0, .7); }
          /* Retake, while a booth's shot is shown in its place. */
          #retake { display: none; position: absolute; right: 12px; bottom: 12px; z-index: 1; }
          body.kiosk #retake { position: fixed; right: 5vw; bottom: 5vh; font-size: 3vmin; padding: 2vmin 4vmin; }
          /* The attract screen: the event's pictures in turn, and one line inviting the next guest. */
          #attract { display: none; position: fixed; inset: 0; background: #000; flex-direction: column; align-items: center;
                     justify-content: center; }
          #attract img { max-width: 100%; max-height: 80vh; object-fit: contain; }
          #invite { font-size: 5vmin; font-weight: 700; margin: 2vh 0 22vmin; text-align: center; }
          body.attract #attract { display: flex; }
          body.attract #takehome, body.attract #last { display: none !important; }
          body.attract #kioskshutter { z-index: 1; }
        </style>
        </head>
        <body>
        <main>
          <div id="stage">
            <img id="live" alt="the camera's live picture">
            <img id="last" alt="the last photo">
            <img id="shown" alt="the picture the camera shows">
            <div id="countdown" aria-live="assertive"></div>
            <div id="reviewbar">
              <button id="save" class="primary">Save</button>
              <button id="cancel">Cancel</button>
            </div>
            <button id="retake">Retake</button>
          </div>
          <div id="attract" aria-live="polite">
            <img id="attractpicture" alt="a picture taken at this booth" hidden>
            <p id="invite">Press Start for your photos</p>
          </div>
          <button id="kioskshutter" aria-label="Start the photo booth">Start</button>
          <div id="printstatus" role="status"></div>
          <div class="controls">
            <button id="shutter" aria-label="Take a photo"></button>
            <button id="booth">Booth</button>
            <button id="record">Record</button>
            <button id="end" disabled>End booth</button>
            <button id="switch">Switch camera</button>
            <button id="filter">Filter</button>
            <button id="zoomout" aria-label="Zoom out">−</button>
            <button id="zoomin" aria-label="Zoom in">+</button>
          </div>
          <p id="guestwarning" role="alert" hidden></p>
          <div class="controls">
            <label><input type="checkbox" id="review"> Review before saving</label>
            <label>Countdown <input type="number" id="delay" min="0" max="60" value="0"> s</label>
          </div>
          <details id="settings">
            <summary>Booth settings</summary>
            <form id="settingsform">
              <label>Countdown <input type="number" id="setcountdown" min="0" max="3600" step="0.5"> s</label>
              <label>Shots <input type="number" id="setshots" min="1" max="64"></label>
              <label>Layout <select id="setlayout"></select></label>
              <label>Filter <select id="setfilter"></select></label>
              <label>Background <select id="setbackground"></select></label>
              <label>Time stamp <input type="text" id="setstamp" placeholder="%Y-%m-%d %H:%M"></label>
              <label>Caption <input type="text" id="setcaption" maxlength="200" placeholder="Anna &amp; Ben, 12 June"></label>
              <label>Clip <select id="setanimation"></select></label>
              <label>Shots as <select id="setcodec"></select></label>
              <label>Screen colour <input type="text" id="setkey" placeholder="green, blue or #00B140"></label>
              <button id="samplekey" type="button" title="With the screen empty and lit: its colour as the camera sees it">Sample the screen</button>
              <label>Copies <input type="number" id="setcopies" min="1" max="10"></label>
              <label><input type="checkbox" id="setreview"> Review</label>
              <label><input type="checkbox" id="setprint"> Print</label>
              <label><input type="checkbox" id="setretake"> Retake</label>
              <label id="pinlabel" hidden>PIN <input type="password" id="setpin" inputmode="numeric" autocomplete="off" maxlength="12"></label>
              <label>Next guest after <input type="number" id="setattract" min="5" max="3600"> s</label>
              <button id="savesettings" type="submit" class="primary">Save settings</button>
            </form>
            <p id="printerstate" role="status" hidden></p>
          </details>
          <details id="camerasettings" hidden>
            <summary>Camera settings</summary>
            <form id="cameraform">
              <label>Setting <select id="camsetting"></select></label>
              <label>Value <span id="camvalueholder"></span></label>
              <label id="campinlabel" hidden>PIN <input type="password" id="campin" inputmode="numeric" autocomplete="off" maxlength="12"></label>
              <button id="setcamera" type="submit" class="primary">Set</button>
            </form>
          </details>
          <div id="message" role="status"></div>
          <section id="side">
            <div id="takehome" hidden>
              <h2>Take it home</h2>
              <p>Scan the code with a phone to download the photo.</p>
              <img id="qr" alt="QR code of the last photo's download link">
              <p><a id="guestlink">Download link</a></p>
              <form id="mailform" hidden>
                <input id="mailaddress" type="email" inputmode="email" autocomplete="off" placeholder="you@example.com" required maxlength="254"
                       aria-label="An e-mail address to send the picture to">
                <button type="submit">E-mail it</button>
              </form>
              <p id="mailsaid" role="status"></p>
              <p><button id="print" hidden>Print</button></p>
            </div>
            <h2>Photos</h2>
            <p><label>Album <select id="album"><option value="">All photos</option></select></label></p>
            <div id="gallery"></div>
            <button id="more" hidden>More photos</button>
          </section>
        </main>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        let countdownTimer = null, busy = false;

        function say(text, isError) {
          $("message").textContent = text || "";
          $("message").className = isError ? "error" : "";
        }

        async function call(path, body) {
          const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
          const answer = await response.json().catch(() => ({}));
          if (!response.ok) throw new Error(answer.error || ("the camera answered " + response.status));
          return answer;
        }

        function act(body) { return call("api/actions", body); }

        async function run(work, whileBusy) {
          if (busy && !whileBusy) return;
          busy = true;
          $("shutter").disabled = true;
          $("booth").disabled = true;
          $("kioskshutter").disabled = true;
          try { await work(); } catch (error) { say(error.message, true); }
          busy = false;
          armAttract();
          $("shutter").disabled = false;
          $("booth").disabled = false;
          $("kioskshutter").disabled = false;
          $("end").disabled = true;
        }

        function told(outcome) {
          if (outcome.outcome === "discarded") say("Discarded: nothing was saved.");
          else if (outcome.outcome === "kept" || outcome.outcome === "photos" || outcome.outcome === "booth_taken") say("Saved.");
        }

        $("shutter").onclick = () => {
          if (busy) { act({ action: "cut_short" }).catch(() => {}); return; }
          run(async () => {
            const body = { review: $("review").checked };
            const delay = Number($("delay").value);
            if (delay > 0) body.countdown = delay;
            told(await call("api/capture", body));
          });
        };
        const kiosk = new URLSearchParams(location.search).has("kiosk");
        if (kiosk) document.body.classList.add("kiosk");
        $("kioskshutter").onclick = () => { guestBegins(); $("booth").click(); };
        $("retake").onclick = () => act({ action: "retake" }).catch((error) => say(error.message, true));

        // The kiosk between guests: nothing of the last guest (code, thumbnail, Print), the
        // booth album's pictures in turn. It comes back once nothing has happened for the
        // settings' attract_after seconds after a guest's result.
        let attractAfter = 30, attractTimer = null, slideTimer = null, slides = [], slide = 0, reviewWaits = false;
        const attracting = () => document.body.classList.contains("attract");
        // Nothing of a guest stays: code, link, thumbnail, Print's picture, print words.
        function forgetGuest() {
          printable = null;
          $("takehome").hidden = true;
          $("last").style.display = "none";
          $("last").removeAttribute("src");
          $("qr").removeAttribute("src");
          $("guestlink").removeAttribute("href");
          $("mailaddress").value = "";
          $("mailsaid").textContent = "";
          $("printstatus").textContent = "";
        }
        function attract() {
          if (!kiosk) return;
          clearTimeout(attractTimer);
          // Not while a booth runs here, nor while a picture waits for its guest's Save or Cancel.
          if (busy || reviewWaits) { armAttract(); return; }
          forgetGuest();
          clearPicture();
          say("");
          document.body.classList.add("attract");
          fetch("api/photos?album=booth&composed=true&limit=30").then((r) => r.ok ? r.json() : { photos: [] }).then((page) => {
            slides = page.photos.map((photo) => "api/photos/" + photo.id + "/file");
            slide = 0;
            nextSlide();
          }).catch(() => {});
        }
        function nextSlide() {
          clearTimeout(slideTimer);
          if (!document.body.classList.contains("attract") || !slides.length) return;
          $("attractpicture").src = slides[slide++ % slides.length];
          $("attractpicture").hidden = false;
          slideTimer = setTimeout(nextSlide, 5000);
        }
        function guestBegins() {
          clearTimeout(attractTimer);
          clearTimeout(slideTimer);
          if (!attracting()) return;
          document.body.classList.remove("attract");
          // What came for the guest before while the attract screen showed (a late print, a late photo) is not this guest's.
          forgetGuest();
        }
        function armAttract() {
          if (!kiosk) return;
          clearTimeout(attractTimer);
          attractTimer = setTimeout(attract, attractAfter * 1000);
        }
        $("booth").onclick = () => run(async () => {
          $("end").disabled = false;
          // What the page's own controls leave, the booth takes from the settings.
          const body = { action: "booth" };
          if ($("review").checked) body.review = true;
          const delay = Number($("delay").value);
          if (delay > 0) body.countdown = delay;
          told(await act(body));
        });
        let recording = false;
        function showRecording(on) {
          recording = on;
          $("record").textContent = on ? "Stop recording" : "Record";
          $("record").classList.toggle("primary", on);
          if (on) say("Recording…");
        }
        $("record").onclick = () => act({ action: recording ? "record_stop" : "record_start" }).then((outcome) => {
          if (outcome.outcome === "recording") showRecording(true);
          if (outcome.outcome === "movie") { showRecording(false); say("Movie saved."); }
        }).catch((error) => say(error.message, true));
        $("end").onclick = () => act({ action: "end_run" }).catch((error) => say(error.message, true));
        $("save").onclick = () => act({ action: "keep" }).catch((error) => say(error.message, true));
        $("cancel").onclick = () => act({ action: "discard" }).catch((error) => say(error.message, true));
        $("switch").onclick = () => act({ action: "switch_camera" }).then((outcome) =>
          say(outcome.outcome === "switched" ? "Now: " + outcome.device : "There is no other camera.")).catch((error) => say(error.message, true));
        $("filter").onclick = () => act({ action: "image", filter: "next" }).then((outcome) =>
          say("Filter: " + (outcome.filter || "none"))).catch((error) => say(error.message, true));
        function zoomBy(step) {
          act({ action: "image", zoom: step }).then((outcome) => say("Zoom: " + outcome.zoom.toFixed(2) + "×"))
            .catch((error) => say(error.message, true));
        }
        $("zoomin").onclick = () => zoomBy("in");
        $("zoomout").onclick = () => zoomBy("out");
        $("last").onclick = () => { if ($("last").dataset.file) location.href = $("last").dataset.file; };

        function showCountdown(seconds) {
          const shown = $("countdown");
          shown.textContent = seconds;
          shown.style.display = "flex";
          clearTimeout(countdownTimer);
          countdownTimer = setTimeout(() => { shown.style.display = "none"; }, 1100);
        }

        function showPicture(kind) {
          const shown = $("shown");
          shown.src = "api/shown.jpg?at=" + Date.now();
          shown.style.display = "block";
          $("reviewbar").style.display = kind === "review" ? "flex" : "none";
          if (kind === "review") say("Save the photo, or cancel it.");
        }

        function clearPicture() {
          $("shown").style.display = "none";
          $("reviewbar").style.display = "none";
          $("retake").style.display = "none";
        }

        function addPhoto(photo, first) {
          const item = document.createElement("div");
          item.className = "item";
          item.dataset.id = photo.id;
          const link = document.createElement("a");
          link.href = "api/photos/" + photo.id + "/file";
          link.dataset.id = photo.id;
          const picture = document.createElement("img");
          picture.loading = "lazy";
          picture.alt = "photo " + photo.id;
          picture.src = "api/photos/" + photo.id + "/thumbnail";
          link.append(picture);
          // A picture of the gallery chosen is offered to take home: its QR code, and Print.
          if (photo.guest_link) link.onclick = (event) => { event.preventDefault(); offerDownload(photo); };
          // Deleting takes the library's file and thumbnail away, after the owner says so.
          const remove = document.createElement("button");
          remove.className = "delete";
          remove.textContent = "×";
          remove.setAttribute("aria-label", "Delete photo " + photo.id);
          remove.onclick = async () => {
            if (!confirm("Delete photo " + photo.id + " from the library? This cannot be undone.")) return;
            const response = await fetch("api/photos/" + photo.id, { method: "DELETE" });
            const answer = await response.json().catch(() => ({}));
            if (!response.ok) { say(answer.error || ("the camera answered " + response.status), true); return; }
            item.remove();
            shownPhotos = Math.max(0, shownPhotos - 1);
            if (printable === photo.id) { printable = null; $("takehome").hidden = true; }
            say("Deleted photo " + photo.id + ".");
            loadAlbums();
          };
          item.append(link, remove);
          shownPhotos += 1;
          if (first) $("gallery").prepend(item); else $("gallery").append(item);
        }

        let printable = null;
        function offerDownload(photo) {
          if (!photo.guest_link) return;
          printable = photo.id;
          $("qr").src = "api/photos/" + photo.id + "/qr.svg";
          $("guestlink").href = photo.guest_link;
          $("guestlink").textContent = location.origin + photo.guest_link;
          $("mailsaid").textContent = "";
          $("takehome").hidden = false;
        }
        // The picture on offer e-mailed to the address a guest types, as its guest page sends it;
        // the address is cleared once sent, so the next guest does not see it.
        $("mailform").onsubmit = async (submitted) => {
          submitted.preventDefault();
          const link = $("guestlink").getAttribute("href");
          if (!link) return;
          $("mailsaid").textContent = "Sending…";
          try {
            const response = await fetch(link + "/email", { method: "POST", headers: { "Content-Type": "application/json" },
                                                            body: JSON.stringify({ address: $("mailaddress").value }) });
            const answer = await response.json().catch(() => ({}));
            $("mailsaid").textContent = response.ok ? "Sent. Look in your inbox." : (answer.error || "It could not be sent.");
            if (response.ok) $("mailaddress").value = "";
          } catch (error) { $("mailsaid").textContent = "It could not be sent: the booth did not answer."; }
        };

        function showLast(photo) {
          const last = $("last");
          last.src = "api/photos/" + photo.id + "/thumbnail";
          last.dataset.file = "api/photos/" + photo.id + "/file";
          last.style.display = "block";
        }

        // The gallery a page of 60 at a time, newest first; More brings the next.
        let shownPhotos = 0;
        async function loadGallery(more) {
          const album = $("album").value;
          const offset = more ? shownPhotos : 0;
          const response = await fetch("api/photos?limit=60&offset=" + offset + (album ? "&album=" + encodeURIComponent(album) : ""));
          if (!response.ok) { say((await response.json()).error, true); return; }
          const page = await response.json();
          if (!more) { $("gallery").replaceChildren(); shownPhotos = 0; }
          page.photos.forEach((photo) => addPhoto(photo, false));
          $("more").hidden = shownPhotos >= page.total;
          if (page.photos.length && !album && !kiosk && !more) showLast(page.photos[0]);
        }
        $("more").onclick = () => loadGallery(true);

        async function loadAlbums() {
          const response = await fetch("api/albums");
          if (!response.ok) return;
          const chosen = $("album").value;
          const options = [new Option("All photos", "")];
          for (const album of await response.json()) options.push(new Option(album.album + " (" + album.photos + ")", album.album));
          $("album").replaceChildren(...options);
          $("album").value = chosen;
        }
        $("album").onchange = () => loadGallery(false);
        // The Print button, when the server has a printer; and why guests' phones cannot open the
        // QR codes' links, when they cannot (on the kiosk too, for the owner to see).
        // The owner's view of the printer: its state, what it says is wrong or low, its supplies,
        // and the copies printed.
        async function showPrinter() {
          const response = await fetch("api/printer");
          if (!response.ok) return;
          const printer = await response.json();
          const supplies = printer.supplies.map((supply) => supply.name + " " + (supply.level === undefined || supply.level === null ? "?" : supply.level + "%"));
          $("printerstate").textContent = "Printer " + printer.printer + ": " + printer.state
            + (printer.reasons.length ? " (" + printer.reasons.join(", ") + ")" : "")
            + (supplies.length ? " · " + supplies.join(", ") : "") + " · " + printer.printed + " printed";
          $("printerstate").hidden = false;
        }
        fetch("api/status").then((r) => r.json()).then((status) => {
          $("print").hidden = !status.printer;
          if (status.printer) showPrinter();
          $("guestwarning").textContent = status.guest_warning || "";
          $("guestwarning").hidden = !status.guest_warning;
          $("mailform").hidden = !status.mail;
        }).catch(() => {});
        // A job's end may be told before the request that started it answers.
        const printedJobs = new Set();
        $("print").onclick = () => act({ action: "print", id: printable })
          .then((outcome) => { if (!printedJobs.has(outcome.job)) say("Printing…"); })
          .catch((error) => say(error.message, true));

        function listen() {
          const events = new EventSource("api/events");
          events.onmessage = (message) => {
            const event = JSON.parse(message.data);
            // A guest at work (here or from a push-button or the API) ends the attract screen,
            // and whatever happens puts it off.
            if (["countdown", "shot", "showing", "reviewing"].includes(event.event)) guestBegins();
            armAttract();
            switch (event.event) {
              case "countdown": showCountdown(event.seconds_left); break;
              case "retake_offered": $("retake").style.display = "block"; break;
              case "showing": showPicture(event.picture); break;
              case "cleared": clearPicture(); break;
              case "shot": say("Shot " + event.number + " of " + event.of); break;
              case "photo":
                if (event.id) {
                  if (!$("album").value || (event.albums || []).includes($("album").value)) addPhoto(event, true);
                  // Between guests, a late photo of the guest before is offered to nobody.
                  if (!attracting()) {
                    if (!event.composed) showLast(event);
                    offerDownload(event);
                  }
                  loadAlbums();
                }
                break;
              case "recording": showRecording(true); break;
              case "movie": showRecording(false); addPhoto(event.movie, true); break;
              case "movie_failed": showRecording(false); say(event.message, true); break;
              case "printing": if (!attracting()) $("printstatus").textContent = "Printing your picture…"; break;
              case "print_progress":
                say("Printing… " + event.number + " of " + event.of);
                if (!attracting()) $("printstatus").textContent = "Printing your picture… " + event.number + " of " + event.of;
                break;
              case "printed":
                printedJobs.add(event.job); say("Printed.");
                if (!attracting()) $("printstatus").textContent = "Printed: take it from the printer.";
                showPrinter();
                break;
              case "print_failed":
                say(event.message, true);
                if (!attracting()) $("printstatus").textContent = event.message;
                showPrinter();
                break;
              case "reviewing": reviewWaits = true; break;
              case "kept": case "discarded": reviewWaits = false; break;
              case "interrupted": case "failed": say(event.message, true); break;
              case "resumed": say(event.message); watchLive(); break;
            }
          };
        }

        function watchLive() {
          const live = $("live");
          live.onerror = () => setTimeout(watchLive, 2000);
          live.src = "stream.mjpg?at=" + Date.now();
        }

        // The booth's settings: read from the server, changed with Save, applied at once and kept.
        function fill(select, values, chosen, names) {
          select.replaceChildren(...values.map((value) => new Option(names ? names(value) : value, value)));
          select.value = chosen;
        }
        function showSettings(settings) {
          $("setcountdown").value = settings.countdown;
          $("setshots").value = settings.shots;
          fill($("setlayout"), ["2x2", "1x4", ...(settings.templates || [])], settings.layout,
               (value) => ({ "2x2": "2×2 grid", "1x4": "1×4 strip" })[value] || value);
          fill($("setfilter"), ["", ...(settings.filters || [])], settings.filter, (value) => value || "none");
          fill($("setbackground"), ["", ...(settings.backgrounds || [])], settings.background, (value) => value || "none");
          $("setstamp").value = settings.stamp || "";
          $("setcaption").value = settings.caption || "";
          fill($("setanimation"), ["", "mp4", "gif", "boomerang"], settings.animation || "",
               (value) => ({ "": "none", mp4: "MP4 movie", gif: "GIF", boomerang: "boomerang" })[value]);
          fill($("setcodec"), ["jpeg", "hevc"], settings.codec || "jpeg", (value) => ({ jpeg: "JPEG", hevc: "HEIC" })[value]);
          $("setkey").value = settings.key_color || "green";
          $("setcopies").value = settings.copies || 1;
          $("setreview").checked = settings.review;
          $("setprint").checked = settings.print;
          $("setprint").disabled = !settings.printer;
          $("setretake").checked = settings.retake !== false;
          $("setattract").value = settings.attract_after;
          attractAfter = settings.attract_after || 30;
          $("pinlabel").hidden = !settings.pin_required;
          $("campinlabel").hidden = !settings.pin_required;
        }
        async function loadSettings() {
          const response = await fetch("api/settings");
          if (response.ok) showSettings(await response.json());
        }
        $("settingsform").onsubmit = async (submitted) => {
          submitted.preventDefault();
          const settings = { countdown: Number($("setcountdown").value), shots: Number($("setshots").value), layout: $("setlayout").value,
                             filter: $("setfilter").value, background: $("setbackground").value, stamp: $("setstamp").value,
                             review: $("setreview").checked, print: $("setprint").checked, retake: $("setretake").checked,
                             attract_after: Number($("setattract").value), caption: $("setcaption").value, animation: $("setanimation").value,
                             codec: $("setcodec").value, key_color: $("setkey").value, copies: Number($("setcopies").value) };
          const answer = await changeSettings("PUT", "api/settings", JSON.stringify(settings));
          if (answer) say(answer.kept_in ? "Settings saved in " + answer.kept_in + "." : "Settings saved.");
        };
        // The key colour sampled from the camera's picture, with the screen empty, and kept.
        $("samplekey").onclick = async () => {
          const answer = await changeSettings("POST", "api/settings/sample-key");
          if (answer) say("The screen's colour, as the camera sees it, is " + answer.key_color + ": saved.");
        };
        // Sends a change of the settings (with the PIN when one is typed) and shows the settings it
        // left; the answer, or nothing when it was refused (said).
        async function changeSettings(method, path, body) {
          const answer = await sendChange(method, path, body);
          if (answer) showSettings(answer);
          return answer;
        }
        // Sends a change (with the PIN when one is typed): the answer, or nothing when it was refused (said).
        async function sendChange(method, path, body) {
          try {
            const headers = { "Content-Type": "application/json" };
            const pin = $("setpin").value || $("campin").value;
            if (pin) headers["X-Camctl-PIN"] = pin;
            const response = await fetch(path, { method, headers, body });
            const answer = await response.json().catch(() => ({}));
            if (!response.ok) throw new Error(answer.error || ("the camera answered " + response.status));
            return answer;
          } catch (error) {
            say(error.message, true);
            return null;
          }
        }

        // A DSLR's own settings (ISO, aperture, shutter speed, …), one chosen at a time and set to
        // one of the values the camera offers; the section stays hidden for any other camera.
        let cameraSettings = [];
        async function loadCameraSettings() {
          const response = await fetch("api/camera-settings").catch(() => null);
          if (!response || !response.ok) return;
          cameraSettings = (await response.json()).filter((setting) => !setting.read_only && setting.kind !== "date");
          if (!cameraSettings.length) return;
          const chosen = $("camsetting").value;
          fill($("camsetting"), cameraSettings.map((setting) => setting.name),
               cameraSettings.some((setting) => setting.name === chosen) ? chosen : cameraSettings[0].name,
               (name) => cameraSettings.find((setting) => setting.name === name).label);
          showCameraSetting();
          $("camerasettings").hidden = false;
        }
        function showCameraSetting() {
          const setting = cameraSettings.find((each) => each.name === $("camsetting").value);
          let control;
          if (setting.kind === "choice" || setting.kind === "toggle") {
            control = document.createElement("select");
            const values = setting.kind === "toggle" ? ["0", "1"] : setting.choices || [];
            fill(control, values, setting.value, setting.kind === "toggle" ? (value) => (value === "1" ? "on" : "off") : null);
          } else {
            control = document.createElement("input");
            control.type = setting.kind === "range" ? "number" : "text";
            if (setting.kind === "range") Object.assign(control, { min: setting.minimum, max: setting.maximum, step: setting.step || "any" });
            control.value = setting.value;
          }
          control.id = "camvalue";
          $("camvalueholder").replaceChildren(control);
        }
        $("camsetting").onchange = showCameraSetting;
        $("cameraform").onsubmit = async (submitted) => {
          submitted.preventDefault();
          const name = $("camsetting").value;
          const answer = await sendChange("PUT", "api/camera-settings", JSON.stringify({ [name]: $("camvalue").value }));
          if (!answer || !answer.length) return;
          const index = cameraSettings.findIndex((setting) => setting.name === name);
          if (index >= 0) cameraSettings[index] = answer[0];
          showCameraSetting();
          say(answer[0].label + " is now " + answer[0].value + ".");
        };

        watchLive();
        loadSettings();
        loadCameraSettings();
        listen();
        loadAlbums();
        loadGallery();
        attract();
        </script>
        </body>
        </html>
        """#
}
