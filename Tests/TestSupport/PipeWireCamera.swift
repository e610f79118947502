import Foundation
import Synchronization

/// A PipeWire daemon of the test's own, with a camera in it (two when asked): a `videotestsrc`
/// published as a `Video/Source` node, which the device monitor lists and `pipewiresrc` reads like a webcam
/// shared through PipeWire; when asked, two cameras the daemon hosts itself, as it hosts a webcam's
/// node; and, when asked, a microphone: a virtual `Audio/Source` node that a 440 Hz tone is played into.
///
/// Everything runs in child processes (a private runtime folder and D-Bus session bus), so nothing
/// in the test process, nor any other test, sees this camera.
public enum PipeWireCamera {
    /// The camera's display name.
    public static let name = "PipeWire test camera"
    /// The second camera's display name, when one is asked for.
    public static let secondName = "PipeWire second camera"
    /// The two cameras the daemon makes itself when asked (`daemonCameras`): nodes of PipeWire's
    /// own test-picture plugin, hosted in the daemon as a webcam's node is, offering 320x240.
    public static let daemonCameraNames = ["PipeWire daemon camera A", "PipeWire daemon camera B"]
    /// The microphone's display name.
    public static let microphoneName = "PipeWire test microphone"

    /// Whether PipeWire, its session manager and GStreamer's PipeWire plugin are installed.
    public static var isAvailable: Bool {
        ["pipewire", "wireplumber", "dbus-daemon", "pw-cli"].allSatisfy(ChildProcess.isInstalled)
            && (try? ChildProcess.runToEnd("gst-inspect-1.0", ["pipewiresrc"]).status) == 0
    }

    /// Runs a program while the camera is published. With `microphone`, the microphone is there
    /// too, its tone flowing, before the program starts.
    /// With `unplugsWhenAsked`, the camera goes away when the program makes the file
    /// `$XDG_RUNTIME_DIR/unplug`, and comes back when it makes `$XDG_RUNTIME_DIR/replug`: the
    /// program decides when, from what it has seen, with no time of the machine's in between.
    /// The program finds the daemon's process id in `PIPEWIRE_DAEMON_PID`.
    public static func run(_ program: String, _ arguments: [String], location: String? = nil,
                           unplugsWhenAsked: Bool = false, microphone: Bool = false, secondCamera: Bool = false,
                           daemonCameras: Bool = false) async throws -> ChildProcess.Result {
        let runtime = try TemporaryFolder()
        chmod(runtime.url.path, 0o700)  // as a login session's runtime folder
        let script = """
            export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus
            if [ -n "$DAEMON_CAMERAS" ]; then
                export XDG_CONFIG_HOME=$XDG_RUNTIME_DIR/config
                mkdir -p $XDG_CONFIG_HOME/pipewire/pipewire.conf.d
                cat > $XDG_CONFIG_HOME/pipewire/pipewire.conf.d/cameras.conf <<'END'
            context.spa-libs = { videotestsrc = videotestsrc/libspa-videotestsrc }
            context.objects = [
                { factory = adapter args = { factory.name = videotestsrc node.name = camctl-daemon-a node.description = "\(daemonCameraNames[0])" media.class = Video/Source } }
                { factory = adapter args = { factory.name = videotestsrc node.name = camctl-daemon-b node.description = "\(daemonCameraNames[1])" media.class = Video/Source } }
            ]
            END
            fi
            dbus-daemon --session --address=$DBUS_SESSION_BUS_ADDRESS --nofork --nopidfile >/dev/null 2>&1 & bus=$!
            sleep 0.2
            pipewire >/dev/null 2>&1 & daemon=$!
            sleep 0.3
            wireplumber >/dev/null 2>&1 & manager=$!
            publish() {
                gst-launch-1.0 -q videotestsrc is-live=true pattern=ball \\
                    ! video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 \\
                    ! pipewiresink mode=provide 'stream-properties="props,media.class=Video/Source,node.description=\\"\(name)\\"\(location.map { ",api.libcamera.location=\($0)" } ?? "")"' \\
                    >/dev/null 2>&1 & camera=$!
            }
            publish
            second=
            if [ -n "$SECOND_CAMERA" ]; then
                gst-launch-1.0 -q videotestsrc is-live=true pattern=smpte \\
                    ! video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 \\
                    ! pipewiresink mode=provide 'stream-properties="props,media.class=Video/Source,node.name=camctl-test-second,node.description=\\"\(secondName)\\""' \\
                    >/dev/null 2>&1 & second=$!
            fi
            tone=
            if [ -n "$MICROPHONE" ]; then
                # A virtual source (as a loopback microphone is), a tone played into its inputs.
                pw-cli create-node adapter '{ factory.name=support.null-audio-sink node.name=camctl-test-mic node.description="\(microphoneName)" media.class=Audio/Source/Virtual audio.position=[FL FR] object.linger=true }' >/dev/null
                ffmpeg -v error -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=600" -ac 2 -y "$XDG_RUNTIME_DIR/tone.wav"
                pw-cat --playback --target 0 --properties '{ node.autoconnect=false node.name=camctl-test-tone }' "$XDG_RUNTIME_DIR/tone.wav" & tone=$!
                for i in $(seq 600); do
                    pw-link -i 2>/dev/null | grep -q camctl-test-mic:input_FR && pw-link -o 2>/dev/null | grep -q camctl-test-tone:output_FR && break
                    sleep 0.1
                done
                pw-link camctl-test-tone:output_FL camctl-test-mic:input_FL && pw-link camctl-test-tone:output_FR camctl-test-mic:input_FR || {
                    echo "the PipeWire test microphone's tone could not be linked" >&2
                    kill -9 $tone $camera $second $manager $daemon $bus 2>/dev/null; wait
                    exit 97
                }
            fi
            # Published once PipeWire lists its formats too: a camera found before them offers nothing.
            # A loaded machine may take many seconds to get there.
            published=
            for i in $(seq 600); do
                pw-dump 2>/dev/null | grep -q '"mediaType": "video"' && pw-cli ls Node 2>/dev/null | grep -q "\(name)" \\
                    && { [ -z "$SECOND_CAMERA" ] || pw-cli ls Node 2>/dev/null | grep -q "\(secondName)"; } \\
                    && { [ -z "$DAEMON_CAMERAS" ] || pw-cli ls Node 2>/dev/null | grep -q "\(daemonCameraNames[1])"; } && published=1 && break
                sleep 0.1
            done
            if [ -z "$published" ]; then
                echo "the PipeWire test camera was not published within a minute" >&2
                kill -9 $tone $camera $second $manager $daemon $bus 2>/dev/null; wait
                exit 97
            fi
            # The daemon's process, for a program that freezes it (SIGSTOP) to see what a stuck daemon does.
            export PIPEWIRE_DAEMON_PID=$daemon
            "$@" & program=$!
            if [ -n "$UNPLUG_WHEN_ASKED" ]; then
                while kill -0 $program 2>/dev/null && [ ! -e "$XDG_RUNTIME_DIR/unplug" ]; do sleep 0.05; done
                if [ -e "$XDG_RUNTIME_DIR/unplug" ]; then
                    kill -9 $camera; wait $camera
                    while kill -0 $program 2>/dev/null && [ ! -e "$XDG_RUNTIME_DIR/replug" ]; do sleep 0.05; done
                    [ -e "$XDG_RUNTIME_DIR/replug" ] && publish
                fi
            fi
            wait $program; status=$?
            # What PipeWire had when the program failed, to tell a camera gone from one never found.
            [ $status -ne 0 ] && pw-cli ls Node >&2 2>/dev/null
            kill -9 $tone $camera $second $manager $daemon $bus 2>/dev/null; wait  # -9: a test runner's children may inherit a blocked SIGTERM
            exit $status
            """
        // A library of the run's own unless the arguments name one: never the user's.
        var environment = ["XDG_RUNTIME_DIR": runtime.url.path, "CAMCTL_LIBRARY": runtime.path("library")]
        if unplugsWhenAsked { environment["UNPLUG_WHEN_ASKED"] = "1" }
        if microphone { environment["MICROPHONE"] = "1" }
        if secondCamera { environment["SECOND_CAMERA"] = "1" }
        if daemonCameras { environment["DAEMON_CAMERAS"] = "1" }
        // One PipeWire daemon at a time: run side by side (each with its own runtime folder and
        // bus), a camera program once found no camera at all in its own daemon.
        return try await oneAtATime.run { [script, environment] in
            try await ChildProcess.run("sh", ["-c", script, "sh", program] + arguments, environment: environment)
        }
    }

    private static let oneAtATime = Turns()
}
