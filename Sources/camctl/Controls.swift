import CameraKit
import CameraOperator
import CProcess
import Dispatch
import Formatting
import FoundationEssentials
import Glibc
import Processes
import Synchronization

/// What a person (keys) or a script (signals) asks of a running command; ``KeyTable`` says which
/// key or signal asks for each.
enum Control: Sendable, Equatable {
    /// Take a photo now (and, while one waits, end a countdown or keep a review).
    case captureNow
    /// The next camera.
    case switchCamera
    /// Pause or resume the preview.
    case togglePreview
    /// Start or stop recording a movie.
    case toggleRecording
    /// Pause or resume the movie being recorded.
    case toggleMoviePause
    /// The next filter.
    case nextFilter
    /// Zoom in or out.
    case zoom(in: Bool)
    /// Keep the picture under review (also the line `keep`).
    case keep
    /// Discard the picture under review (also the line `discard`).
    case discard
    /// Take a booth's shot shown in its place again (also the line `retake`).
    case retake
    /// End cleanly after the photo in flight.
    case finish
    /// Stop now, exit 130.
    case interrupt
}

/// Collects controls from keys and signals; a command waits for the next one, or for a time.
///
/// There is one for the process, listening to signals from its first instant (``listenToSignals()``
/// is the first thing camctl does), so a signal that comes while camctl starts is never met with
/// the default action: a SIGUSR1 waits until the camera is ready and takes a photo then.
final class ControlInbox: Sendable {
    /// The process's inbox.
    static let shared = ControlInbox()

    private struct State {
        var pending: [Control] = []
        var waiter: (id: Int, continuation: CheckedContinuation<Control?, Never>)?
        var nextWaiterID = 0
        /// Whether the running command acts on controls; until one says so, an interrupt ends camctl at once.
        var isClaimed = false
        /// Whether the command ends a running hook itself once an interrupt has ended its run, so
        /// the hook's end cannot let the run take another photo first.
        var endsHooks = false
        /// Whether keys are listened to already: a second call listens no more.
        var listensToKeys = false
    }

    private let state = Mutex(State())

    private init() {}

    /// Says that the running command acts on controls from now on (a camera command): an
    /// interrupt becomes ``Control/interrupt`` for it to stop cleanly, instead of ending camctl.
    func claimed() -> ControlInbox {
        state.withLock { $0.isClaimed = true }
        return self
    }

    /// Runs `work` with the command ending a running hook itself on an interrupt (after it has
    /// told its run to end); camctl still ends it after three seconds.
    func endingHooks<T>(_ work: () async throws(CommandFailure) -> T) async throws(CommandFailure) -> T {
        state.withLock { $0.endsHooks = true }
        defer { state.withLock { $0.endsHooks = false } }
        return try await work()
    }

    /// Hands a control to the waiting command, or keeps it for the next wait.
    func post(_ control: Control) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.pending.append(control)
                return nil as CheckedContinuation<Control?, Never>?
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: control)
    }

    /// A control that arrived since the last look, without waiting.
    func next() -> Control? {
        state.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
    }

    /// The next control, or `nil` once `timeout` has passed (`nil` timeout: wait for ever) or the
    /// waiting task is cancelled.
    func next(within timeout: Duration?) async -> Control? {
        if let control = next() { return control }
        if let timeout, timeout <= .zero { return nil }
        return await withTaskCancellationHandler {
            await waitForNext(within: timeout)
        } onCancel: {
            // Checked under the lock by the wait too, so a wait cancelled before it is registered ends at once.
            state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter?.continuation
            }?.resume(returning: nil)
        }
    }

    /// Waits until told to stop (an interrupt, a finish, or the end of the controls) and tells a
    /// service manager it is stopping; each `captureNow` meanwhile is given to `capture`.
    func awaitStop(capturing capture: () async -> Void = {}) async {
        while true {
            switch await next(within: nil) {
            case .interrupt?, .finish?, nil:
                ServiceManager.tell("STOPPING=1")
                return
            case .captureNow?:
                await capture()
            default:
                continue
            }
        }
    }

    private func waitForNext(within timeout: Duration?) async -> Control? {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state in
                if !state.pending.isEmpty {
                    continuation.resume(returning: state.pending.removeFirst())
                    return nil as Int?
                }
                if Task.isCancelled {
                    continuation.resume(returning: nil)
                    return nil
                }
                state.nextWaiterID += 1
                state.waiter = (state.nextWaiterID, continuation)
                return state.nextWaiterID
            }
            guard let id, let timeout else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [self] in
                let expired = state.withLock { state in
                    guard let waiter = state.waiter, waiter.id == id else { return nil as CheckedContinuation<Control?, Never>? }
                    state.waiter = nil
                    return waiter.continuation
                }
                expired?.resume(returning: nil)
            }
        }
    }

    /// Posts controls for SIGINT, SIGTERM (interrupt), SIGUSR1 (capture now) and SIGUSR2 (finish).
    /// An interrupt also ends a running hook; one not acted on within three seconds ends the
    /// process, saying so. Before a command takes the inbox, an interrupt ends camctl at once.
    ///
    /// The signals are blocked from the moment camctl is loaded and caught by a handler that
    /// writes their numbers to a pipe (the CProcess shim); a thread here reads the pipe, so none
    /// is lost to the default action, whichever thread it lands on.
    func listenToSignals() {
        let pipe = camctl_catch_control_signals()
        guard pipe >= 0 else { return }
        DedicatedThread.start { [self] in
            var number: UInt8 = 0
            while true {
                let count = read(pipe, &number, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                switch Int32(number) {
                case SIGUSR1: post(.captureNow)
                case SIGUSR2: post(.finish)
                default: interrupted()
                }
            }
        }
    }

    /// SIGINT or SIGTERM: the command stops cleanly, a hook is ended, and camctl ends by itself
    /// if the command has not within ``stopGrace`` seconds.
    private func interrupted() {
        guard state.withLock({ $0.isClaimed }) else { Self.exitInterrupted("interrupted") }
        post(.interrupt)
        if !state.withLock({ $0.endsHooks }) { Hook.endRunning() }
        let grace = Self.stopGrace
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
            Hook.endRunning(force: true)
            Self.exitInterrupted("interrupted, and the run did not stop within \(String(printf: "%g", grace)) seconds, so it was ended; "
                + "every photo reported saved is kept")
        }
    }

    /// How long an interrupted command has to stop by itself: `$CAMCTL_STOP_GRACE` seconds (from
    /// 0.1 to 3600; a slow machine or disk may want longer), else 3.
    static var stopGrace: Double {
        guard let text = getenv("CAMCTL_STOP_GRACE").map({ String(cString: $0) }), let seconds = Double(text),
              (0.1...3600).contains(seconds) else { return 3 }
        return seconds
    }

    /// Posts controls for keys typed on the terminal, which is put in single-key mode until exit,
    /// and for keys pressed in the session's preview window alike. Called before the session
    /// starts: a key pressed as the window first shows, while the camera still starts, is kept
    /// until the command waits for controls, as a signal is.
    func listenToKeys(of session: CaptureSession) {
        guard !state.withLock({ state in defer { state.listensToKeys = true }; return state.listensToKeys }) else { return }
        let windowKeys = session.previewOutput.keyPresses()
        Task { [self] in
            for await key in windowKeys {
                if let control = KeyTable.control(forKeyNamed: key) { post(control) }
            }
        }
        guard Console.inputIsTerminal, Terminal.enterKeyMode() else { return }
        DedicatedThread.start { [self] in
            var keys = KeyDecoder()
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                if let control = keys.control(after: byte) { post(control) }
            }
        }
    }

    /// Posts ``Control/keep``, ``Control/discard`` and ``Control/retake`` for the lines `keep`,
    /// `discard` and `retake` read from standard input when it is not a terminal, so a script can
    /// review photos and retake a booth's shot.
    func listenToReviewLines() {
        guard !Console.inputIsTerminal else { return }
        DedicatedThread.start { [self] in
            while let line = readLine() {
                switch line.trimmed().lowercased() {
                case "keep", "k": post(.keep)
                case "discard", "x": post(.discard)
                case "retake", "a": post(.retake)
                default: continue
                }
            }
        }
    }

    /// Ends camctl with exit code 130, saying why on standard error.
    private static func exitInterrupted(_ message: String) -> Never {
        Terminal.restore()
        Console.note(message)
        exit(ExitCode.interrupted.rawValue)
    }
}

/// Turns the bytes of keys typed on a terminal into controls, one byte at a time: a key's own
/// byte, or an escape sequence (Delete sends `ESC [ 3 ~`; other sequences, such as arrows, do nothing).
struct KeyDecoder {
    /// The bytes after an escape, while a sequence is being read.
    private var sequence: [UInt8]?

    mutating func control(after byte: UInt8) -> Control? {
        if var bytes = sequence {
            if !bytes.isEmpty || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") {
                bytes.append(byte)
                let ended = bytes.count > 1 && (0x40...0x7e).contains(byte)
                sequence = ended || bytes.count > 8 ? nil : bytes
                return ended && bytes == Array("[3~".utf8) ? .discard : nil
            }
            sequence = nil  // a lone escape: the byte is a key of its own
        }
        guard byte != 0x1b else {
            sequence = []
            return nil
        }
        return KeyTable.control(for: byte)
    }
}

/// The terminal's single-key mode (no line buffering, no echo), restored on every way out.
enum Terminal {
    private static let saved = Mutex<termios?>(nil)

    /// Switches standard input to single keys; returns false when it is not a terminal.
    static func enterKeyMode() -> Bool {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        saved.withLock { $0 = settings }
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return false }
        atexit { Terminal.restore() }
        return true
    }

    /// Puts the terminal back as it was.
    static func restore() {
        guard var settings = saved.withLock({ $0 }) else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
