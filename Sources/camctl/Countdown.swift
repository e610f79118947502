import CameraKit
import Foundation

/// Waits before a photo, showing the seconds left in the terminal and, when a preview with text
/// is open, large on the preview (seed 004's booth countdown).
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
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end {
            let left = end - ContinuousClock.now
            let shown = Int((Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18).rounded(.up))
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

/// Waits `seconds` between photos (time-lapse); returns early with a control.
func pause(_ seconds: Double, controls: ControlInbox) async -> Control? {
    guard seconds > 0 else { return controls.take() }
    let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < end {
        if let control = await controls.next(within: end - ContinuousClock.now) { return control }
    }
    return nil
}
