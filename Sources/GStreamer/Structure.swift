internal import CGStreamer

/// A named set of fields, such as one entry of caps (`video/x-raw, width=(int)640`)
/// or the payload of an element message.
///
/// A structure is plain Swift data: reading it never touches GStreamer.
public struct Structure: Equatable, Sendable, CustomStringConvertible {
    /// One named field.
    public struct Field: Equatable, Sendable {
        /// The field name, such as `width`.
        public var name: String
        /// The field value.
        public var value: Value
    }

    /// The structure name, such as `video/x-raw` or `GstMessageQOS`.
    public var name: String
    /// The fields in order.
    public private(set) var fields: [Field]

    /// Makes a structure with a name and fields in order.
    public init(_ name: String, _ fields: KeyValuePairs<String, Value> = [:]) {
        self.name = name
        self.fields = fields.map { Field(name: $0.key, value: $0.value) }
    }

    /// Parses GStreamer's text form, such as `video/x-raw, format=I420, width=640`.
    public init(parsing text: String) throws(GStreamerError) {
        try requireGStreamer()
        guard let raw = gst_structure_from_string(text, nil) else {
            throw GStreamerError(.invalidCaps, "\"\(text)\" is not a valid structure; write it as name, field=value, …")
        }
        defer { gst_structure_free(raw) }
        self.init(reading: raw)
    }

    /// The value of a field, or `nil` when there is none. Setting `nil` removes the field.
    public subscript(field: String) -> Value? {
        get { fields.first { $0.name == field }?.value }
        set {
            if let index = fields.firstIndex(where: { $0.name == field }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append(Field(name: field, value: newValue))
            }
        }
    }

    /// GStreamer's text form, which ``init(parsing:)`` reads back.
    public var description: String {
        guard (try? requireGStreamer()) != nil, let raw = try? makeGstStructure() else {
            return ([name] + fields.map { "\($0.name)=\($0.value)" }).joined(separator: ", ")
        }
        defer { gst_structure_free(raw) }
        return takeGLibString(gst_structure_to_string(raw)) ?? name
    }

    /// Copies a GStreamer structure's name and fields.
    init(reading raw: UnsafePointer<GstStructure>) {
        self.name = String(cString: gst_structure_get_name(raw))
        self.fields = (0..<gst_structure_n_fields(raw)).map { index in
            let fieldName = String(cString: gst_structure_nth_field_name(raw, guint(index)))
            return Field(name: fieldName, value: Value(reading: gst_structure_get_value(raw, fieldName)))
        }
    }

    /// Builds a new GStreamer structure; the caller owns it.
    func makeGstStructure() throws(GStreamerError) -> UnsafeMutablePointer<GstStructure> {
        try requireGStreamer()
        guard Structure.isValidName(name), let raw = gst_structure_new_empty(name) else {
            throw GStreamerError(.invalidCaps, "\"\(name)\" is not a valid structure name; start it with a letter")
        }
        do {
            for field in fields {
                try field.value.withGValue { gst_structure_set_value(raw, field.name, $0) }
            }
        } catch {
            gst_structure_free(raw)
            throw error
        }
        return raw
    }

    /// GStreamer's rule for structure names: a letter, then letters, digits and `/-_.:+`.
    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/-_.:+".unicodeScalars.contains($0)) }
    }
}
