/// The page served at `/`: one self-contained HTML file, no outside scripts.
enum WebPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>camctl</title></head>
        <body><img id="live" src="stream.mjpg" alt="the camera"></body></html>
        """
}
