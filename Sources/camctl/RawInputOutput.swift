import GStreamer

/// The GStreamer elements a description file's raw fragment may not use unless the person running
/// it allows it: those that read or write files or the network, by their factory's class
/// (`Source/File`, `Sink/Network`, …), by a property that names a file or an address, or by name.
enum RawInputOutput {
    /// Elements whose class does not say they reach files or the network, but that do.
    static let listed: Set<String> = [
        "filesrc", "filesink", "multifilesrc", "multifilesink", "splitfilesrc", "splitmuxsrc", "splitmuxsink",
        "souphttpsrc", "souphttpclientsink", "udpsrc", "udpsink", "multiudpsink", "dynudpsink",
        "tcpserversrc", "tcpserversink", "tcpclientsrc", "tcpclientsink", "multisocketsink", "socketsrc",
        "rtspsrc", "rtspclientsink", "rtmpsrc", "rtmpsink", "rtmp2src", "rtmp2sink", "srtsrc", "srtsink",
        "hlssink", "hlssink2", "hlssink3", "dashsink", "shout2send", "giosrc", "giosink", "giostreamsrc", "giostreamsink",
        "fdsrc", "fdsink", "uridecodebin", "uridecodebin3", "urisourcebin", "playbin", "playbin3",
        "gdkpixbufoverlay", "webrtcbin", "ristsrc", "ristsink", "zmqsrc", "zmqsink",
    ]

    /// Properties that name something to read or write outside the pipeline.
    static let properties: Set<String> = ["location", "uri", "host", "address", "port", "fd", "socket", "file", "filename"]

    /// The first element of a fragment (searched through nested bins) that reaches files or the
    /// network, as `name (factory)`, or `nil` when none does.
    static func firstElement(in bin: Bin) -> String? {
        for element in bin.elements {
            if let nested = element.as(Bin.self), let found = firstElement(in: nested) { return found }
            let factory = element.factoryName ?? ""
            let classes = Set((element.factoryClass ?? "").split(separator: "/").map(String.init))
            if listed.contains(factory) || !classes.isDisjoint(with: ["File", "Network"])
                || !properties.isDisjoint(with: element.propertyNames) {
                return factory.isEmpty ? element.name : factory
            }
        }
        return nil
    }
}
