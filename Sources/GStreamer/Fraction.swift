/// A rational number, as GStreamer uses for frame rates and pixel aspect ratios.
public struct Fraction: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The numerator.
    public let numerator: Int
    /// The denominator, always positive.
    public let denominator: Int

    /// Makes `numerator/denominator`.
    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(denominator != 0, "A fraction's denominator cannot be zero")
        let sign = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator
        self.denominator = sign * denominator
    }

    /// The value as a floating-point number (`30000/1001` is 29.97).
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    public static func < (lhs: Fraction, rhs: Fraction) -> Bool {
        lhs.numerator * rhs.denominator < rhs.numerator * lhs.denominator
    }

    public static func == (lhs: Fraction, rhs: Fraction) -> Bool {
        lhs.numerator * rhs.denominator == rhs.numerator * lhs.denominator
    }

    public func hash(into hasher: inout Hasher) {
        let divisor = Fraction.greatestCommonDivisor(numerator, denominator)
        hasher.combine(numerator / divisor)
        hasher.combine(denominator / divisor)
    }

    /// `30/1`, as GStreamer writes it.
    public var description: String { "\(numerator)/\(denominator)" }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}
