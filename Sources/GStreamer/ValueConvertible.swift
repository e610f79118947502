extension Int: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.intValue else { return nil }
        self = value
    }
    public var gstreamerValue: Value { .int(self) }
}

extension Int32: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.intValue.flatMap({ Int32(exactly: $0) }) else { return nil }
        self = value
    }
    public var gstreamerValue: Value { .int(Int(self)) }
}

extension Int64: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.intValue else { return nil }
        self = Int64(value)
    }
    public var gstreamerValue: Value { .int(Int(self)) }
}

extension UInt: ValueConvertible {
    public init?(gstreamerValue: Value) {
        switch gstreamerValue {
        case .uint(let value): self = value
        case .int(let value) where value >= 0: self = UInt(value)
        default: return nil
        }
    }
    public var gstreamerValue: Value { .uint(self) }
}

extension UInt32: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = UInt(gstreamerValue: gstreamerValue).flatMap({ UInt32(exactly: $0) }) else { return nil }
        self = value
    }
    public var gstreamerValue: Value { .uint(UInt(self)) }
}

extension UInt64: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = UInt(gstreamerValue: gstreamerValue) else { return nil }
        self = UInt64(value)
    }
    public var gstreamerValue: Value { .uint(UInt(self)) }
}

extension Double: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.doubleValue else { return nil }
        self = value
    }
    public var gstreamerValue: Value { .double(self) }
}

extension Float: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.doubleValue else { return nil }
        self = Float(value)
    }
    public var gstreamerValue: Value { .double(Double(self)) }
}

extension Bool: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.boolValue else { return nil }
        self = value
    }
    public var gstreamerValue: Value { .bool(self) }
}

extension String: ValueConvertible {
    /// Reads text or an enumeration's nick.
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.stringValue else { return nil }
        self = value
    }
    public var gstreamerValue: Value { .string(self) }
}

extension Fraction: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard let value = gstreamerValue.fractionValue else { return nil }
        self = value
    }
    public var gstreamerValue: Value { .fraction(self) }
}

extension Caps: ValueConvertible {
    public init?(gstreamerValue: Value) {
        guard case .caps(let caps) = gstreamerValue else { return nil }
        self = caps
    }
    public var gstreamerValue: Value { .caps(self) }
}
