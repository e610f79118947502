import PhotoLibrary

/// What a guest's QR code opens on a phone (`/p/ID-TAG`): the picture (or the movie), a Download
/// button, a Share button where the phone can share (the Web Share API), and the Open Graph tags
/// a messaging app reads to preview a shared link; a booth's picture brings its clip and its shots,
/// each with a link of its own. It reaches its own pictures only.
enum GuestPage {
    /// The last part of a photo's link that shows it as JPEG (a HEIC's rendition).
    static let renditionName = "shown.jpg"

    /// The page of `photo`, whose link's last part is `part` (`ID-TAG`); `base` is where guests
    /// reach the server, for the preview's absolute image address.
    /// With `mails`, a form sends the picture to the address the guest types (the server's mail).
    static func html(of photo: LibraryPhoto, part: String, parts: [(photo: LibraryPhoto, part: String)] = [], base: String,
                     mails: Bool = false) -> String {
        let file = "\(part)/file"
        let name = "camctl-\(photo.id).\(extensionOf(photo))"
        let isMovie = photo.kind == .movie
        // A HEIC, which phones' browsers do not show, is shown as its JPEG rendition; Download
        // keeps the HEIC. (Until it is final, its file is a JPEG already.)
        let picture = photo.codec == "hevc" && !photo.isProcessing ? "\(part)/\(renditionName)" : file
        let shown = isMovie ? clip(photo, part: part, loops: false) : #"<img src="\#(picture)" alt="Your photo">"#
        let preview = isMovie ? "\(base)/p/\(part)/thumbnail" : "\(base)/p/\(picture)"
        return #"""
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Your \#(isMovie ? "movie" : "photo")</title>
            <meta property="og:type" content="website">
            <meta property="og:title" content="Your \#(isMovie ? "movie" : "photo") from the booth">
            <meta property="og:image" content="\#(escaped(preview))">
            <meta property="og:url" content="\#(escaped("\(base)/p/\(part)"))">
            <style>
              body { margin: 0; background: #111; color: #eee; font: 16px system-ui, sans-serif; }
              main { max-width: 720px; margin: 0 auto; padding: 16px; text-align: center; }
              img, video { width: 100%; height: auto; border-radius: 8px; background: #222; }
              .actions { display: flex; gap: 12px; justify-content: center; margin-top: 16px; }
              .actions a, .actions button { flex: 1; max-width: 240px; padding: 14px; border: 0; border-radius: 8px; font: inherit;
                font-weight: 700; text-decoration: none; background: #ffd23f; color: #111; cursor: pointer; }
              .actions button { background: #333; color: #eee; }
              h2 { font-size: 16px; font-weight: 600; margin: 28px 0 12px; }
              .clip { margin-bottom: 8px; }
              .clip a { color: #ffd23f; }
              .shots { display: grid; grid-template-columns: repeat(auto-fill, minmax(96px, 1fr)); gap: 8px; }
              .shots img { aspect-ratio: 1; object-fit: cover; }
              #mail { display: flex; gap: 8px; justify-content: center; margin-top: 16px; }
              #mail input { flex: 1; max-width: 300px; padding: 12px; border-radius: 8px; border: 1px solid #444; background: #222;
                color: #eee; font: inherit; }
              #mail button { padding: 12px 18px; border: 0; border-radius: 8px; background: #333; color: #eee; font: inherit; font-weight: 700; }
              #mailsaid { min-height: 1.4em; color: #bbb; }
            </style>
            </head>
            <body>
            <main>
              \#(shown)
              <div class="actions">
                <a id="download" href="\#(file)" download="\#(escaped(name))">Download</a>
                <button id="share" hidden>Share</button>
              </div>
            \#(mails ? mailForm(part) : "")
            \#(partsSection(parts))
            </main>
            <script>
            "use strict";
            const share = document.getElementById("share");
            if (navigator.share) {
              share.hidden = false;
              share.onclick = () => navigator.share({ title: document.title, url: location.href }).catch(() => {});
            }
            </script>
            </body>
            </html>
            """#
    }

    /// The form that e-mails the picture: an address, Send, and what happened, in one line.
    private static func mailForm(_ part: String) -> String {
        #"""
          <form id="mail">
            <input id="address" type="email" inputmode="email" autocomplete="email" placeholder="you@example.com" required maxlength="254"
                   aria-label="Your e-mail address">
            <button type="submit">E-mail it</button>
          </form>
          <p id="mailsaid" role="status"></p>
          <script>
          "use strict";
          document.getElementById("mail").onsubmit = async (submitted) => {
            submitted.preventDefault();
            const said = document.getElementById("mailsaid"), address = document.getElementById("address");
            said.textContent = "Sending…";
            try {
              const response = await fetch("\#(part)/email", { method: "POST", headers: { "Content-Type": "application/json" },
                                                              body: JSON.stringify({ address: address.value }) });
              const answer = await response.json().catch(() => ({}));
              said.textContent = response.ok ? "Sent. Look in your inbox." : (answer.error || "It could not be sent.");
              if (response.ok) address.value = "";
            } catch (error) { said.textContent = "It could not be sent: the booth did not answer."; }
          };
          </script>
        """#
    }

    /// A booth's clip and shots under its picture: the clip playing with its own Download link, the
    /// shots as thumbnails each opening its own page; nothing for a picture without parts.
    private static func partsSection(_ parts: [(photo: LibraryPhoto, part: String)]) -> String {
        guard !parts.isEmpty else { return "" }
        let clips = parts.filter { $0.photo.kind == .movie }.map { clip in
            #"<div class="clip">\#(Self.clip(clip.photo, part: clip.part, loops: true))"#
                + #"<a href="\#(clip.part)/file" download="camctl-\#(clip.photo.id).\#(extensionOf(clip.photo))">Download the clip</a></div>"#
        }
        let shots = parts.filter { $0.photo.kind != .movie }.map { shot in
            #"<a href="\#(shot.part)"><img src="\#(shot.part)/thumbnail" alt="shot \#(shot.photo.id)"></a>"#
        }
        return #"<section id="parts"><h2>From the same booth</h2>"# + clips.joined()
            + (shots.isEmpty ? "" : #"<div class="shots">"# + shots.joined() + "</div>") + "</section>"
    }

    /// A movie as a phone plays it: an MP4 in a video player, a GIF as the image it is (which
    /// plays by itself; a video player refuses it).
    private static func clip(_ movie: LibraryPhoto, part: String, loops: Bool) -> String {
        movie.codec == "gif"
            ? #"<img src="\#(part)/file" alt="Your clip">"#
            : #"<video src="\#(part)/file" controls playsinline\#(loops ? " loop" : "") poster="\#(part)/thumbnail"></video>"#
    }

    /// A photo's file name extension.
    private static func extensionOf(_ photo: LibraryPhoto) -> String {
        photo.fileName.split(separator: ".").last.map(String.init) ?? "jpg"
    }

    /// Text safe inside an HTML attribute.
    private static func escaped(_ text: String) -> String {
        text.map { character in
            switch character {
            case "&": "&amp;"
            case "\"": "&quot;"
            case "<": "&lt;"
            case ">": "&gt;"
            default: String(character)
            }
        }.joined()
    }
}
