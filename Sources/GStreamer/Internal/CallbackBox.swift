internal import CGStreamer

/// A Swift value carried through a C library's `void *` user data: retained when handed over
/// (``retained(_:onRelease:)``), read back in the callbacks (``value(_:)``), and released once by
/// the library's destroy notification (``releaseBox`` or ``releaseBoxOfClosure``), which runs
/// `onRelease` then.
final class CallbackBox<Value: Sendable>: ReleasableBox, @unchecked Sendable {
    // @unchecked Sendable: its two properties are immutable and Sendable, and its base has no state.
    let value: Value
    private let onRelease: (@Sendable () -> Void)?

    private init(_ value: Value, onRelease: (@Sendable () -> Void)?) {
        self.value = value
        self.onRelease = onRelease
    }

    deinit { onRelease?() }

    /// A retained pointer to a new box holding `value`, for the library to keep.
    static func retained(_ value: Value, onRelease: (@Sendable () -> Void)? = nil) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(CallbackBox(value, onRelease: onRelease)).toOpaque()
    }

    /// The value behind a pointer the library hands back, which stays retained.
    static func value(_ pointer: UnsafeMutableRawPointer?) -> Value {
        Unmanaged<CallbackBox>.fromOpaque(pointer!).takeUnretainedValue().value
    }
}

/// What every ``CallbackBox`` is, whatever it holds: the one release below works for all.
class ReleasableBox: @unchecked Sendable {
    // @unchecked Sendable: it has no state; its subclasses are Sendable.
}

/// The destroy notification for user data that is a ``CallbackBox`` (`GDestroyNotify`).
let releaseBox: GDestroyNotify = { pointer in
    Unmanaged<ReleasableBox>.fromOpaque(pointer!).release()
}

/// The same release for signal handlers, whose notification also gets the closure (`GClosureNotify`).
let releaseBoxOfClosure: GClosureNotify = { pointer, _ in
    Unmanaged<ReleasableBox>.fromOpaque(pointer!).release()
}
