/// The opening every page of the servers shares: HTML5 in UTF-8 at a phone's width, its title,
/// and the dark colours with the yellow accent its styles go on from (`<style>` is left open).
enum PageHead {
    static func opening(title: String) -> String {
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\#(title)</title>
        <style>
          :root { color-scheme: dark; --accent: #ffd23f; }

        """#
    }
}
