import CameraKit

/// Runs: a capture and a booth, each a sequence of the operator's own actions that a front end
/// starts with one action and then only answers (``Action/cutShort``, ``Action/decide(_:)``,
/// ``Action/endRun``), so every front end runs the same flow.
extension SessionOperator {
    /// Counts a run begun; the first of those running at once starts with no end asked for.
    private func beginRun() {
        if runs.running == 0 { runs.isEnding = false }
        runs.running += 1
    }

    /// Takes a capture plan's photos: each after its countdown, an interval from the one before's
    /// start, kept at once or after its review. Its outcome is the photos kept; a single photo's
    /// review answers as the review does. A single photo with neither is ``Action/takePhoto(_:)``:
    /// no run, and nothing told but the photo.
    func runCapture(_ plan: CapturePlan) async throws(OperatorError) -> Outcome {
        guard plan.count > 1 || plan.countdown > 0 || plan.review != nil else { return try await perform(.takePhoto(plan.settings)) }
        return try await runCapture(plan, on: clock)
    }

    private func runCapture<C: Clock<Duration>>(_ plan: CapturePlan, on clock: C) async throws(OperatorError) -> Outcome {
        beginRun()
        defer { runs.running -= 1 }
        var kept: [Outcome.Shot] = []
        var last: Outcome?
        var started: C.Instant?
        for number in 1...max(1, plan.count) {
            if let started, plan.interval > 0 {
                let due = started.advanced(by: .seconds(plan.interval))
                _ = await cancellable(Task { try await clock.sleep(until: due, tolerance: nil) })
                if runs.isEnding { break }
            }
            started = clock.now
            eventBroadcast.send(.shot(number: number, of: plan.count))
            _ = try await perform(.countdown(seconds: plan.countdown))
            if runs.isEnding { break }
            if let review = plan.review {
                _ = try await perform(.holdForReview)
                _ = try await perform(.takePhoto(plan.settings))
                last = try await perform(.review(review))
                if case .kept(let shots, _, _)? = last { kept += shots }
            } else {
                last = try await perform(.takePhoto(plan.settings))
                if case .photos(let shots)? = last { kept += shots }
            }
            if runs.isEnding { break }
        }
        if plan.count == 1, plan.review != nil, let last { return last }
        return .photos(kept)
    }

    /// Runs a booth: each shot after its countdown and shown in its place, then the composition
    /// shown, or reviewed with everything taken.
    func runBooth(_ plan: BoothPlan) async throws(OperatorError) -> Outcome {
        beginRun()
        // The booth's picture is of its own shots, whatever was taken before it, and its shots
        // go into its albums as its picture does.
        cells.removeAll()
        runAlbums = plan.albums
        defer { (runs.running, runAlbums) = (runs.running - 1, []) }
        var settings = plan.settings
        settings.thumbnailMaximumSide = plan.layout.shotSide
        if plan.review != nil { _ = try await perform(.holdForReview) }
        var shots: [Outcome.Shot] = [], taken = 0
        for number in 1...max(1, plan.shots) {
            eventBroadcast.send(.shot(number: number, of: plan.shots))
            _ = try await perform(.countdown(seconds: plan.countdown))
            if runs.isEnding { break }
            if case .photos(let delivered) = try await perform(.takePhoto(settings)) { shots += delivered }
            taken += 1
            guard number < plan.shots, !runs.isEnding else { break }
            if plan.showShots > 0 { _ = try await perform(.showShots(slots: plan.shots, layout: plan.layout, seconds: plan.showShots)) }
        }
        guard taken > 0 else {
            holding = false
            return .boothTaken([], composed: nil)
        }
        let shotPictures = cells.suffix(taken).map(\.thumbnail)
        let composition = try await perform(.compose(layout: plan.layout, quality: settings.quality, albums: plan.albums))
        if let review = plan.review {
            let verdict = try await perform(.review(review))
            if case .kept(_, let composed, _) = verdict, let style = plan.animation {
                try await keepAnimation(of: shotPictures, style: style, albums: plan.albums, partOf: composed?.libraryPhoto?.id)
            }
            return verdict
        }
        if let style = plan.animation {
            let picture: Int64? = if case .composed(let composed) = composition { composed.libraryPhoto?.id } else { nil }
            try await keepAnimation(of: shotPictures, style: style, albums: plan.albums, partOf: picture)
        }
        if !runs.isEnding { _ = try await perform(.showResult(seconds: plan.showResult)) }
        guard case .composed(let composed) = composition else { return .boothTaken(shots, composed: nil) }
        return .boothTaken(shots, composed: composed)
    }
}
