internal import CCups
import Synchronization

/// A printer, through libcups: a CUPS queue by its name (CUPS's default one when none is named),
/// or an IPP printer by its `ipp://` or `ipps://` URI, printed to straight, with no CUPS server.
///
/// Every call talks to the printer and blocks until it answers: call it off Swift's shared threads.
///
/// ```swift
/// let printer = try Printer("ipp://booth-printer.local/ipp/print")
/// let job = try printer.submit(jpeg, format: "image/jpeg", title: "booth 12", options: PrintOptions(copies: 2, media: "4x6"))
/// let state = try printer.state(ofJob: job)
/// ```
public final class Printer: Sendable {
    /// How the printer was named: its queue's name or its URI.
    public let name: String
    private let link: Mutex<Link>

    /// Connects to the printer `destination` names (`nil`: CUPS's default printer).
    ///
    /// - Throws: ``PrintError`` when libcups is not installed, no such printer is known, or it
    ///   cannot be reached.
    public init(_ destination: String?) throws(PrintError) {
        guard let api = Cups.api else {
            throw PrintError("printing needs libcups, which is not installed; install libcups2")
        }
        let isURI = destination.map { $0.hasPrefix("ipp://") || $0.hasPrefix("ipps://") } ?? false
        let found = isURI ? api.get_dest_with_uri(nil, destination) : api.get_named_dest(nil, destination, nil)
        guard let dest = found else {
            let reason = Cups.lastError(api)
            throw PrintError(destination.map { "there is no printer \($0) (\(reason)); name a CUPS queue (lpstat -e lists them) or an ipp:// address" }
                ?? "there is no default printer (\(reason)); name one with a CUPS queue's name or an ipp:// address")
        }
        var resource = [CChar](repeating: 0, count: 1024)
        // A printer named by its URI is reached straight; a queue through the CUPS server.
        let flags = UInt32(isURI ? CUPS_DEST_FLAGS_DEVICE : CUPS_DEST_FLAGS_NONE)
        guard let http = api.connect_dest(dest, flags, 30_000, nil, &resource, resource.count, nil, nil) else {
            let reason = Cups.lastError(api)
            api.free_dests(1, dest)
            throw PrintError("the printer \(destination ?? "(the default one)") cannot be reached (\(reason)); check that it is on and on the network")
        }
        // Its capabilities, asked now: a printer that does not answer is found out here.
        guard let info = api.copy_dest_info(http, dest) else {
            let reason = Cups.lastError(api)
            api.close_http(http)
            api.free_dests(1, dest)
            throw PrintError("the printer \(destination ?? "(the default one)") cannot be reached (\(reason)); check that it is on and on the network")
        }
        let uri = withUnsafePointer(to: api) { camctl_cups_dest_option($0, dest, "printer-uri-supported") }.map { String(cString: $0) }
            ?? destination ?? ""
        name = destination ?? "the default printer"
        link = Mutex(Link(api: api, dest: dest, http: http, info: info, resource: String(decoding: resource.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                               uri: uri))
    }

    /// Sends one document as a new job, in `format` (`image/jpeg`), printed as `options` say.
    /// Returns the job's id.
    ///
    /// - Throws: ``PrintError`` when the printer has not the paper asked for, or refuses the job
    ///   or the document.
    public func submit(_ document: [UInt8], format: String, title: String, options: PrintOptions = PrintOptions()) throws(PrintError) -> Int32 {
        try submitting(format: format, title: title, options: options) { link in
            document.withUnsafeBytes { bytes in
                link.api.write_request_data(link.http, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) == HTTP_STATUS_CONTINUE
            }
        }
    }

    /// Sends one page of pixels (packed RGB rows, `form`'s size) as a new job, in `form`'s raster,
    /// printed as `options` say (on `form`'s paper unless they name one). Returns the job's id.
    ///
    /// - Throws: ``PrintError`` when the page is not of `form`'s size, or the printer refuses the job or the page.
    public func submit(page: [UInt8], form: RasterForm, title: String, options: PrintOptions = PrintOptions()) throws(PrintError) -> Int32 {
        guard page.count == form.width * form.height * 3 else {
            throw PrintError("the page to print is \(page.count) bytes, not \(form.width)x\(form.height) pixels")
        }
        var options = options
        options.media = options.media ?? form.media
        return try submitting(format: form.encoding.rawValue, title: title, options: options) { link in
            RasterWriter.write(page, as: form, through: link.api, to: link.http)
        }
    }

    /// Creates a job as `options` say, and sends its one document in `format` by `write`, which
    /// says whether it was all written.
    private func submitting(format: String, title: String, options: PrintOptions,
                            write: (borrowing Link) -> Bool) throws(PrintError) -> Int32 {
        try link.withLock { link throws(PrintError) -> Int32 in
            let api = link.api
            var settings: UnsafeMutablePointer<cups_option_t>?
            var count: Int32 = 0
            if options.copies > 1 { count = api.add_option("copies", String(options.copies), count, &settings) }
            if let media = options.media {
                try check(media: media, of: link)
                count = api.add_option("media", media, count, &settings)
            }
            defer { api.free_options(count, settings) }
            var job: Int32 = 0
            guard api.create_dest_job(link.http, link.dest, link.info, &job, title, count, settings).rawValue <= IPP_STATUS_OK_EVENTS_COMPLETE.rawValue,
                  job > 0 else {
                throw PrintError("\(name) refused the job: \(Cups.lastError(api))")
            }
            guard api.start_dest_document(link.http, link.dest, link.info, job, title, format, 0, nil, 1) == HTTP_STATUS_CONTINUE else {
                throw PrintError("\(name) refused the picture: \(Cups.lastError(api))")
            }
            let written = write(link)
            let finished = api.finish_dest_document(link.http, link.dest, link.info)
            guard written, finished.rawValue <= IPP_STATUS_OK_EVENTS_COMPLETE.rawValue else {
                throw PrintError("\(name) refused the picture: \(Cups.lastError(api))")
            }
            return job
        }
    }

    /// How the printer takes a picture in `format` on `media` (a PWG name; `nil`: its default
    /// paper): as it is when it takes that format, else as a page of PWG raster, else of Apple
    /// raster, in colour when it prints colour, at ``RasterForm/preferredResolution`` when offered.
    ///
    /// - Throws: ``PrintError`` when it takes neither, or only a raster camctl does not write
    ///   (black dots alone), or its paper's size is not known.
    public func form(for format: String, media: String?) throws(PrintError) -> PictureForm {
        try link.withLock { link throws(PrintError) -> PictureForm in
            let formats = Self.supported("document-format", of: link)
            if formats.contains(format) { return .asIs }
            let encoding: RasterForm.Encoding, kinds: [String], resolutions: [Int]
            if formats.contains(RasterForm.Encoding.pwg.rawValue) {
                encoding = .pwg
                kinds = Self.supported("pwg-raster-document-type", of: link)
                resolutions = Self.resolutions("pwg-raster-document-resolution", of: link)
            } else if formats.contains(RasterForm.Encoding.apple.rawValue) {
                encoding = .apple
                let keywords = Self.supported("urf", of: link)
                kinds = keywords.compactMap { ["SRGB24": "srgb_8", "W8": "sgray_8"][$0] }
                resolutions = RasterForm.appleResolutions(keywords)
            } else {
                let offered = formats.filter { $0 != "application/octet-stream" }.prefix(12).map { String($0.prefix(64)) }
                throw PrintError("\(name) takes neither \(format) nor a raster camctl writes (PWG or Apple raster); it takes "
                    + (offered.isEmpty ? "nothing it names" : offered.joined(separator: ", ")))
            }
            let isColor = kinds.contains("srgb_8")
            guard isColor || kinds.contains("sgray_8") else {
                throw PrintError("\(name) takes \(encoding.rawValue) only as black dots; print through a CUPS queue for it instead")
            }
            guard let paper = media ?? Self.defaultValue("media", of: link), let size = link.api.media_for_pwg(paper) else {
                throw PrintError("\(name) names no paper camctl knows the size of; name one with --media (4x6, a4, letter, …)")
            }
            guard let resolution = RasterForm.resolution(among: resolutions, paper: Int(size.pointee.width), Int(size.pointee.length)) else {
                throw PrintError("\(name) takes \(encoding.rawValue) at no resolution camctl makes a page of \(paper) at; print on smaller paper, or through a CUPS queue")
            }
            return .raster(RasterForm(encoding: encoding, media: paper, resolution: resolution, isColor: isColor,
                                      width: Int(size.pointee.width) * resolution / 2540, height: Int(size.pointee.length) * resolution / 2540))
        }
    }

    /// Checks that the printer takes `media` paper.
    ///
    /// - Throws: ``PrintError`` naming the papers it takes, when it takes not this one.
    func check(media: String) throws(PrintError) {
        try link.withLock { link throws(PrintError) in try check(media: media, of: link) }
    }

    private func check(media: String, of link: borrowing Link) throws(PrintError) {
        guard link.api.check_dest_supported(link.http, link.dest, link.info, "media", media) == 0 else { return }
        // The printer's own words: the first few of its papers, each a short keyword.
        let offered = Self.supported("media", of: link).prefix(12).map { String($0.prefix(64)) }
        throw PrintError("\(name) has no \(media) paper; it takes " + (offered.isEmpty ? "none it names" : offered.joined(separator: ", ")))
    }

    /// The values the printer supports for `option` (`media`), as it lists them.
    private static func supported(_ option: String, of link: borrowing Link) -> [String] {
        let api = link.api
        guard let attribute = api.find_dest_supported(link.http, link.dest, link.info, option) else { return [] }
        return (0..<api.get_count(attribute)).compactMap { api.get_string(attribute, $0, nil).map { String(cString: $0) } }
    }

    /// The resolutions the printer supports for `option`, in dots an inch.
    private static func resolutions(_ option: String, of link: borrowing Link) -> [Int] {
        let api = link.api
        guard let attribute = api.find_dest_supported(link.http, link.dest, link.info, option) else { return [] }
        return (0..<api.get_count(attribute)).compactMap { index in
            var (vertical, units) = (Int32(0), IPP_RES_PER_INCH)
            let across = api.get_resolution(attribute, index, &vertical, &units)
            guard across > 0, across == vertical else { return nil }
            return units == IPP_RES_PER_CM ? Int((Double(across) * 2.54).rounded()) : Int(across)
        }
    }

    /// The printer's default for `option` (`media`), if it says one.
    private static func defaultValue(_ option: String, of link: borrowing Link) -> String? {
        link.api.find_dest_default(link.http, link.dest, link.info, option).flatMap { link.api.get_string($0, 0, nil) }.map { String(cString: $0) }
    }

    /// Where job `id` is now, as the printer says.
    ///
    /// - Throws: ``PrintError`` when the printer cannot be asked.
    public func state(ofJob id: Int32) throws(PrintError) -> PrintJobState {
        try link.withLock { link throws(PrintError) -> PrintJobState in
            let api = link.api
            guard let request = api.new_request(IPP_OP_GET_JOB_ATTRIBUTES) else { throw PrintError("the printer could not be asked about its job") }
            _ = api.add_string(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, link.uri)
            _ = api.add_integer(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", id)
            // The request is freed by the call; the response is ours.
            guard let response = api.do_request(link.http, request, link.resource) else {
                throw PrintError("\(name) did not say how its job goes: \(Cups.lastError(api))")
            }
            defer { api.delete_ipp(response) }
            let state = api.find_attribute(response, "job-state", IPP_TAG_ENUM).map { api.get_integer($0, 0) } ?? 0
            var reasons: [String] = []
            if let attribute = api.find_attribute(response, "job-state-reasons", IPP_TAG_KEYWORD) {
                for index in 0..<api.get_count(attribute) {
                    if let text = api.get_string(attribute, index, nil) { reasons.append(String(cString: text)) }
                }
            }
            let message = api.find_attribute(response, "job-state-message", IPP_TAG_TEXT).flatMap { api.get_string($0, 0, nil) }
                .map { String(cString: $0) }
            // A photo is one side of a sheet: impressions are sheets; a printer may count either.
            let counted = api.find_attribute(response, "job-impressions-completed", IPP_TAG_INTEGER)
                ?? api.find_attribute(response, "job-media-sheets-completed", IPP_TAG_INTEGER)
            let sheetsDone = counted.map { Int(api.get_integer($0, 0)) }
            // A job waiting in a stopped queue says nothing of it itself (CUPS gives no reason): its printer does.
            let waits = [IPP_JSTATE_PENDING, IPP_JSTATE_HELD].map { Int32(bitPattern: $0.rawValue) }.contains(state)
            if waits, !reasons.contains("printer-stopped"), Self.isStopped(link) { reasons.append("printer-stopped") }
            return PrintJobState(ippState: state, reasons: reasons, message: message, sheetsDone: sheetsDone)
        }
    }

    /// What the printer says of itself now: its state, reasons, message and supplies.
    ///
    /// - Throws: ``PrintError`` when the printer cannot be asked.
    public func status() throws(PrintError) -> PrinterStatus {
        try link.withLock { link throws(PrintError) -> PrinterStatus in
            let api = link.api
            guard let request = api.new_request(IPP_OP_GET_PRINTER_ATTRIBUTES) else { throw PrintError("the printer could not be asked how it is") }
            _ = api.add_string(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, link.uri)
            guard let response = api.do_request(link.http, request, link.resource) else {
                throw PrintError("\(name) did not say how it is: \(Cups.lastError(api))")
            }
            defer { api.delete_ipp(response) }
            func strings(_ name: String, _ tag: ipp_tag_t) -> [String] {
                guard let attribute = api.find_attribute(response, name, tag) else { return [] }
                return (0..<min(api.get_count(attribute), 32)).compactMap { api.get_string(attribute, $0, nil).map { String(String(cString: $0).prefix(PrintJobState.longestReason)) } }
            }
            let state = api.find_attribute(response, "printer-state", IPP_TAG_ENUM).map { api.get_integer($0, 0) } ?? 0
            let levels = api.find_attribute(response, "marker-levels", IPP_TAG_INTEGER).map { attribute in
                (0..<api.get_count(attribute)).map { api.get_integer(attribute, $0) }
            } ?? []
            let names = strings("marker-names", IPP_TAG_NAME)
            return PrinterStatus(
                state: [Int32(bitPattern: IPP_PSTATE_IDLE.rawValue): "idle", Int32(bitPattern: IPP_PSTATE_PROCESSING.rawValue): "processing",
                        Int32(bitPattern: IPP_PSTATE_STOPPED.rawValue): "stopped"][state] ?? "unknown",
                reasons: strings("printer-state-reasons", IPP_TAG_KEYWORD).filter { $0 != "none" },
                message: strings("printer-state-message", IPP_TAG_TEXT).first,
                supplies: names.enumerated().map { index, name in
                    // A level of -1 to -3 says the printer does not know it, or only that some is left.
                    (name, index < levels.count && (0...100).contains(levels[index]) ? Int(levels[index]) : nil)
                })
        }
    }

    /// Whether the printer says it is stopped (a CUPS queue disabled, a printer paused); `false`
    /// when it cannot be asked.
    private static func isStopped(_ link: borrowing Link) -> Bool {
        let api = link.api
        guard let request = api.new_request(IPP_OP_GET_PRINTER_ATTRIBUTES) else { return false }
        _ = api.add_string(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, link.uri)
        _ = api.add_string(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", nil, "printer-state")
        guard let response = api.do_request(link.http, request, link.resource) else { return false }
        defer { api.delete_ipp(response) }
        let state = api.find_attribute(response, "printer-state", IPP_TAG_ENUM).map { api.get_integer($0, 0) } ?? 0
        return state == Int32(bitPattern: IPP_PSTATE_STOPPED.rawValue)
    }
}

/// A job's state, as its printer tells it.
public enum PrintJobState: Sendable, Equatable {
    /// Waiting its turn; `reasons` say why when it waits on the printer (`printer-stopped`).
    case pending(reasons: [String])
    /// Printing: `sheetsDone` of the job's sheets are out, when the printer counts them.
    case processing(sheetsDone: Int?)
    /// Printed.
    case completed
    /// Ended without printing: cancelled, aborted or stopped, with the printer's reason.
    case failed(String)

    /// The most characters of a printer's own words kept in a reason (a printer may say anything).
    static let longestReason = 200

    init(ippState: Int32, reasons: [String], message: String?, sheetsDone: Int? = nil) {
        // A message that says nothing ("Success", what some printers leave there) gives way to the reasons.
        let said = message.flatMap { text in ["", "success", "successful-ok"].contains(text.lowercased()) ? nil : text }
        let keywords = reasons.filter { $0 != "none" && $0 != "job-completed-successfully" }
        let reason = String((said ?? (keywords.isEmpty ? "no reason given" : keywords.joined(separator: ", "))).prefix(Self.longestReason))
        switch ipp_jstate_t(rawValue: UInt32(bitPattern: ippState)) {
        case IPP_JSTATE_PENDING, IPP_JSTATE_HELD: self = .pending(reasons: reasons)
        case IPP_JSTATE_PROCESSING: self = .processing(sheetsDone: sheetsDone)
        case IPP_JSTATE_COMPLETED: self = .completed
        case IPP_JSTATE_CANCELED: self = .failed("the job was cancelled (\(reason))")
        case IPP_JSTATE_ABORTED: self = .failed("the printer gave up the job (\(reason))")
        case IPP_JSTATE_STOPPED: self = .failed("the printer stopped the job (\(reason))")
        default: self = .failed("the printer says nothing of the job")
        }
    }
}

/// A picture that could not be printed: one sentence saying why and what to do.
public struct PrintError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}

/// What a printer is reached through: libcups's destination, connection and the printer's
/// capabilities, used by one call at a time.
private struct Link: ~Copyable {
    let api: camctl_cups
    let dest: UnsafeMutablePointer<cups_dest_t>
    let http: OpaquePointer
    let info: OpaquePointer
    let resource: String
    let uri: String

    deinit {
        api.free_dest_info(info)
        api.close_http(http)
        api.free_dests(1, dest)
    }
}

/// libcups, loaded on first use.
private enum Cups {
    static let api: camctl_cups? = {
        var api = camctl_cups()
        return camctl_cups_load(&api) != 0 ? api : nil
    }()

    static func lastError(_ api: camctl_cups) -> String {
        api.last_error_string().map { String(cString: $0) } ?? "no reason given"
    }
}
