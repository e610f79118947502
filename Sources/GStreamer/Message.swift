internal import CGStreamer

/// A message a pipeline posts on its bus, as plain Swift data.
public enum Message: Sendable {
    /// An element failed; the pipeline cannot go on.
    case error(Report)
    /// An element met a problem it could work around.
    case warning(Report)
    /// An element has something to say.
    case info(Report)
    /// All sinks have received the end of the stream.
    case endOfStream(source: String)
    /// An element or the pipeline changed state.
    case stateChanged(source: String, from: State, to: State, pending: State)
    /// An asynchronous state change (preroll) completed.
    case asyncDone(source: String)
    /// A new stream began at a source.
    case streamStart(source: String)
    /// The pipeline's latency changed and should be recomputed.
    case latency(source: String)
    /// An element dropped or was late with data.
    case qualityOfService(source: String, QualityOfService)
    /// An element-specific message (`GstMultiFileSink`, `level`, …) with its structure.
    case element(source: String, Structure)
    /// A message posted by the application itself.
    case application(source: String, Structure)
    /// A device monitor saw a device appear.
    case deviceAdded(Device)
    /// A device monitor saw a device go.
    case deviceRemoved(Device)
    /// Any other message, by its type name.
    case other(source: String, type: String)

    /// The name of the element that posted the message (empty when none did).
    public var source: String {
        switch self {
        case .error(let report), .warning(let report), .info(let report): report.source
        case .endOfStream(let source), .stateChanged(let source, _, _, _), .asyncDone(let source),
             .streamStart(let source), .latency(let source), .qualityOfService(let source, _),
             .element(let source, _), .application(let source, _), .other(let source, _):
            source
        case .deviceAdded(let device), .deviceRemoved(let device):
            device.displayName
        }
    }
}

extension Message {
    /// Where a report's error code comes from, as GStreamer groups them.
    public enum Domain: Sendable, Equatable {
        /// Core GStreamer problems (missing plugin, state change, negotiation…).
        case core
        /// A library an element uses failed (initialisation, encoder settings…).
        case library
        /// A resource failed: a file, device or window (not found, busy, no permission, full).
        case resource
        /// The data stream failed: format, decode, encode, negotiation.
        case stream
        /// Another domain, by its quark name.
        case other(String)
    }

    /// An error, warning or info report from an element.
    public struct Report: Sendable, Equatable {
        /// The element that posted it.
        public let source: String
        /// The group its code belongs to.
        public let domain: Domain
        /// The code within the domain, as GStreamer numbers them (`GST_RESOURCE_ERROR_BUSY` is 4).
        public let code: Int
        /// GStreamer's own sentence.
        public let text: String
        /// GStreamer's debug text: the source file, function and details.
        public let debugInfo: String?

        /// Resource error codes worth naming.
        public enum ResourceCode {
            /// The resource does not exist (also posted when a sink window is closed).
            public static let notFound = Int(GST_RESOURCE_ERROR_NOT_FOUND.rawValue)
            /// Another program holds the resource.
            public static let busy = Int(GST_RESOURCE_ERROR_BUSY.rawValue)
            /// The resource could not be opened for reading.
            public static let openRead = Int(GST_RESOURCE_ERROR_OPEN_READ.rawValue)
            /// The resource could not be opened for writing.
            public static let openWrite = Int(GST_RESOURCE_ERROR_OPEN_WRITE.rawValue)
            /// The resource could not be opened for reading and writing.
            public static let openReadWrite = Int(GST_RESOURCE_ERROR_OPEN_READ_WRITE.rawValue)
            /// Writing failed.
            public static let write = Int(GST_RESOURCE_ERROR_WRITE.rawValue)
            /// No space is left on the device.
            public static let noSpaceLeft = Int(GST_RESOURCE_ERROR_NO_SPACE_LEFT.rawValue)
            /// Permission was denied.
            public static let notAuthorized = Int(GST_RESOURCE_ERROR_NOT_AUTHORIZED.rawValue)
            /// The resource does not support the requested settings.
            public static let settings = Int(GST_RESOURCE_ERROR_SETTINGS.rawValue)
        }

        /// Whether elements failed to agree on a format (`not-negotiated`).
        public var isNegotiationFailure: Bool {
            debugInfo?.contains("not-negotiated") == true
                || (domain == .core && code == Int(GST_CORE_ERROR_NEGOTIATION.rawValue))
        }

        /// The kind of ``GStreamerError`` this report becomes.
        public var kind: GStreamerError.Kind {
            if isNegotiationFailure { return .negotiation }
            switch domain {
            case .resource: return .resource
            case .stream: return .stream
            case .core where code == Int(GST_CORE_ERROR_MISSING_PLUGIN.rawValue): return .missingElement
            default: return .stateChange
            }
        }

        /// One sentence for a person: GStreamer's own, or a clearer one where GStreamer's is vague.
        public var explanation: String {
            if isNegotiationFailure {
                return "the elements could not agree on a format (not-negotiated); check the caps between them, or put videoconvert and videoscale in between"
            }
            var sentence = text
            while sentence.hasSuffix(".") { sentence.removeLast() }
            if let first = sentence.first, first.isUppercase, sentence.dropFirst().first?.isLowercase == true {
                sentence = first.lowercased() + sentence.dropFirst()
            }
            return sentence
        }
    }

    /// Figures of a quality-of-service message.
    public struct QualityOfService: Sendable, Equatable {
        /// Whether the element is in a live pipeline.
        public let isLive: Bool
        /// The timestamp of the buffer concerned.
        public let timestamp: ClockTime?
        /// Buffers the element processed so far.
        public let processed: UInt64
        /// Buffers the element dropped so far.
        public let dropped: UInt64
    }
}

extension Message {
    /// Parses a GStreamer message it borrows.
    init(parsing message: UnsafeMutablePointer<GstMessage>) {
        let source = message.pointee.src.flatMap { takeGLibString(gst_object_get_name($0)) } ?? ""
        switch message.pointee.type {
        case GST_MESSAGE_ERROR:
            self = .error(Report(parsing: message, source: source, with: gst_message_parse_error))
        case GST_MESSAGE_WARNING:
            self = .warning(Report(parsing: message, source: source, with: gst_message_parse_warning))
        case GST_MESSAGE_INFO:
            self = .info(Report(parsing: message, source: source, with: gst_message_parse_info))
        case GST_MESSAGE_EOS:
            self = .endOfStream(source: source)
        case GST_MESSAGE_STATE_CHANGED:
            var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            self = .stateChanged(source: source, from: State(old), to: State(new), pending: State(pending))
        case GST_MESSAGE_ASYNC_DONE:
            self = .asyncDone(source: source)
        case GST_MESSAGE_STREAM_START:
            self = .streamStart(source: source)
        case GST_MESSAGE_LATENCY:
            self = .latency(source: source)
        case GST_MESSAGE_QOS:
            var live: gboolean = 0
            var runningTime: guint64 = 0, streamTime: guint64 = 0, timestamp: guint64 = 0, duration: guint64 = 0
            gst_message_parse_qos(message, &live, &runningTime, &streamTime, &timestamp, &duration)
            var format = GST_FORMAT_UNDEFINED
            var processed: guint64 = 0, dropped: guint64 = 0
            gst_message_parse_qos_stats(message, &format, &processed, &dropped)
            self = .qualityOfService(source: source, QualityOfService(
                isLive: live != 0, timestamp: ClockTime(GstClockTime(timestamp)),
                processed: UInt64(processed), dropped: UInt64(dropped)))
        case GST_MESSAGE_ELEMENT:
            self = .element(source: source, Message.structure(of: message))
        case GST_MESSAGE_APPLICATION:
            self = .application(source: source, Message.structure(of: message))
        case GST_MESSAGE_DEVICE_ADDED, GST_MESSAGE_DEVICE_REMOVED:
            var device: UnsafeMutablePointer<GstDevice>?
            let added = message.pointee.type == GST_MESSAGE_DEVICE_ADDED
            if added { gst_message_parse_device_added(message, &device) } else { gst_message_parse_device_removed(message, &device) }
            if let device {
                self = added ? .deviceAdded(Device(adopting: device)) : .deviceRemoved(Device(adopting: device))
            } else {
                self = .other(source: source, type: added ? "device-added" : "device-removed")
            }
        default:
            self = .other(source: source, type: borrowedString(gst_message_type_get_name(message.pointee.type)) ?? "unknown")
        }
    }

    private static func structure(of message: UnsafeMutablePointer<GstMessage>) -> Structure {
        gst_message_get_structure(message).map { Structure(reading: $0) } ?? Structure("empty")
    }
}

extension Message.Report {
    typealias Parser = (UnsafeMutablePointer<GstMessage>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?,
                        UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> Void

    init(parsing message: UnsafeMutablePointer<GstMessage>, source: String, with parse: Parser) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        parse(message, &error, &debug)
        defer { g_clear_error(&error) }
        self.source = source
        self.debugInfo = takeGLibString(debug)
        self.code = Int(error?.pointee.code ?? 0)
        self.text = error.flatMap { borrowedString($0.pointee.message) } ?? "unknown error"
        let domain = error?.pointee.domain ?? 0
        switch domain {
        case gst_core_error_quark(): self.domain = .core
        case gst_library_error_quark(): self.domain = .library
        case gst_resource_error_quark(): self.domain = .resource
        case gst_stream_error_quark(): self.domain = .stream
        default: self.domain = .other(borrowedString(g_quark_to_string(domain)) ?? "unknown")
        }
    }
}
