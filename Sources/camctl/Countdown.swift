import CameraKit
import Foundation

/// Waits before a photo, showing the seconds left in the terminal and, when a preview with text
/// is open, large on the preview (a photo booth's countdown).
struct Countdown {
    let seconds: Double
    let preview: PreviewOutput?

    /// Counts down; returns early with the control that cut it short (`captureNow` means shoot now).
    func run(controls: ControlInbox) async -> Control? {
        guard seconds > 0 else { return nil }
        defer {
            preview?.overlayText = nil
            Console.endProgressLine()
        }
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            let left = end - ContinuousClock.now
            let shown = Int(left.seconds.rounded(.up))
            preview?.overlayText = "\(shown)"
            Console.progress("taking the photo in \(shown)…", replacing: true)
            // Wake at the next whole second, to show the next number.
            let untilNext = left - .seconds(shown - 1)
            if let control = await controls.next(within: max(.milliseconds(1), untilNext)) {
                return control
            }
        }
        return nil
    }
}

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
