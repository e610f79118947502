import FoundationEssentials
import Glibc

/// Waits until `deadline` (the next photo of a time-lapse); returns early with a control.
func pause(until deadline: ContinuousClock.Instant, controls: ControlInbox) async -> Control? {
    guard deadline > ContinuousClock.now else { return controls.next() }
    while ContinuousClock.now < deadline {
        if let control = await controls.next(within: deadline - ContinuousClock.now) { return control }
    }
    return nil
}

/// Waits `seconds`; returns early with a control.
func pause(_ seconds: Double, controls: ControlInbox) async -> Control? {
    await pause(until: ContinuousClock.now + .seconds(seconds), controls: controls)
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
