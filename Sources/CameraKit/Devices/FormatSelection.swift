import GStreamer

/// Chooses the camera format that meets a request, and says plainly when none does.
///
/// The rule, from what real webcams offer: meet the size and rate with
/// raw frames where the camera can; otherwise take MJPEG; never fall back to a slower rate than
/// asked for; without a rate, take the usual 30 fps, or the highest the camera offers below it at
/// that size (a camera that only runs faster runs at its slowest): a camera that could run at
/// hundreds of frames a second would otherwise spend a core on frames nobody asked for.
public enum FormatSelection {
    /// The rate taken when none is asked for, where the camera offers it.
    public static let usualFrameRate = Fraction(30)

    /// The best format of `capabilities` for `request`.
    ///
    /// - Throws: ``CaptureError/Code/formatUnavailable`` listing what the camera offers.
    public static func choose(for request: FormatRequest, from capabilities: [VideoCapability],
                              camera: String) throws(CaptureError) -> CaptureFormat {
        let usable = capabilities.filter { $0.mediaType == "video/x-raw" || $0.mediaType == "image/jpeg" }
        guard !usable.isEmpty else {
            throw CaptureError(.formatUnavailable, "\(camera) offers no raw or MJPEG video that camctl can read")
        }
        let kind = usable.filter { request.mediaType == nil || $0.mediaType == request.mediaType }
        if request.fitsCamera, let fitted = fitted(request, to: kind) {
            return try choose(for: fitted, from: capabilities, camera: camera)
        }
        var candidates = kind.flatMap { capability in formats(of: capability, for: request) }
        if request.width == nil, let largest = candidates.map({ $0.width * $0.height }).max() {
            candidates.removeAll { $0.width * $0.height < largest }  // the photo preset: the largest size first
        }
        guard !candidates.isEmpty else {
            throw CaptureError(.formatUnavailable,
                "\(camera) does not offer \(request); it offers \(offers(usable).joined(separator: ", "))",
                remedy: .chooseOfferedFormat(offers(usable)))
        }
        let fastEnough = candidates.filter { request.frameRate.map($0.frameRate.isAtLeast) ?? true }
        guard !fastEnough.isEmpty else {
            let best = candidates.max { $0.frameRate < $1.frameRate }!
            throw CaptureError(.formatUnavailable,
                "\(camera) offers \(request.width.map { "\($0)x\(request.height!)" } ?? "that size") at most at "
                + "\(FormatRequest.describe(best.frameRate)) fps (\(best)), not \(FormatRequest.describe(request.frameRate!)) fps; "
                + "ask for that rate or a smaller size (it offers \(offers(usable).joined(separator: ", ")))")
        }
        // With a rate asked for: the lowest rate that meets it (raw before MJPEG, then the usual pixel formats).
        // Without: the usual rate or the nearest below it, raw before MJPEG on a tie.
        return fastEnough.min { lhs, rhs in
            if lhs.frameRate != rhs.frameRate {
                return request.frameRate == nil ? isNearerUsual(lhs.frameRate, than: rhs.frameRate) : lhs.frameRate < rhs.frameRate
            }
            return preference(lhs) < preference(rhs)
        }!
    }

    /// A preset's request for a camera that lacks its size at its rate: the largest size the
    /// camera offers within it that reaches the rate, else the largest within it (at the usual
    /// rate or the nearest below), else the camera's smallest size. `nil` when the camera offers
    /// the size at the rate.
    private static func fitted(_ request: FormatRequest, to capabilities: [VideoCapability]) -> FormatRequest? {
        guard let width = request.width, let height = request.height, !capabilities.isEmpty else { return nil }
        let reachesRate = { (capability: VideoCapability) in
            request.frameRate.map { rate in capability.frameRates.maximum.map { $0.isAtLeast(rate) } ?? true } ?? true
        }
        guard !capabilities.contains(where: { $0.widths.contains(width) && $0.heights.contains(height) && reachesRate($0) }) else { return nil }
        let offered = capabilities.map { capability in
            (width: min(max(width, capability.widths.lowerBound), capability.widths.upperBound),
             height: min(max(height, capability.heights.lowerBound), capability.heights.upperBound),
             reachesRate: reachesRate(capability))
        }
        let area = { (size: (width: Int, height: Int, reachesRate: Bool)) in size.width * size.height }
        let within = offered.filter { $0.width <= width && $0.height <= height }
        guard let chosen = within.filter(\.reachesRate).max(by: { area($0) < area($1) }) ?? within.max(by: { area($0) < area($1) })
                ?? offered.min(by: { area($0) < area($1) }) else { return nil }
        return FormatRequest(width: chosen.width, height: chosen.height, frameRate: chosen.reachesRate ? request.frameRate : nil,
                             mediaType: request.mediaType)
    }

    /// Whether `rate` is a better rate than `other` when none is asked for: at or below the usual
    /// rate and higher, or above it and lower.
    private static func isNearerUsual(_ rate: Fraction, than other: Fraction) -> Bool {
        let (under, otherUnder) = (!(usualFrameRate < rate), !(usualFrameRate < other))
        guard under == otherUnder else { return under }
        return under ? other < rate : rate < other
    }

    /// The formats of one capability that have the requested size, at the rate asked for or each offered rate.
    private static func formats(of capability: VideoCapability, for request: FormatRequest) -> [CaptureFormat] {
        let width = request.width ?? capability.widths.upperBound
        let height = request.height ?? capability.heights.upperBound
        guard capability.widths.contains(width), capability.heights.contains(height) else { return [] }
        let rates: [Fraction] = switch capability.frameRates {
        case .discrete(let rates): rates
        case .range(let range): [min(max(request.frameRate ?? usualFrameRate, range.lowerBound), range.upperBound)]
        case .unspecified: [request.frameRate ?? Fraction(30)]
        }
        let photoSized = request.width == nil
        return rates.map { rate in
            CaptureFormat(mediaType: capability.mediaType, pixelFormat: capability.pixelFormat,
                          width: photoSized ? capability.widths.upperBound : width,
                          height: photoSized ? capability.heights.upperBound : height, frameRate: rate)
        }
    }

    /// Lower is better: raw in common formats first, then MJPEG, then other raw formats.
    private static func preference(_ format: CaptureFormat) -> Int {
        switch (format.mediaType, format.pixelFormat) {
        case ("video/x-raw", "I420"), ("video/x-raw", "NV12"), ("video/x-raw", "YUY2"): 0
        case ("image/jpeg", _): 1
        default: 2
        }
    }

    /// `YUY2 640x480 @ 30/1, …; image/jpeg 1920x1080 @ 30/1`.
    private static func offers(_ capabilities: [VideoCapability]) -> [String] {
        capabilities.map { capability in
            let encoding = capability.mediaType == "image/jpeg" ? "MJPEG" : (capability.pixelFormat ?? "raw")
            let rate = capability.frameRates.maximum.map { " up to \(FormatRequest.describe($0)) fps" } ?? ""
            let size = capability.widths.count == 1 && capability.heights.count == 1
                ? "\(capability.widths.lowerBound)x\(capability.heights.lowerBound)"
                : "up to \(capability.widths.upperBound)x\(capability.heights.upperBound)"
            return "\(size) \(encoding)\(rate)"
        }
    }
}

extension Fraction {
    /// Whether this rate is at least `other`, allowing for 29.97 meeting a request for 30.
    func isAtLeast(_ other: Fraction) -> Bool {
        doubleValue >= other.doubleValue * 0.995
    }
}

extension SessionConfiguration {
    /// The format the camera is run at: the camera's offer that best meets the request; for a
    /// file, the request or the file's own size; for a described source, the request.
    func resolvedFormat() throws(CaptureError) -> CaptureFormat {
        switch device.kind {
        case .testPattern, .system:
            let capabilities = device.capabilities.isEmpty ? CaptureDevice.testCamera().capabilities : device.capabilities
            var request = format
            if case .testPattern = device.kind, request.width == nil {
                request = FormatRequest(width: 4032, height: 3024, frameRate: request.frameRate ?? Fraction(15))
            }
            return try FormatSelection.choose(for: request, from: capabilities, camera: device.name)
        case .file(let path):
            // No size asked for (the photo preset): the file's own size, as a camera's largest; a
            // preset: the file's own size, or its own shape within the preset's size, as a camera's
            // best within it; a size asked for exactly: that size.
            let own = format.width == nil || format.fitsCamera ? (try? MediaInfo(path: path))?.videoSize : nil
            let frameRate = format.frameRate ?? Fraction(30)
            if let own, own.width > 0, own.height > 0, format.fitsCamera, let width = format.width, let height = format.height {
                let scale = min(1, Double(width) / Double(own.width), Double(height) / Double(own.height))
                let even = { (side: Int) in max(2, Int(Double(side) * scale) / 2 * 2) }
                return CaptureFormat(width: even(own.width), height: even(own.height), frameRate: frameRate)
            }
            return CaptureFormat(width: format.width ?? own?.width ?? 1920, height: format.height ?? own?.height ?? 1080, frameRate: frameRate)
        case .custom:
            return CaptureFormat(width: format.width ?? 1920, height: format.height ?? 1080, frameRate: format.frameRate ?? Fraction(30))
        case .gphoto2:
            // Live view, decoded to the size asked for, else to a DSLR's own live view size (3:2).
            return CaptureFormat(width: format.width ?? 1024, height: format.height ?? 680, frameRate: format.frameRate ?? Fraction(30))
        }
    }
}
