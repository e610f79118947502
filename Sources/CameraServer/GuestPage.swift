import PhotoLibrary

/// What a guest's QR code opens on a phone (`/p/ID-TAG`): the picture (or the movie), a Download
/// button, a Share button where the phone can share (the Web Share API), and the Open Graph tags
/// a messaging app reads to preview a shared link. It reaches its one picture only.
enum GuestPage {
    /// The page of `photo`, whose link's last part is `part` (`ID-TAG`); `base` is where guests
    /// reach the server, for the preview's absolute image address.
    static func html(of photo: LibraryPhoto, part: String, base: String) -> String {
        let file = "\(part)/file"
        let name = "camctl-\(photo.id).\(photo.fileName.split(separator: ".").last.map(String.init) ?? "jpg")"
        let isMovie = photo.kind == .movie
        let shown = isMovie
            ? #"<video src="\#(file)" controls playsinline poster="\#(part)/thumbnail"></video>"#
            : #"<img src="\#(file)" alt="Your photo">"#
        let preview = isMovie ? "\(base)/p/\(part)/thumbnail" : "\(base)/p/\(file)"
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
            </style>
            </head>
            <body>
            <main>
              \#(shown)
              <div class="actions">
                <a id="download" href="\#(file)" download="\#(escaped(name))">Download</a>
                <button id="share" hidden>Share</button>
              </div>
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
