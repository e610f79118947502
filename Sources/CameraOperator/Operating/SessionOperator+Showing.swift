import CameraKit

/// What the preview shows for the operator: pictures over the whole of it, the last photo in its
/// corner, countdowns, and the waits ``Action/cutShort`` ends.
extension SessionOperator {
    /// Shows a picture over the whole preview for `seconds`, then the corner again; `true` when cut short.
    func show(_ picture: [UInt8], as kind: ShownPicture, for seconds: Double) async -> Bool {
        showWhole(picture, as: kind)
        defer { showCorner() }
        return await wait(seconds)
    }

    /// Shows the shots `tray` took since its last composition in their places of a `slots`-place
    /// layout for `seconds`; `true` when cut short.
    func showShots(slots: Int, layout: ShotLayout, seconds: Double, of tray: Int) async throws(OperatorError) -> Bool {
        await show(try await shotsPicture(slots: slots, layout: layout, of: tray), as: .shots, for: seconds)
    }

    /// The shots `tray` took since its last composition in their places of a `slots`-place layout.
    func shotsPicture(slots: Int, layout: ShotLayout, of tray: Int) async throws(OperatorError) -> [UInt8] {
        try await ShotComposition.compose(trays[tray]?.cells ?? [], layout: layout, slots: slots, quality: 85).data
    }

    func showWhole(_ picture: [UInt8], as kind: ShownPicture) {
        camera.showWhole(picture)
        shownPicture = (kind, picture)
        eventBroadcast.send(.showing(kind))
    }

    /// The preview's corner shows the last photo delivered again, or nothing.
    func showCorner() {
        camera.showLastPhoto(corner)
        if shownPicture != nil {
            shownPicture = nil
            eventBroadcast.send(.cleared)
        }
    }

    /// Waits `seconds`; `true` when cut short.
    func wait(_ seconds: Double) async -> Bool {
        guard seconds > 0 else { return false }
        return await cancellable(Task { [clock] in try await clock.sleep(for: .seconds(seconds)) })
    }

    /// Waits for a countdown or a wait that ``Action/cutShort`` can cancel; `true` when it was.
    func cancellable(_ running: Task<Void, any Error>) async -> Bool {
        countdown = running
        defer { countdown = nil }
        return (try? await running.value) == nil
    }

    /// Counts down, a second at a time, on the preview and as events; `true` when cut short.
    func count(down seconds: Double) async -> Bool {
        guard seconds > 0 else { return false }
        let camera = camera, events = eventBroadcast, clock = clock
        return await cancellable(Task {
            defer { camera.showText(nil) }
            try await Self.count(down: seconds, on: clock) { shown in
                camera.showText("\(shown)")
                events.send(.countdown(secondsLeft: shown))
            }
        })
    }

    /// Tells `show` the whole seconds left (rounded up) at the start and at each whole second
    /// after, until `seconds` have passed on `clock`.
    static func count<C: Clock<Duration>>(down seconds: Double, on clock: C, show: (Int) -> Void) async throws {
        let end = clock.now.advanced(by: .seconds(seconds))
        while clock.now < end {
            let left = clock.now.duration(to: end)
            let shown = Int((Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18).rounded(.up))
            show(shown)
            try await clock.sleep(until: end.advanced(by: .seconds(1 - shown)), tolerance: nil)  // to the next whole second
        }
    }
}
