internal import CGStreamer

/// The type of GLib's `GValueArray`, looked up by name: its accessor functions are deprecated.
private let valueArrayType: GType = g_type_from_name("GValueArray")

extension Value {
    /// Reads a GLib value into Swift data.
    init(reading gvalue: UnsafePointer<GValue>) {
        let type = cgst_value_type(gvalue)
        switch type {
        case cgst_type_int(): self = .int(Int(g_value_get_int(gvalue)))
        case cgst_type_long(): self = .int(g_value_get_long(gvalue))
        case cgst_type_int64(): self = .int(Int(g_value_get_int64(gvalue)))
        case cgst_type_uint(): self = .uint(UInt(g_value_get_uint(gvalue)))
        case cgst_type_ulong(): self = .uint(g_value_get_ulong(gvalue))
        case cgst_type_uint64(): self = .uint(UInt(g_value_get_uint64(gvalue)))
        case cgst_type_double(): self = .double(g_value_get_double(gvalue))
        case cgst_type_float(): self = .double(Double(g_value_get_float(gvalue)))
        case cgst_type_boolean(): self = .bool(g_value_get_boolean(gvalue) != 0)
        case cgst_type_string(): self = .string(borrowedString(g_value_get_string(gvalue)) ?? "")
        case gst_fraction_get_type():
            self = .fraction(Fraction(Int(gst_value_get_fraction_numerator(gvalue)),
                                      Int(gst_value_get_fraction_denominator(gvalue))))
        case gst_int_range_get_type():
            let low = Int(gst_value_get_int_range_min(gvalue)), high = Int(gst_value_get_int_range_max(gvalue))
            self = .intRange(low...max(low, high), step: Int(gst_value_get_int_range_step(gvalue)))
        case gst_double_range_get_type():
            let low = gst_value_get_double_range_min(gvalue), high = gst_value_get_double_range_max(gvalue)
            self = .doubleRange(low...max(low, high))
        case gst_fraction_range_get_type():
            let low = Value(reading: gst_value_get_fraction_range_min(gvalue)).fractionValue ?? Fraction(0)
            let high = Value(reading: gst_value_get_fraction_range_max(gvalue)).fractionValue ?? low
            self = .fractionRange(low...max(low, high))
        case gst_value_list_get_type():
            self = .list((0..<gst_value_list_get_size(gvalue)).map { Value(reading: gst_value_list_get_value(gvalue, $0)) })
        case gst_value_array_get_type():
            self = .array((0..<gst_value_array_get_size(gvalue)).map { Value(reading: gst_value_array_get_value(gvalue, $0)) })
        case gst_structure_get_type():
            if let structure = gst_value_get_structure(gvalue) {
                self = .structure(Structure(reading: structure))
            } else {
                self = .other(typeName: "GstStructure", serialized: "")
            }
        case gst_buffer_get_type():
            if let buffer = g_value_get_boxed(gvalue)?.assumingMemoryBound(to: GstBuffer.self) {
                var map = GstMapInfo()
                if gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 {
                    self = .bytes(Array(UnsafeRawBufferPointer(start: map.data, count: Int(map.size))))
                    gst_buffer_unmap(buffer, &map)
                } else {
                    self = .bytes([])
                }
            } else {
                self = .bytes([])
            }
        case gst_caps_get_type():
            if let caps = gst_value_get_caps(gvalue) {
                self = .caps(Caps(retaining: UnsafeMutablePointer(mutating: caps)))
            } else {
                self = .other(typeName: "GstCaps", serialized: "")
            }
        case valueArrayType:
            // GLib's older array type, still used by elements such as `level`.
            if let array = g_value_get_boxed(gvalue)?.assumingMemoryBound(to: GValueArray.self).pointee {
                self = .array((0..<Int(array.n_values)).map { Value(reading: array.values + $0) })
            } else {
                self = .array([])
            }
        default:
            if g_type_fundamental(type) == cgst_type_enum(), let nick = Value.enumNick(of: gvalue) {
                self = .enumeration(nick)
            } else if g_type_fundamental(type) == cgst_type_boxed(), g_value_get_boxed(gvalue) == nil {
                // Nothing to serialize (a sink's last sample before any): serializers expect a value.
                self = .other(typeName: borrowedString(g_type_name(type)) ?? "?", serialized: "")
            } else {
                self = .other(typeName: borrowedString(g_type_name(type)) ?? "?",
                              serialized: takeGLibString(gst_value_serialize(gvalue)) ?? "")
            }
        }
    }

    private static func enumNick(of gvalue: UnsafePointer<GValue>) -> String? {
        guard let enumClass = g_type_class_ref(cgst_value_type(gvalue)) else { return nil }
        defer { g_type_class_unref(enumClass) }
        let entry = g_enum_get_value(enumClass.assumingMemoryBound(to: GEnumClass.self), g_value_get_enum(gvalue))
        return entry.flatMap { borrowedString($0.pointee.value_nick) }
    }

    /// Initialises a zeroed GLib value with this value, choosing the natural GLib type
    /// (`gint` for integers that fit, as caps fields expect). The caller unsets it.
    func initialize(_ gvalue: UnsafeMutablePointer<GValue>) throws(GStreamerError) {
        switch self {
        case .int(let value):
            if let small = Int32(exactly: value) {
                g_value_init(gvalue, cgst_type_int()); g_value_set_int(gvalue, small)
            } else {
                g_value_init(gvalue, cgst_type_int64()); g_value_set_int64(gvalue, gint64(value))
            }
        case .uint(let value):
            if let small = UInt32(exactly: value) {
                g_value_init(gvalue, cgst_type_uint()); g_value_set_uint(gvalue, small)
            } else {
                g_value_init(gvalue, cgst_type_uint64()); g_value_set_uint64(gvalue, guint64(value))
            }
        case .double(let value):
            g_value_init(gvalue, cgst_type_double()); g_value_set_double(gvalue, value)
        case .bool(let value):
            g_value_init(gvalue, cgst_type_boolean()); g_value_set_boolean(gvalue, value ? 1 : 0)
        case .string(let value), .enumeration(let value):
            g_value_init(gvalue, cgst_type_string()); g_value_set_string(gvalue, value)
        case .fraction(let value):
            g_value_init(gvalue, gst_fraction_get_type())
            gst_value_set_fraction(gvalue, try Value.int32(value.numerator), try Value.int32(value.denominator))
        case .intRange(let range, let step):
            g_value_init(gvalue, gst_int_range_get_type())
            gst_value_set_int_range_step(gvalue, try Value.int32(range.lowerBound), try Value.int32(range.upperBound),
                                         try Value.int32(step))
        case .doubleRange(let range):
            g_value_init(gvalue, gst_double_range_get_type())
            gst_value_set_double_range(gvalue, range.lowerBound, range.upperBound)
        case .fractionRange(let range):
            g_value_init(gvalue, gst_fraction_range_get_type())
            gst_value_set_fraction_range_full(
                gvalue, try Value.int32(range.lowerBound.numerator), try Value.int32(range.lowerBound.denominator),
                try Value.int32(range.upperBound.numerator), try Value.int32(range.upperBound.denominator))
        case .list(let values):
            g_value_init(gvalue, gst_value_list_get_type())
            for value in values {
                try value.withGValue { gst_value_list_append_value(gvalue, $0) }
            }
        case .array(let values):
            g_value_init(gvalue, gst_value_array_get_type())
            for value in values {
                try value.withGValue { gst_value_array_append_value(gvalue, $0) }
            }
        case .structure(let structure):
            g_value_init(gvalue, gst_structure_get_type())
            let raw = try structure.makeGstStructure()
            g_value_take_boxed(gvalue, raw)
        case .caps(let caps):
            g_value_init(gvalue, gst_caps_get_type())
            gst_value_set_caps(gvalue, caps.raw)
        case .bytes(let bytes):
            g_value_init(gvalue, gst_buffer_get_type())
            let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil)
            if let buffer, !bytes.isEmpty {
                _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(bytes.count)) }
            }
            g_value_take_boxed(gvalue, buffer)
        case .other(let typeName, let serialized):
            let type = g_type_from_name(typeName)
            guard type != 0 else {
                throw GStreamerError(.invalidPropertyValue, "the value type \(typeName) is unknown to GStreamer")
            }
            g_value_init(gvalue, type)
            guard gst_value_deserialize(gvalue, serialized) != 0 else {
                g_value_unset(gvalue)
                throw GStreamerError(.invalidPropertyValue, "\"\(serialized)\" is not a valid \(typeName)")
            }
        }
    }

    /// Runs `body` with a temporary GLib value holding this value.
    func withGValue<R>(_ body: (UnsafeMutablePointer<GValue>) throws(GStreamerError) -> R) throws(GStreamerError) -> R {
        var gvalue = GValue()
        try initialize(&gvalue)
        defer { g_value_unset(&gvalue) }
        return try body(&gvalue)
    }

    private static func int32(_ value: Int) throws(GStreamerError) -> Int32 {
        guard let small = Int32(exactly: value) else {
            throw GStreamerError(.invalidPropertyValue, "\(value) does not fit in a 32-bit GStreamer field")
        }
        return small
    }
}

extension Value {
    /// Initialises a zeroed GLib value of a given type with this value, converting where the
    /// meaning is clear (an integer to any integer width, a nick to an enumeration, text to
    /// anything GStreamer can parse, as gst-launch does). The caller unsets it.
    func initialize(_ gvalue: UnsafeMutablePointer<GValue>, as type: GType) throws(GStreamerError) {
        g_value_init(gvalue, type)
        do {
            try store(into: gvalue, type: type)
        } catch {
            g_value_unset(gvalue)
            throw error
        }
    }

    private func store(into gvalue: UnsafeMutablePointer<GValue>, type: GType) throws(GStreamerError) {
        let fundamental = g_type_fundamental(type)
        if case .string(let text) = self, fundamental != cgst_type_string() {
            guard gst_value_deserialize(gvalue, text) != 0 else { throw mismatch(type) }
            return
        }
        switch fundamental {
        case cgst_type_boolean():
            guard let value = boolValue else { throw mismatch(type) }
            g_value_set_boolean(gvalue, value ? 1 : 0)
        case cgst_type_int():
            g_value_set_int(gvalue, try integer(type))
        case cgst_type_uint():
            g_value_set_uint(gvalue, try integer(type))
        case cgst_type_long():
            g_value_set_long(gvalue, try integer(type))
        case cgst_type_ulong():
            g_value_set_ulong(gvalue, try integer(type))
        case cgst_type_int64():
            g_value_set_int64(gvalue, try integer(type))
        case cgst_type_uint64():
            g_value_set_uint64(gvalue, try integer(type))
        case cgst_type_double():
            guard let value = doubleValue else { throw mismatch(type) }
            g_value_set_double(gvalue, value)
        case cgst_type_float():
            guard let value = doubleValue else { throw mismatch(type) }
            g_value_set_float(gvalue, Float(value))
        case cgst_type_string():
            guard let value = stringValue else { throw mismatch(type) }
            g_value_set_string(gvalue, value)
        case cgst_type_enum():
            guard case .enumeration(let nick) = self else { throw mismatch(type) }
            guard gst_value_deserialize(gvalue, nick) != 0 else { throw mismatch(type) }
        default:
            switch (self, type) {
            case (.caps(let caps), gst_caps_get_type()):
                gst_value_set_caps(gvalue, caps.raw)
            case (.fraction(let fraction), gst_fraction_get_type()):
                guard let numerator = Int32(exactly: fraction.numerator),
                      let denominator = Int32(exactly: fraction.denominator) else { throw mismatch(type) }
                gst_value_set_fraction(gvalue, numerator, denominator)
            case (.structure(let structure), gst_structure_get_type()):
                g_value_take_boxed(gvalue, try structure.makeGstStructure())
            default:
                throw mismatch(type)
            }
        }
    }

    private func integer<T: FixedWidthInteger>(_ type: GType) throws(GStreamerError) -> T {
        let converted: T? = switch self {
        case .int(let value): T(exactly: value)
        case .uint(let value): T(exactly: value)
        case .double(let value): T(exactly: value)
        default: nil
        }
        guard let converted else { throw mismatch(type) }
        return converted
    }

    private func mismatch(_ type: GType) -> GStreamerError {
        let typeName = borrowedString(g_type_name(type)) ?? "this type"
        return GStreamerError(.invalidPropertyValue, "\(self) is not a valid \(typeName)")
    }
}
