/// Reviews: what is held is shown whole and waits for a verdict, then is delivered or dropped.
extension SessionOperator {
    /// How many pictures wait for the review.
    var heldCount: Int { held.count + (heldComposition == nil ? 0 : 1) }

    /// Shows what is held, waits for the verdict, and delivers or drops it all.
    func reviewHeld(_ plan: ReviewPlan) async throws(OperatorError) -> Outcome {
        guard review == nil, let last = heldComposition?.picture ?? held.last?.fileData else { throw .nothingToReview }
        var picture = last
        if heldComposition == nil, let photo = held.last {
            do {
                picture = try await photo.shownPicture()
            } catch {
                throw .capture(error)
            }
        }
        let count = heldCount
        showWhole(picture, as: .review)
        camera.showCaption(plan.hint)
        eventBroadcast.send(.reviewing(count: count, timeout: plan.timeout))
        let answer = await verdict(within: plan.timeout)
        camera.showCaption(nil)
        earlyVerdict = nil
        let (photos, composition) = (held, heldComposition)
        (holding, held, heldComposition) = (false, [], nil)
        defer { showCorner() }
        switch answer ?? plan.unanswered {
        case .discard:
            let dropped = Set(photos.map(\.captureID))
            cells.removeAll { dropped.contains($0.captureID) }
            if composition != nil { lastComposition = compositionBeforeHold }
            eventBroadcast.send(.discarded(count: count, answered: answer != nil))
            return .discarded(count: count, answered: answer != nil)
        case .keep:
            var shots: [Outcome.Shot] = []
            for photo in photos { shots.append(try await deliver(photo)) }
            var composed: Delivered?
            if let composition { composed = try await deliverComposition(composition.item, of: composition.shots) }
            eventBroadcast.send(.kept(count: count, answered: answer != nil))
            return .kept(shots, composed: composed, answered: answer != nil)
        }
    }

    /// Waits for ``Action/decide(_:)`` (or takes the one given early); `nil` when `timeout` seconds
    /// pass first or the session stops.
    func verdict(within timeout: Double?) async -> Verdict? {
        if let earlyVerdict { return earlyVerdict }
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
