import Dispatch
import GStreamer
import ImageMetadata

/// Composes photos into one picture with GStreamer's compositor, as a ``CompositionTemplate``
/// places them: a booth's strip, grid or template, the library's contact sheet, a thumbnail.
public enum PhotoComposer {
    /// A grid of equal cells with even margins around and between them, on white: the built-in
    /// templates.
    public struct Layout: Sendable, Equatable {
        public var columns: Int
        public var rows: Int
        /// The size each photo is scaled to (keeping its aspect ratio, centred in its cell).
        public var cellWidth: Int
        public var cellHeight: Int
        /// The space around and between cells, in pixels.
        public var margin: Int

        public init(columns: Int, rows: Int, cellWidth: Int, cellHeight: Int, margin: Int) {
            self.columns = columns
            self.rows = rows
            self.cellWidth = cellWidth
            self.cellHeight = cellHeight
            self.margin = margin
        }

        /// The composed picture's width.
        public var width: Int { columns * cellWidth + (columns + 1) * margin }
        /// The composed picture's height.
        public var height: Int { rows * cellHeight + (rows + 1) * margin }

        /// Where cell `index` starts, filling rows first.
        func origin(of index: Int) -> (x: Int, y: Int) {
            (margin + (index % columns) * (cellWidth + margin), margin + (index / columns) * (cellHeight + margin))
        }

        /// The grid as a template: a slot a cell, each photo kept whole in it, on white.
        public var template: CompositionTemplate {
            CompositionTemplate(width: width, height: height, slots: (0..<columns * rows).map { index in
                let (x, y) = origin(of: index)
                return CompositionTemplate.Slot(x: x, y: y, width: cellWidth, height: cellHeight, fit: .contain)
            })
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
        try await compose(pictures, template: layout.template, quality: quality)
    }

    /// Composes JPEG shots into one JPEG as `template` places them, the first shot in the first
    /// slot; slots beyond the shots stay empty. `pictures` holds the bytes of the pictures the
    /// template names (its background and overlays, JPEG or PNG), its dates are the moment now.
    ///
    /// - Throws: A ``CaptureError`` when there are more shots than slots, a picture the template
    ///   names is not given, or one cannot be decoded.
    public static func compose(_ shots: [[UInt8]], template: CompositionTemplate, pictures: [String: [UInt8]] = [:],
                               quality: Int = 90) async throws(CaptureError) -> [UInt8] {
        let picture = try await compose(shots, template: template, pictures: pictures, output: .jpeg(quality: quality))
        do {
            return try picture.withUnsafeBytes { [UInt8]($0) }
        } catch {
            throw CaptureError(.pipeline, "the pictures could not be composed: the compositor's picture could not be read")
        }
    }

    /// A JPEG picture fitted whole into a `width`x`height` page on white, as packed RGB rows (three
    /// bytes a pixel, top row first): turned a quarter clockwise when it lies across the page (a
    /// landscape picture on a portrait page), so it fills as much of the page as it can. What a
    /// printer that takes pixels, not JPEG, is sent.
    ///
    /// - Throws: A ``CaptureError`` when the picture cannot be decoded.
    public static func page(of picture: [UInt8], width: Int, height: Int) async throws(CaptureError) -> [UInt8] {
        guard let size = JPEGFile.dimensions(of: picture), size.width > 0, size.height > 0 else {
            throw CaptureError(.unreadableFile, "the picture to print is not a JPEG picture")
        }
        let turned = (size.width > size.height) != (width > height) && size.width != size.height
        let (laidWidth, laidHeight) = turned ? (height, width) : (width, height)
        let template = CompositionTemplate(width: laidWidth, height: laidHeight,
                                           slots: [CompositionTemplate.Slot(x: 0, y: 0, width: laidWidth, height: laidHeight, fit: .contain)])
        let sample = try await compose([picture], template: template, output: .rgb(turned: turned))
        // Rows as the frame lays them out (a row may be padded), packed.
        let packed = width * 3
        guard let info = sample.videoInfo, info.width == width, info.height == height, let plane = info.planes.first, plane.stride >= packed,
              let page = try? sample.withUnsafeBytes({ rows -> [UInt8]? in
                  guard rows.count >= plane.offset + plane.stride * (height - 1) + packed else { return nil }
                  var page = [UInt8]()
                  page.reserveCapacity(packed * height)
                  for row in 0..<height {
                      let start = plane.offset + row * plane.stride
                      page += rows[start..<start + packed]
                  }
                  return page
              }) ?? nil
        else {
            throw CaptureError(.pipeline, "the page to print did not come out as \(width)x\(height) pixels")
        }
        return page
    }

    private static func compose(_ shots: [[UInt8]], template: CompositionTemplate, pictures: [String: [UInt8]] = [:],
                                output: TemplateComposition.Output) async throws(CaptureError) -> Sample {
        guard !shots.isEmpty, shots.count <= template.slots.count else {
            throw CaptureError(.invalidSetting, "\(shots.count) pictures do not fit the \(template.slots.count) places of the layout")
        }
        let composition = try TemplateComposition(template, shots: shots, pictures: pictures, output: output)
        let transform: AppPipeline
        do {
            transform = try await AppPipeline(describing: composition.description, inputs: composition.inputs.count, label: "composer")
        } catch {
            throw CaptureError.converting(error, context: "the compositor could not start")
        }
        let messages = transform.pipeline.messages()
        let result: Result<Sample, CaptureError>
        do {
            try composition.setWords(in: transform.pipeline)
            result = await run(transform, pictures: composition.inputs, messages: messages)
        } catch {
            result = .failure(error)
        }
        await transform.stop()
        return try result.get()
    }

    /// Feeds the pictures and takes the composed one; the caller stops the pipeline.
    private static func run(_ transform: AppPipeline, pictures: [[UInt8]], messages: AsyncStream<Message>) async -> Result<Sample, CaptureError> {
        let sample: Sample?
        do {
            let buffers = try pictures.map { picture in
                try picture.withUnsafeBytes { bytes in
                    try Buffer(copying: bytes, presentationTime: .zero, duration: ClockTime(rawValue: 1_000_000_000))
                }
            }
            sample = try await transform.transform(buffers)[0]
        } catch {
            return .failure(CaptureError.converting(error, context: "the pictures could not be composed"))
        }
        guard let sample, sample.buffer != nil else {
            let reason = await firstError(in: messages) ?? "the compositor made no picture"
            return .failure(CaptureError(.pipeline, "the pictures could not be composed: \(reason)"))
        }
        return .success(sample)
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
