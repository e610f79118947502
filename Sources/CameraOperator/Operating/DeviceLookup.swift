import Blocking
import GStreamer

/// Where the operator lists and looks up cameras: listing them runs programs (pw-dump), so it
/// runs on a lane of its own, never on Swift's shared threads or inside the operator's actor.
enum DeviceLookup {
    static let lane = BlockingLane(label: "discovery")
}
