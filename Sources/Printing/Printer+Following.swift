import Dispatch

extension Printer {
    /// Follows job `id` until it ends, asking the printer off Swift's shared threads a few times
    /// a second: `nil` once it is printed, else why it was not (failed, the printer stopped, the
    /// printer not answering, or `limit` passed). `sheets` is told each count of sheets out the
    /// printer gives while it prints, once each.
    public func failure(ofJob id: Int32, within limit: Duration, sheets: @Sendable (Int) -> Void = { _ in }) async -> String? {
        let deadline = ContinuousClock.now + limit
        var told = 0
        while ContinuousClock.now < deadline {
            let state = await withCheckedContinuation { continuation in
                Self.asking.async { continuation.resume(returning: Result { () throws(PrintError) in try self.state(ofJob: id) }) }
            }
            switch state {
            case .failure(let error): return error.message
            case .success(.completed): return nil
            case .success(.failed(let reason)): return reason
            case .success(.pending(let reasons)) where reasons.contains("printer-stopped"):
                return "\(name) is stopped, and holds the job (\(id)) until it is started again"
            case .success(.processing(let done?)) where done > told:
                told = done
                sheets(done)
                try? await Task.sleep(for: .milliseconds(250))
            case .success(.pending), .success(.processing):
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        return "\(name) did not print the job (\(id)) within \(limit)"
    }

    /// Where printers are asked how their jobs go.
    private static let asking = DispatchQueue(label: "camctl.printing.follow")
}

extension Printer {
    /// Connects to the printer `destination` names (`nil`: CUPS's default) and sends `document`
    /// as a new job, off Swift's shared threads, a job at a time; returns the printer and the job's id.
    /// A printer that takes no `format` is sent the page `render` makes of the document for the
    /// raster it takes (``form(for:media:)``), made meanwhile off the sending queue.
    ///
    /// - Throws: ``PrintError`` when the printer cannot be reached, takes neither the format nor a
    ///   raster, the page cannot be made, or the printer refuses the job.
    public static func send(_ document: [UInt8], to destination: String?, format: String, title: String, options: PrintOptions,
                            render: @Sendable (RasterForm) async throws(PrintError) -> [UInt8]) async throws(PrintError) -> (printer: Printer, job: Int32) {
        let (printer, form) = try await onSendingQueue { () throws(PrintError) in
            let printer = try Printer(destination)
            return (printer, try printer.form(for: format, media: options.media))
        }
        guard case .raster(let raster) = form else {
            return (printer, try await onSendingQueue { () throws(PrintError) in try printer.submit(document, format: format, title: title, options: options) })
        }
        let page = try await render(raster)
        return (printer, try await onSendingQueue { () throws(PrintError) in try printer.submit(page: page, form: raster, title: title, options: options) })
    }

    /// Reaches `destination` and checks that it takes `media` paper (when one is asked for) and a
    /// picture in `format` as it is or as a raster camctl writes, off Swift's threads: what a booth
    /// asks before its first shot, so no guest poses for a picture the printer would refuse.
    ///
    /// - Throws: ``PrintError`` when the printer cannot be reached or takes not that paper or picture.
    public static func check(_ destination: String?, takes media: String?, format: String) async throws(PrintError) {
        try await onSendingQueue { () throws(PrintError) in
            let printer = try Printer(destination)
            if let media { try printer.check(media: media) }
            _ = try printer.form(for: format, media: media)
        }
    }

    /// Reaches `destination` and asks how it is, off Swift's threads.
    ///
    /// - Throws: ``PrintError`` when the printer cannot be reached or asked.
    public static func status(of destination: String?) async throws(PrintError) -> (printer: String, status: PrinterStatus) {
        try await onSendingQueue { () throws(PrintError) in
            let printer = try Printer(destination)
            return (printer.name, try printer.status())
        }
    }

    /// Runs `work`, which blocks on the network, on ``sending``, and returns what it returns.
    private static func onSendingQueue<T: Sendable>(_ work: @escaping @Sendable () throws(PrintError) -> T) async throws(PrintError) -> T {
        let result = await withCheckedContinuation { continuation in
            sending.async { continuation.resume(returning: Result { () throws(PrintError) -> T in try work() }) }
        }
        return try result.get()
    }

    /// Where documents are sent from and printers are reached: one at a time.
    private static let sending = DispatchQueue(label: "camctl.printing.send")
}
