import CQRencode

/// QR codes as SVG pictures, drawn from libqrencode's modules.
enum QRCode {
    /// `text` as an SVG QR code (error correction M, a quiet zone of four modules), or `nil` when
    /// it is too long for one.
    static func svg(_ text: String) -> [UInt8]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width), modules = code.pointee.data!
        let quiet = 4, side = width + 2 * quiet
        var path = ""
        for row in 0..<width {
            for column in 0..<width where modules[row * width + column] & 1 == 1 {
                path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
            }
        }
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
        return Array(svg.utf8)
    }
}
