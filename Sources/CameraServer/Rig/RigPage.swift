/// The page of `camctl fleet serve` at `/`: one self-contained HTML file. Every node is a tile of
/// its live picture, which the browser fetches from the node's own link, at most 5 pictures a
/// second a tile and about 200 a second in all, so a rig of hundreds stays light for the nodes
/// and the browser; beside it, the node's state, photos, free disk, last photo and the captures
/// it missed. One shutter takes a synchronized photo on every node a second ahead; a time of day
/// takes it at that instant; Collect brings every node's photos into the controller's library,
/// with a bar of its progress.
enum RigPage {
    static let html = PageHead.opening(title: "camctl rig") + #"""
          * { box-sizing: border-box; }
          body { margin: 0; font: 14px/1.35 system-ui, sans-serif; background: #111; color: #eee; }
          header { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 10px 12px;
                   background: #181818; border-bottom: 1px solid #333; }
          h1 { font-size: 1.1em; margin: 0 8px 0 0; }
          button { font: inherit; padding: 8px 14px; border-radius: 999px; border: 0; background: #333; color: #eee; cursor: pointer; }
          button:disabled { opacity: .5; cursor: default; }
          button.primary { background: var(--accent); color: #111; font-weight: 700; }
          input[type=time] { font: inherit; background: #222; color: #eee; border: 1px solid #444; border-radius: 6px; padding: 5px; }
          progress { width: 160px; }
          #message { flex-basis: 100%; min-height: 1.3em; color: #ffd9a0; }
          #lastcapture { flex-basis: 100%; color: #bbb; }
          #tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; padding: 12px; }
          .tile { background: #1d1d1d; border-radius: 6px; overflow: hidden; border: 2px solid transparent; }
          .tile.offline { opacity: .45; }
          .tile.missed { border-color: #c0392b; }
          .tile img { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: contain; background: #000; }
          .tile .caption { padding: 4px 6px; font-size: 12px; display: flex; flex-wrap: wrap; gap: 0 8px; }
          .tile .name { font-weight: 700; }
          .tile .state.online { color: #7dd87d; }
          .tile .state.offline { color: #e77; }
          .tile .miss { color: #ff8a80; }
          a { color: var(--accent); }
        </style>
        </head>
        <body>
        <header>
          <h1 id="title">rig</h1>
          <span id="counts"></span>
          <button id="shutter" class="primary" title="A photo on every node, a second from now">Shutter</button>
          <label>at <input id="at" type="time" step="1"></label>
          <button id="captureat">Capture at</button>
          <button id="collect">Collect</button>
          <progress id="progress" max="1" value="0" hidden></progress>
          <span id="collection"></span>
          <div id="lastcapture"></div>
          <div id="message" role="status"></div>
        </header>
        <main id="tiles"></main>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        // Each tile at most 5 pictures a second, and the whole page about 200.
        const fastest = 200, perSecond = 200;
        const tiles = new Map();
        let nodeCount = 0, capturing = false;

        function say(text) { $("message").textContent = text; }
        function clock(us) {
          const d = new Date(us / 1000);
          return d.toLocaleTimeString([], { hour12: false }) + "." + String(d.getMilliseconds()).padStart(3, "0");
        }
        function bytes(n) {
          if (n == null) return "";
          return n >= 1e9 ? (n / 1e9).toFixed(1) + " GB free" : (n / 1e6).toFixed(0) + " MB free";
        }
        async function api(path, body) {
          const options = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
          const response = await fetch(path, options);
          const answer = await response.json().catch(() => ({}));
          if (!response.ok) throw new Error(answer.error || response.statusText);
          return answer;
        }

        // A tile's picture, fetched again once it has come, no sooner than its turn allows.
        function refresh(tile) {
          if (!tile.url || !tile.online || document.hidden) { tile.busy = false; return; }
          tile.busy = true;
          tile.asked = performance.now();
          tile.img.src = tile.url + "?n=" + (++tile.count);
        }
        function interval() { return Math.max(fastest, 1000 * nodeCount / perSecond); }
        function makeTile(node) {
          const element = document.createElement("div");
          element.className = "tile";
          element.dataset.node = node.node;
          const img = document.createElement("img");
          img.alt = node.node;
          const caption = document.createElement("div");
          caption.className = "caption";
          element.append(img, caption);
          const tile = { element, img, caption, url: null, online: false, busy: false, count: 0, asked: 0 };
          img.onload = () => {
            element.dataset.shown = "1";
            setTimeout(() => refresh(tile), Math.max(0, interval() - (performance.now() - tile.asked)));
          };
          img.onerror = () => setTimeout(() => refresh(tile), 2000);
          return tile;
        }
        function caption(tile, node) {
          const parts = [["name", node.node], ["state " + node.state, node.state]];
          if (node.photos != null) parts.push(["", node.photos + " photos"]);
          if (node.free_bytes != null) parts.push(["", bytes(node.free_bytes)]);
          if (node.missed.length) parts.push(["miss", "missed " + node.missed.length]);
          tile.caption.replaceChildren(...parts.map(([kind, text]) => {
            const span = document.createElement("span");
            span.className = kind;
            span.textContent = text;
            return span;
          }));
          if (node.last_photo) {
            const link = document.createElement("a");
            link.href = node.last_photo.url;
            link.textContent = "last " + clock(node.last_photo.captured_at_us);
            tile.caption.append(link);
          }
          if (node.missed.length) tile.caption.title = "missed the captures at " + node.missed.map(clock).join(", ");
        }
        function render(rig) {
          $("title").textContent = "rig " + rig.fleet;
          document.title = "camctl rig " + rig.fleet;
          const nodes = rig.nodes.slice().sort((a, b) => a.node.localeCompare(b.node, undefined, { numeric: true }));
          nodeCount = nodes.length;
          const online = nodes.filter((n) => n.state === "online").length;
          const shown = document.querySelectorAll(".tile[data-shown]").length;
          $("counts").textContent = `${nodes.length} nodes, ${online} online, ${shown} showing`;
          $("counts").dataset.nodes = nodes.length;
          $("counts").dataset.shown = shown;
          const order = [];
          for (const node of nodes) {
            let tile = tiles.get(node.node);
            if (!tile) { tile = makeTile(node); tiles.set(node.node, tile); }
            tile.url = node.tile_url;
            tile.online = node.state === "online";
            tile.element.classList.toggle("offline", !tile.online);
            tile.element.classList.toggle("missed", node.missed.length > 0);
            caption(tile, node);
            if (!tile.busy) refresh(tile);
            order.push(tile.element);
          }
          $("tiles").replaceChildren(...order);
          capturing = rig.capturing;
          $("shutter").disabled = $("captureat").disabled = capturing;
          if (rig.captures.length) $("lastcapture").textContent = describe(rig.captures[0]);
          const c = rig.collection;
          $("collect").disabled = c.state === "running";
          $("progress").hidden = c.state === "idle";
          if (c.state !== "idle") {
            $("progress").max = Math.max(1, c.listed);
            $("progress").value = c.collected + c.had;
            const mb = (c.bytes / 1048576).toFixed(1);
            $("collection").textContent = (c.state === "running" ? "collecting: " : "collected: ")
              + `${c.collected + c.had} of ${c.listed} photos (${c.had} there already), ${mb} MB`
              + (c.problems && c.problems.length ? "; " + c.problems.join("; ") : "");
            $("collection").dataset.state = c.state;
          }
        }
        function describe(capture) {
          const missing = capture.refused.map((r) => `${r.node} refused (${r.message})`)
            .concat(capture.silent.map((n) => `${n} did not answer`), capture.offline.map((n) => `${n} was offline`));
          return `capture at ${clock(capture.at_us)}: ${capture.photos.length} photos, skew ${capture.skew_ms.toFixed(1)} ms`
            + (missing.length ? "; " + missing.join(", ") : "");
        }
        async function poll() {
          try {
            render(await api("api/rig"));
          } catch (error) {
            say("The rig's state could not be read (" + error.message + "); trying again.");
          }
          setTimeout(poll, 1000);
        }
        async function capture(seconds) {
          $("shutter").disabled = $("captureat").disabled = true;
          say("Capturing at " + clock(Date.now() * 1000 + seconds * 1e6) + "…");
          try {
            const done = await api("api/capture", { in: seconds });
            $("lastcapture").textContent = describe(done);
            say("");
          } catch (error) {
            say(error.message + ".");
          }
          $("shutter").disabled = $("captureat").disabled = capturing;
        }
        $("shutter").onclick = () => capture(1);
        $("captureat").onclick = () => {
          const [h, m, s] = ($("at").value || "").split(":").map(Number);
          if (isNaN(h) || isNaN(m)) { say("Choose the time of day to capture at."); return; }
          const when = new Date();
          when.setHours(h, m, s || 0, 0);
          const seconds = (when.getTime() - Date.now()) / 1000;
          if (seconds < 0.05 || seconds > 3600) { say("Choose a time within the next hour."); return; }
          capture(seconds);
        };
        $("collect").onclick = async () => {
          try {
            await api("api/collect", {});
            say("Collecting the nodes' photos.");
          } catch (error) {
            say(error.message + ".");
          }
        };
        document.addEventListener("visibilitychange", () => { for (const tile of tiles.values()) if (!tile.busy) refresh(tile); });
        poll();
        </script>
        </body>
        </html>
        """#
}
