import CameraKit

/// Runs: a capture and a booth, each a sequence of the operator's own steps on a tray of its own,
/// holding the stage from its start to its end. A front end starts one with one action and then
/// only answers (``Action/cutShort``, ``Action/decide(_:)``, ``Action/endRun``), so every front
/// end runs the same flow; photos other hands take meanwhile are theirs, never the run's.
extension SessionOperator {
    /// Takes a capture plan's photos: each after its countdown, an interval from the one before's
    /// start, kept at once or after its review. Its outcome is the photos kept; a single photo's
    /// review answers as the review does.
    func runCapture(_ plan: CapturePlan) async throws(OperatorError) -> Outcome {
        let tray = openTray(albums: [])
        defer { closeTray(tray) }
        return try await runCapture(plan, into: tray, on: clock)
    }

    private func runCapture<C: Clock<Duration>>(_ plan: CapturePlan, into tray: Int, on clock: C) async throws(OperatorError) -> Outcome {
        var kept: [Outcome.Shot] = []
        var last: Outcome?
        var started: C.Instant?
        for number in 1...max(1, plan.count) {
            if let started, plan.interval > 0 {
                let due = started.advanced(by: .seconds(plan.interval))
                _ = await cancellable(Task { try await clock.sleep(until: due, tolerance: nil) })
                if isEndingRun { break }
            }
            started = clock.now
            eventBroadcast.send(.shot(number: number, of: plan.count))
            _ = await count(down: plan.countdown)
            if isEndingRun { break }
            if let review = plan.review {
                hold(tray)
                _ = try await takePhoto(plan.settings, into: tray)
                last = try await reviewHeld(review, of: tray)
                if case .kept(let shots, _, _)? = last { kept += shots }
            } else {
                last = try await takePhoto(plan.settings, into: tray)
                if case .photos(let shots)? = last { kept += shots }
            }
            if isEndingRun { break }
        }
        if plan.count == 1, plan.review != nil, let last { return last }
        return .photos(kept)
    }

    /// Runs a booth: each shot after its countdown and shown in its place (where ``Action/retake``
    /// drops it and takes it again), then the composition of its own shots shown, or reviewed
    /// with everything taken. Its shots go into its albums as its picture does.
    func runBooth(_ plan: BoothPlan) async throws(OperatorError) -> Outcome {
        let tray = openTray(albums: plan.albums)
        defer { closeTray(tray) }
        var settings = plan.settings
        settings.thumbnailMaximumSide = plan.layout.shotSide
        if plan.review != nil { hold(tray) }
        var shots: [Outcome.Shot] = [], taken = 0, number = 1
        while number <= max(1, plan.shots) {
            eventBroadcast.send(.shot(number: number, of: plan.shots))
            _ = await count(down: plan.countdown)
            if isEndingRun { break }
            let photo = try await shoot(settings, into: tray)
            if !isEndingRun, plan.showShots > 0, number < plan.shots || plan.retakes {
                if await showForRetake(shot: number, plan: plan, of: tray) {
                    trays[tray]?.forget(photo)
                    continue
                }
            }
            if case .photos(let delivered) = try await take([photo], into: tray) { shots += delivered }
            taken += 1
            number += 1
            if isEndingRun { break }
        }
        guard taken > 0 else { return .boothTaken([], composed: nil) }
        let shotPictures = trays[tray]?.cells.map(\.thumbnail) ?? []
        let (composition, picture) = try await compose(layout: plan.layout, quality: settings.quality, albums: plan.albums, of: tray)
        if let review = plan.review {
            let verdict = try await reviewHeld(review, of: tray)
            if case .kept(_, let composed, _) = verdict, let style = plan.animation {
                try await keepAnimation(of: shotPictures, style: style, albums: plan.albums, partOf: composed?.libraryPhoto?.id)
            }
            return verdict
        }
        if let style = plan.animation {
            let id: Int64? = if case .composed(let composed) = composition { composed.libraryPhoto?.id } else { nil }
            try await keepAnimation(of: shotPictures, style: style, albums: plan.albums, partOf: id)
        }
        if !isEndingRun { _ = await show(picture, as: .result, for: plan.showResult) }
        guard case .composed(let composed) = composition else { return .boothTaken(shots, composed: nil) }
        return .boothTaken(shots, composed: composed)
    }

    /// Shows a booth's shots with the one just taken in its place, for the plan's time or until
    /// cut short; `true` when ``Action/retake`` asked for it again meanwhile (and the run goes on).
    private func showForRetake(shot: Int, plan: BoothPlan, of tray: Int) async -> Bool {
        // Shots that cannot be laid out are not shown, and the shot goes on to be delivered.
        guard let picture = try? await shotsPicture(slots: plan.shots, layout: plan.layout, of: tray) else { return false }
        // Offered only now, with nothing left to wait for before the showing: a retake or a cut
        // that follows the offer always finds the showing's wait to end.
        if plan.retakes {
            retakeWindow = (shot, false)
            eventBroadcast.send(.retakeOffered(shot: shot))
        }
        defer { retakeWindow = nil }
        _ = await show(picture, as: .shots, for: plan.showShots)
        return plan.retakes && retakeWindow?.asked == true && !isEndingRun
    }
}
