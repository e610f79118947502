import Foundation

/// HEVC pictures made by GStreamer's own tools (gst-launch-1.0 with x265enc and h265parse), for
/// testing HEIF files without the package's GStreamer layer.
public enum HEVCFixture {
    /// Encodes one frame of a test pattern: its hvcC record (from the caps' codec_data) and its
    /// access unit (length-prefixed NAL units).
    public static func encode(width: Int, height: Int, pattern: String = "smpte") async throws -> (configuration: [UInt8], accessUnit: [UInt8]) {
        let folder = try TemporaryFolder()
        let file = folder.path("picture.h265")
        let result = try await ChildProcess.run("gst-launch-1.0", [
            "-v", "videotestsrc", "num-buffers=1", "pattern=\(pattern)",
            "!", "video/x-raw,format=I420,width=\(width),height=\(height),colorimetry=bt709",
            "!", "x265enc", "speed-preset=ultrafast", "option-string=crf=22:info=0",
            "!", "h265parse", "!", "video/x-h265,stream-format=hvc1,alignment=au,profile=main-still-picture",
            "!", "filesink", "location=\(file)",
        ])
        guard result.status == 0,
              let range = result.standardOutput.range(of: #"codec_data=\(buffer\)[0-9a-f]+"#, options: .regularExpression)
        else { throw FixtureFailure(message: result.standardError) }
        let hex = result.standardOutput[range].dropFirst("codec_data=(buffer)".count)
        var configuration: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), let byte = UInt8(hex[index..<next], radix: 16) else {
                throw FixtureFailure(message: "gst-launch-1.0 printed a codec_data that is not whole bytes: \(hex)")
            }
            configuration.append(byte)
            index = next
        }
        return (configuration, try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))))
    }

    public struct FixtureFailure: Error {
        public let message: String
    }
}
