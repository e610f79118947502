import PhotoLibrary

/// The attract screen between a booth's guests: the event's pictures in turn over the preview,
/// under a line inviting the next guest.
extension SessionOperator {
    /// Shows the plan's album's newest composed pictures in turn, each for the plan's time, then
    /// the camera for as long, over and over (the list read again each round, so a picture made
    /// meanwhile joins), until ``Action/cutShort`` or the session's stop. Without a library, the
    /// last picture composed here is the one shown.
    func attract(_ plan: AttractPlan) async -> Outcome {
        let seconds = max(1, plan.seconds)
        camera.showCaption(plan.line)
        defer { camera.showCaption(nil) }
        eventBroadcast.send(.attracting(line: plan.line))
        while !isStopped {
            for picture in await attractPictures(plan) {
                // A picture deleted or unreadable since it was listed is passed over.
                guard let jpeg = await attractPicture(picture) else { continue }
                if await show(jpeg, as: .attract, for: seconds) || isStopped { return .attractEnded }
            }
            if await wait(seconds) || isStopped { return .attractEnded }
        }
        return .attractEnded
    }

    /// What the attract screen shows in turn: the newest composed pictures of the plan's album
    /// (JPEG, as compositions are), or the last composed here when there is no library.
    private func attractPictures(_ plan: AttractPlan) async -> [AttractPicture] {
        guard delivery.libraryFolder != nil else { return lastComposition.map { [.inHand($0)] } ?? [] }
        let listed = try? await delivery.run { (delivery) throws(LibraryError) -> [LibraryPhoto] in
            try delivery.library?.page(of: PhotoLibrary.Selection(album: plan.album, composedOnly: true), offset: 0, limit: plan.count) ?? []
        }
        return (listed ?? []).filter { $0.mediaType == "image/jpeg" }.map(AttractPicture.kept)
    }

    /// The picture's bytes, read from the library when it is kept there.
    private func attractPicture(_ picture: AttractPicture) async -> [UInt8]? {
        switch picture {
        case .inHand(let jpeg): jpeg
        case .kept(let photo):
            try? await delivery.run { (delivery) throws(LibraryError) -> [UInt8]? in try delivery.library?.contents(of: photo) }
        }
    }
}

/// A picture the attract screen shows: kept in the library (read when its turn comes), or in hand.
private enum AttractPicture {
    case kept(LibraryPhoto)
    case inHand([UInt8])
}
