/// An animated GIF made of RGB pictures of one size: one palette of 256 colours chosen for them
/// all, each picture shown for its time, the whole played over for ever.
///
/// ```swift
/// let data = AnimatedGIF.encode([first, second], width: 640, height: 480, centiseconds: [60, 60])
/// ```
public enum AnimatedGIF {
    /// The GIF file of `pictures` (RGB, 3 bytes a pixel, `width` x `height` each), the n-th shown
    /// for `centiseconds[n]` hundredths of a second (the last entry for any beyond).
    public static func encode(_ pictures: [[UInt8]], width: Int, height: Int, centiseconds: [Int]) -> [UInt8] {
        let palette = ColorPalette(for: pictures)
        var file: [UInt8] = Array("GIF89a".utf8)
        file += littleEndian(width) + littleEndian(height)
        file += [0xF7, 0, 0]  // a global table of 256 colours, 8 bits a primary; background 0; square pixels
        file += palette.colors + [UInt8](repeating: 0, count: 768 - palette.colors.count)
        // Plays over for ever (the application extension browsers read for looping).
        file += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        let encoder = LZWEncoder(minimumCodeSize: 8)
        for (index, picture) in pictures.enumerated() {
            let delay = centiseconds.isEmpty ? 10 : centiseconds[min(index, centiseconds.count - 1)]
            // Each picture covers the whole screen and stays until the next.
            file += [0x21, 0xF9, 4, 0x04] + littleEndian(min(65_535, max(2, delay))) + [0, 0]
            file += [0x2C, 0, 0, 0, 0] + littleEndian(width) + littleEndian(height) + [0]
            file.append(8)
            let compressed = encoder.encode(palette.indexes(of: picture, width: width, height: height))
            var start = 0
            while start < compressed.count {
                let end = min(start + 255, compressed.count)
                file.append(UInt8(end - start))
                file += compressed[start..<end]
                start = end
            }
            file.append(0)
        }
        file.append(0x3B)
        return file
    }

    private static func littleEndian(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
}
