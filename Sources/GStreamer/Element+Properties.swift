internal import CGStreamer

/// A Swift type that can be stored in and read from a GStreamer property or field.
public protocol ValueConvertible {
    /// Reads the Swift value, or returns `nil` when the GStreamer value is of another kind.
    init?(gstreamerValue: Value)
    /// The GStreamer value for this Swift value.
    var gstreamerValue: Value { get }
}

extension Element {
    /// Sets a property, converting the value to the property's type and checking its range.
    ///
    /// Text is parsed as gst-launch does, so enumerations can be set by nick (`"ball"`),
    /// and caps or fractions by their text form.
    public func setProperty(_ name: String, _ value: Value) throws(GStreamerError) {
        let spec = try propertySpec(name, needing: G_PARAM_WRITABLE, "cannot be written")
        var gvalue = GValue()
        do {
            try value.initialize(&gvalue, as: cgst_param_spec_value_type(spec))
        } catch {
            throw GStreamerError(.invalidPropertyValue, element: self.name,
                                 "property \"\(name)\" cannot take \(value): \(error.message)")
        }
        defer { g_value_unset(&gvalue) }
        if g_param_value_validate(spec, &gvalue) != 0 {
            throw GStreamerError(.invalidPropertyValue, element: self.name,
                                 "\(value) is out of range for property \"\(name)\"\(Element.allowedRange(spec))")
        }
        g_object_set_property(upcast(raw), name, &gvalue)
    }

    /// Sets a property that holds an element, such as camerabin's `camera-source` or
    /// wrappercamerabinsrc's `video-source`.
    public func setProperty(_ name: String, _ element: Element) throws(GStreamerError) {
        let spec = try propertySpec(name, needing: G_PARAM_WRITABLE, "cannot be written")
        let type = cgst_param_spec_value_type(spec)
        guard g_type_is_a(type, cgst_type_object()) != 0, cgst_instance_is_a(element.raw, type) != 0 else {
            throw GStreamerError(.invalidPropertyValue, element: self.name,
                                 "property \"\(name)\" cannot hold \(element.description)")
        }
        var gvalue = GValue()
        g_value_init(&gvalue, type)
        defer { g_value_unset(&gvalue) }
        g_value_set_object(&gvalue, element.raw)
        g_object_set_property(upcast(raw), name, &gvalue)
    }

    /// Sets a property from a Swift value.
    public func setProperty(_ name: String, _ value: some ValueConvertible) throws(GStreamerError) {
        try setProperty(name, value.gstreamerValue)
    }

    /// Reads a property. Enumerations read as their nick.
    public func property(_ name: String) throws(GStreamerError) -> Value {
        let spec = try propertySpec(name, needing: G_PARAM_READABLE, "cannot be read")
        var gvalue = GValue()
        g_value_init(&gvalue, cgst_param_spec_value_type(spec))
        defer { g_value_unset(&gvalue) }
        g_object_get_property(upcast(raw), name, &gvalue)
        return Value(reading: &gvalue)
    }

    /// Reads a property as a Swift type.
    public func property<T: ValueConvertible>(_ name: String, as type: T.Type = T.self) throws(GStreamerError) -> T {
        let value = try property(name)
        guard let converted = T(gstreamerValue: value) else {
            throw GStreamerError(.invalidPropertyValue, element: self.name,
                                 "property \"\(name)\" holds \(value), which is not a \(T.self)")
        }
        return converted
    }

    /// The names of all the element's properties.
    public var propertyNames: [String] {
        var count: guint = 0
        guard let specs = g_object_class_list_properties(objectClass, &count) else { return [] }
        defer { g_free(specs) }
        return (0..<Int(count)).compactMap { specs[$0].flatMap { borrowedString(g_param_spec_get_name($0)) } }
    }

    private var objectClass: UnsafeMutablePointer<GObjectClass> {
        let instance = upcast(raw, to: GTypeInstance.self)
        return UnsafeMutableRawPointer(instance.pointee.g_class).assumingMemoryBound(to: GObjectClass.self)
    }

    private func propertySpec(_ name: String, needing access: GParamFlags, _ refusal: String)
        throws(GStreamerError) -> UnsafeMutablePointer<GParamSpec>
    {
        guard let spec = g_object_class_find_property(objectClass, name) else {
            let factory = factoryName ?? "the element"
            throw GStreamerError(.unknownProperty, element: self.name,
                                 "has no property \"\(name)\"; gst-inspect-1.0 \(factory) lists the properties it has")
        }
        guard spec.pointee.flags.rawValue & access.rawValue != 0 else {
            throw GStreamerError(.invalidPropertyValue, element: self.name, "property \"\(name)\" \(refusal)")
        }
        return spec
    }

    /// ` (allowed: -1 to 2147483647)` for numeric properties, else empty.
    private static func allowedRange(_ spec: UnsafeMutablePointer<GParamSpec>) -> String {
        func bounds<T>(_ type: T.Type, _ body: (UnsafeMutablePointer<T>) -> (String, String)) -> String {
            let (low, high) = body(UnsafeMutableRawPointer(spec).assumingMemoryBound(to: T.self))
            return " (allowed: \(low) to \(high))"
        }
        switch g_type_fundamental(cgst_param_spec_value_type(spec)) {
        case cgst_type_int(): return bounds(GParamSpecInt.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        case cgst_type_uint(): return bounds(GParamSpecUInt.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        case cgst_type_int64(): return bounds(GParamSpecInt64.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        case cgst_type_uint64(): return bounds(GParamSpecUInt64.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        case cgst_type_long(): return bounds(GParamSpecLong.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        case cgst_type_ulong(): return bounds(GParamSpecULong.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        case cgst_type_double(): return bounds(GParamSpecDouble.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        case cgst_type_float(): return bounds(GParamSpecFloat.self) { ("\($0.pointee.minimum)", "\($0.pointee.maximum)") }
        default: return ""
        }
    }
}
