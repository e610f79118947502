import Dispatch
import GStreamer

/// Lays photos out in a grid on one picture with GStreamer's compositor: the booth's strip or
/// 2x2 grid (a photo booth's), and the library's contact sheet.
public enum PhotoComposer {
    /// A grid of equal cells with even margins around and between them.
    public struct Layout: Sendable, Equatable {
        public var columns: Int
        public var rows: Int
        /// The size each photo is scaled to (keeping its aspect ratio, centred in its cell).
        public var cellWidth: Int
        public var cellHeight: Int
        /// The space around and between cells, in pixels.
        public var margin: Int
        /// The background: `white`, `black` or `transparent` (as the compositor names them).
        public var background: String

        public init(columns: Int, rows: Int, cellWidth: Int, cellHeight: Int, margin: Int, background: String = "white") {
            self.columns = columns
            self.rows = rows
            self.cellWidth = cellWidth
            self.cellHeight = cellHeight
            self.margin = margin
            self.background = background
        }

        /// The composed picture's width.
        public var width: Int { columns * cellWidth + (columns + 1) * margin }
        /// The composed picture's height.
        public var height: Int { rows * cellHeight + (rows + 1) * margin }

        /// Where cell `index` starts, filling rows first.
        func origin(of index: Int) -> (x: Int, y: Int) {
            (margin + (index % columns) * (cellWidth + margin), margin + (index / columns) * (cellHeight + margin))
        }
    }

    /// A thumbnail of a JPEG picture `width`x`height`: the whole picture, its longest side `side`.
    public static func thumbnail(of picture: [UInt8], width: Int, height: Int, side: Int) async throws(CaptureError) -> [UInt8] {
        let scale = Double(side) / Double(max(width, height, 1))
        let (cellWidth, cellHeight) = (max(2, Int(Double(width) * scale) / 2 * 2), max(2, Int(Double(height) * scale) / 2 * 2))
        return try await compose([picture], layout: Layout(columns: 1, rows: 1, cellWidth: cellWidth, cellHeight: cellHeight, margin: 0), quality: 85)
    }

    /// Composes JPEG pictures into one JPEG of `layout`'s size; cells beyond the pictures stay empty.
    ///
    /// - Throws: A ``CaptureError`` when there are more pictures than cells, or one cannot be decoded.
    public static func compose(_ pictures: [[UInt8]], layout: Layout, quality: Int = 90) async throws(CaptureError) -> [UInt8] {
        guard !pictures.isEmpty, pictures.count <= layout.columns * layout.rows else {
            throw CaptureError(.invalidSetting, "\(pictures.count) pictures do not fit a \(layout.columns)x\(layout.rows) layout")
        }
        let transform: AppPipeline
        do {
            transform = try await AppPipeline(describing: description(count: pictures.count, layout: layout, quality: quality),
                                              inputs: pictures.count, label: "composer")
        } catch {
            throw CaptureError.converting(error, context: "the compositor could not start")
        }
        let messages = transform.pipeline.messages()
        let result = await run(transform, pictures: pictures, messages: messages)
        await transform.stop()
        return try result.get()
    }

    /// Feeds the pictures and takes the composed one; the caller stops the pipeline.
    private static func run(_ transform: AppPipeline, pictures: [[UInt8]], messages: AsyncStream<Message>) async -> Result<[UInt8], CaptureError> {
        let sample: Sample?
        do {
            let buffers = try pictures.map { picture in
                try picture.withUnsafeBytes { bytes in
                    try Buffer(copying: bytes, presentationTime: .zero, duration: ClockTime(rawValue: 1_000_000_000))
                }
            }
            sample = try await transform.run { () throws(GStreamerError) in
                for (input, buffer) in zip(transform.inputs, buffers) {
                    try input.push(buffer)
                    try input.endOfStream()
                }
                return transform.output.pullSample(timeout: .seconds(10))
            }
        } catch {
            return .failure(CaptureError.converting(error, context: "the pictures could not be composed"))
        }
        guard let buffer = sample?.buffer, let bytes = try? buffer.bytes() else {
            let reason = await firstError(in: messages) ?? "the compositor made no picture"
            return .failure(CaptureError(.pipeline, "the pictures could not be composed: \(reason)"))
        }
        return .success(bytes)
    }

    /// The pipeline: one decoder branch per picture into the compositor, at its cell's position.
    static func description(count: Int, layout: Layout, quality: Int) -> String {
        var mixer = "compositor name=mix background=\(layout.background)"
        var branches: [String] = []
        for index in 0..<count {
            let (x, y) = layout.origin(of: index)
            mixer += " sink_\(index)::xpos=\(x) sink_\(index)::ypos=\(y)"
            branches.append("appsrc name=\(count == 1 ? "input" : "input\(index)") format=time caps=image/jpeg,framerate=1/1 ! jpegdec ! videoconvert "
                + "! videoscale add-borders=true ! video/x-raw,format=AYUV,width=\(layout.cellWidth),height=\(layout.cellHeight),pixel-aspect-ratio=1/1 "
                + "! mix.sink_\(index)")
        }
        return mixer + " ! video/x-raw,width=\(layout.width),height=\(layout.height),pixel-aspect-ratio=1/1 ! videoconvert "
            + "! jpegenc quality=\(quality) ! appsink name=output sync=false " + branches.joined(separator: " ")
    }

    /// The first error the pipeline posted, looking for at most half a second.
    private static func firstError(in messages: AsyncStream<Message>) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await message in messages {
                    if case .error(let report) = message { return report.text }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(500))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
