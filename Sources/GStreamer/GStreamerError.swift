internal import CGStreamer

/// An error from GStreamer, told in one sentence that names the element concerned.
public struct GStreamerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// GStreamer itself could not start.
        case initialization
        /// No element factory of the requested name is installed.
        case missingElement
        /// The element has no property of that name.
        case unknownProperty
        /// A property value has the wrong type or is out of range.
        case invalidPropertyValue
        /// Two elements or pads could not be linked.
        case link
        /// A pipeline description could not be parsed.
        case parse
        /// A caps or structure description could not be parsed or built.
        case invalidCaps
        /// Elements could not agree on a format.
        case negotiation
        /// A resource (file, device, window) could not be opened, read or written.
        case resource
        /// Data in the stream could not be processed.
        case stream
        /// An element refused a state change without saying why.
        case stateChange
        /// Waiting for something took longer than allowed.
        case timeout
        /// Pushing data into the pipeline failed (flushing, end of stream, error downstream).
        case flow
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The name of the element the failure concerns, if any.
    public let element: String?
    /// One sentence that says what happened and, where it can, what to do.
    public let message: String
    /// GStreamer's debug text, for `--verbose` output and bug reports; never shown by default.
    public let debugInfo: String?
    /// The bus report this error came from, when it came from the bus.
    public let report: Message.Report?

    init(_ kind: Kind, element: String? = nil, _ message: String, debugInfo: String? = nil, report: Message.Report? = nil) {
        self.kind = kind
        self.element = element
        self.message = message
        self.debugInfo = debugInfo
        self.report = report
    }

    /// Makes an error from an error message posted on a bus.
    public init(_ report: Message.Report) {
        self.init(report.kind, element: report.source, report.explanation, debugInfo: report.debugInfo, report: report)
    }

    public var description: String {
        guard let element else { return message }
        return "\(element): \(message)"
    }
}

extension GStreamerError {
    /// Makes an error from a failed parse of a gst-launch description.
    init(parsing error: GError, in description: String) {
        let text = borrowedString(error.message) ?? "unknown parse error"
        switch error.code {
        case Int32(GST_PARSE_ERROR_NO_SUCH_ELEMENT.rawValue):
            self.init(.missingElement,
                "\(text) is installed; check the name with gst-inspect-1.0, or install the plugin package that provides it")
        case Int32(GST_PARSE_ERROR_LINK.rawValue):
            self.init(.link, "\(text); check that the elements take a common format")
        case Int32(GST_PARSE_ERROR_NO_SUCH_PROPERTY.rawValue), Int32(GST_PARSE_ERROR_COULD_NOT_SET_PROPERTY.rawValue):
            self.init(.unknownProperty, "\(text); gst-inspect-1.0 lists an element's properties")
        default:
            self.init(.parse, "the pipeline description \"\(description)\" is invalid: \(text)")
        }
    }
}
