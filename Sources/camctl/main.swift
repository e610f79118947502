import CProcess
import FoundationEssentials
import Glibc
import GStreamer

// camctl: cameras on Linux through GStreamer.

// Signals first, before anything slow: a SIGTERM or SIGUSR1 while camctl starts is handled as
// documented, never by the default action that kills the process. (They are blocked since the
// program was loaded; the call here also keeps that load-time block in the executable.)
camctl_block_control_signals()
ControlInbox.shared.listenToSignals()
let arguments = Array(CommandLine.arguments.dropFirst())
if getenv("GST_DEBUG") == nil, !arguments.contains("--verbose") {
    GStreamerRuntime.silenceLibraryWarnings()  // stderr is for camctl's one-sentence messages
}
// Frames and photos are megabytes each: glibc would keep such blocks in its heaps after they are
// freed (its mmap threshold rises to the largest block freed), and a long preview with photos
// grew by a frame now and then. Fixed at 1 MiB, large blocks go back to the system when freed;
// the 10-minute soak in BENCHMARKS.md stays flat.
mallopt(M_MMAP_THRESHOLD, 1 << 20)
signal(SIGPIPE, SIG_IGN)  // a reader that goes away (camctl … | head) ends output, not camctl
do {
    let command = try Command.parse(arguments)
    try await command.run()
} catch {
    Terminal.restore()
    Console.note(error.message)
    if arguments.contains("--verbose"), let details = error.details {
        Console.standardError("  (GStreamer: \(details))\n")
    }
    exit(error.exitCode.rawValue)
}
Terminal.restore()
