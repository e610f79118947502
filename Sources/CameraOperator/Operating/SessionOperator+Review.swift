import CameraKit

/// Reviews: what a tray holds is shown whole and waits for a verdict, then is delivered or dropped.
/// A review holds the stage, so one waits at a time.
extension SessionOperator {
    /// Shows what `tray` holds, waits for the verdict, and delivers or drops it all.
    func reviewHeld(_ plan: ReviewPlan, of tray: Int) async throws(OperatorError) -> Outcome {
        guard review == nil, let held = trays[tray], let last = held.heldComposition?.picture ?? held.held.last?.fileData else {
            throw .nothingToReview
        }
        var picture = last
        if held.heldComposition == nil, let photo = held.held.last {
            picture = try await capture { () throws(CaptureError) in try await photo.shownPicture() }
        }
        showWhole(picture, as: .review)
        camera.showCaption(plan.hint)
        eventBroadcast.send(.reviewing(count: held.heldCount, timeout: plan.timeout))
        let answer = await verdict(within: plan.timeout, for: tray)
        camera.showCaption(nil)
        // What the tray holds now: a photo taken into it while the review waited is decided with the rest.
        let now = trays[tray] ?? held
        let (photos, composition, count) = (now.held, now.heldComposition, now.heldCount)
        trays[tray]?.endReview()
        defer { showCorner() }
        switch answer ?? plan.unanswered {
        case .discard:
            let dropped = Set(photos.map(\.captureID))
            trays[tray]?.cells.removeAll { dropped.contains($0.captureID) }
            if composition != nil { lastComposition = now.compositionBeforeHold }
            eventBroadcast.send(.discarded(count: count, answered: answer != nil))
            return .discarded(count: count, answered: answer != nil)
        case .keep:
            var shots: [Outcome.Shot] = []
            for photo in photos { shots.append(try await deliver(photo, from: tray)) }
            var composed: Delivered?
            if var item = composition?.item, let parts = composition?.shots {
                // The composition names the shots it was made of, now in the library.
                let ids = Dictionary(shots.compactMap { shot in shot.delivered?.libraryPhoto.map { (shot.photo.captureID, $0.id) } },
                                     uniquingKeysWith: { first, _ in first })
                item.parts = parts.compactMap { ids[$0] }
                composed = try await deliverComposition(item)
            }
            eventBroadcast.send(.kept(count: count, answered: answer != nil))
            return .kept(shots, composed: composed, answered: answer != nil)
        }
    }

    /// Answers the waiting review; else keeps the verdict for the review about to show what is
    /// held (the run on the stage's, else the loose tray's): pictures held, their review not yet
    /// waiting. `false` when no review waits or is about to (a verdict after a review ended is
    /// not kept for a later one).
    func decide(_ verdict: Verdict) -> Bool {
        if answerReview(verdict) { return true }
        for tray in [runTray, Self.looseTray].compactMap(\.self) {
            guard let held = trays[tray], held.holding, held.heldCount > 0 else { continue }
            trays[tray]?.earlyVerdict = verdict
            return true
        }
        return false
    }

    /// Waits for ``Action/decide(_:)`` (or takes the one `tray` was given early); `nil` when
    /// `timeout` seconds pass first or the session stops.
    func verdict(within timeout: Double?, for tray: Int) async -> Verdict? {
        if let early = trays[tray]?.earlyVerdict { return early }
        guard !isStopped else { return nil }  // a stopped session has no one to answer
        reviews += 1
        let number = reviews
        return await withCheckedContinuation { continuation in
            let timer = timeout.map { seconds in
                Task { [weak self, clock] in
                    guard (try? await clock.sleep(for: .seconds(seconds))) != nil else { return }
                    await self?.answerReview(nil, number: number)
                }
            }
            review = (number, continuation, timer)
        }
    }

    /// Answers the waiting review (only review `number`, when given); `false` when none waits.
    @discardableResult
    func answerReview(_ verdict: Verdict?, number: Int? = nil) -> Bool {
        guard let waiting = review, number == nil || waiting.number == number else { return false }
        review = nil
        waiting.timer?.cancel()
        waiting.verdict.resume(returning: verdict)
        return true
    }
}
