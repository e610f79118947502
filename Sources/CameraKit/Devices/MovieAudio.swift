import GStreamer

/// Where a movie's sound comes from.
public enum MovieAudio: Sendable, Equatable {
    /// A steady 440 Hz tone made in the process: recording with sound where no microphone is.
    case testTone
    /// The system's default microphone, as its sound system (PipeWire, PulseAudio, ALSA) marks it,
    /// else the first one listed.
    case systemDefault
    /// The microphone with this name, or the one whose name contains it, as GStreamer's device
    /// monitor lists them.
    case named(String)
    /// A live source in gst-launch syntax (`alsasrc device=hw:1`), for a source no list shows.
    case custom(description: String)

    /// The sound a word names: `none` (`nil`), `default`, `test`, else a microphone's name.
    public static func named(word: String) -> MovieAudio? {
        switch word {
        case "none": nil
        case "default": .systemDefault
        case "test": .testTone
        default: .named(word)
        }
    }

    /// The names of the microphones present now; empty when there is none (or no sound system).
    public static func microphones() -> [String] {
        Microphone.list().map(\.name)
    }

    /// The sound a movie gets when its recorder says nothing: a microphone's when the camera is a
    /// system camera and the machine has a microphone; none for the test camera, files and custom sources.
    /// The microphones are listed on ``DeviceDiscovery/lane``.
    public static func automatic(for camera: CaptureDevice) async -> MovieAudio? {
        guard case .system = camera.kind, await !DeviceDiscovery.lane.run({ microphones().isEmpty }) else { return nil }
        return .systemDefault
    }

    /// The source's gst-launch description, its element named `name`: live, its buffers stamped
    /// on its pipeline's clock.
    func sourceDescription(named name: String) throws(CaptureError) -> String {
        let description = try sourceDescription()
        let factory = description.prefix { $0 != " " }
        return "\(factory) name=\(name)\(description.dropFirst(factory.count))"
    }

    private func sourceDescription() throws(CaptureError) -> String {
        switch self {
        case .testTone:
            return "audiotestsrc is-live=true wave=sine freq=440 volume=0.2 samplesperbuffer=480 ! audio/x-raw,rate=48000,channels=1"
        case .systemDefault:
            let found = Microphone.list()
            guard let chosen = found.first(where: \.isDefault) ?? found.first else {
                throw CaptureError(.deviceNotFound, "this machine has no microphone", remedy: .recordWithoutSoundOrTestTone)
            }
            return chosen.source
        case .named(let name):
            let found = Microphone.list(), wanted = name.lowercased()
            guard let chosen = found.first(where: { $0.name.lowercased() == wanted }) ?? found.first(where: { $0.name.lowercased().contains(wanted) }) else {
                let known = found.map(\.name)
                guard !known.isEmpty else {
                    throw CaptureError(.deviceNotFound, "no microphone named \"\(name)\" is here, and this machine has none", remedy: .recordWithoutSound)
                }
                throw CaptureError(.deviceNotFound, "no microphone named \"\(name)\" is here; the microphones are: \(known.joined(separator: ", "))")
            }
            return chosen.source
        case .custom(let description):
            return description
        }
    }
}
