internal import CGStreamer

extension Element {
    /// The element in gst-launch syntax: its factory and every property set to something other
    /// than its default, such as `pipewiresrc target-object=42` or `v4l2src device=/dev/video2`.
    ///
    /// The name and properties GStreamer deprecates are left out, so the text is what a person
    /// would write to make the same element.
    public var launchDescription: String {
        let object = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: GObject.self)
        var count: guint = 0
        guard let specs = g_object_class_list_properties(
            UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self),
            &count) else {
            return factoryName ?? name
        }
        defer { g_free(specs) }
        let required = G_PARAM_READABLE.rawValue | G_PARAM_WRITABLE.rawValue
        var words = [factoryName ?? name]
        for spec in UnsafeBufferPointer(start: specs, count: Int(count)).compactMap({ $0 }) {
            let flags = spec.pointee.flags.rawValue
            let propertyName = String(cString: spec.pointee.name)
            guard flags & required == required, flags & G_PARAM_DEPRECATED.rawValue == 0,
                  !["name", "parent"].contains(propertyName) else { continue }
            var value = GValue()
            g_value_init(&value, cgst_param_spec_value_type(spec))
            defer { g_value_unset(&value) }
            g_object_get_property(object, spec.pointee.name, &value)
            guard g_param_value_defaults(spec, &value) == 0 else { continue }
            // Strings as they are (serializing would escape them for caps, not for gst-launch).
            let text = cgst_value_type(&value) == cgst_type_string()
                ? g_value_get_string(&value).map { String(cString: $0) }
                : takeGLibString(gst_value_serialize(&value))
            guard let text else { continue }
            words.append("\(propertyName)=\(Self.launchQuoted(text))")
        }
        return words.joined(separator: " ")
    }

    /// A property value as gst-launch reads it: bare when it is one word, quoted otherwise.
    public static func launchQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:+,".contains($0) }
        guard !plain else { return text }
        return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
