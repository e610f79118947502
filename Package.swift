// swift-tools-version: 6.0
//
// camctl: cameras on Linux through GStreamer, with the capture model of AVFoundation.

import PackageDescription

let package = Package(
    name: "camctl",
    products: [
        .library(name: "GStreamer", targets: ["GStreamer"]),
        .library(name: "CameraKit", targets: ["CameraKit"]),
        .executable(name: "camctl", targets: ["camctl"]),
    ],
    targets: [
        // Layer 1: the C libraries from Debian, and the few shims Swift cannot call directly.
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0 gstreamer-tag-1.0 gstreamer-pbutils-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        // Layer 2: safe, ARC-owned Swift wrappers. Knows nothing about cameras.
        .target(name: "GStreamer", dependencies: ["CGStreamer"]),
        // The kernel's V4L2 control interface (camera controls, flash), header only.
        .systemLibrary(name: "CV4L2"),
        .systemLibrary(name: "CProcess"),
        // Layer 3: the capture model (session, devices, outputs, photos). Knows nothing about the command line.
        .target(name: "CameraKit", dependencies: ["GStreamer", "ImageMetadata", "HEIF", "FileSystem", "CV4L2"]),
        // Layer 4: formats read and written in pure Swift (EXIF, JPEG segments, PNG headers).
        .target(name: "ImageMetadata"),
        // Layer 4: files read and written safely: durable writes, destinations as cp treats them,
        // inputs that are never special files.
        .target(name: "FileSystem"),
        // Layer 4: HEIF (HEIC) files written and read in pure Swift.
        .target(name: "HEIF"),
        // Layer 4: pipeline description files, parsed in pure Swift.
        .target(name: "PipelineScript"),
        // Layer 4: the photo library, files and an SQLite index (Debian's libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "PhotoLibrary", dependencies: ["CSQLite", "ImageMetadata", "HEIF", "FileSystem"]),
        // Layer 5: the command-line tool.
        .executableTarget(name: "camctl", dependencies: ["GStreamer", "CameraKit", "PhotoLibrary", "HEIF", "PipelineScript", "FileSystem", "ImageMetadata", "CProcess"]),
        // Benchmarks against gst-launch-1.0 in the same run: swift run -c release camctl-bench
        .executableTarget(name: "camctl-bench", dependencies: ["GStreamer", "CameraKit", "PhotoLibrary"]),

        // A helper process for the leak test: GStreamer's leak tracer reports only at
        // gst_deinit(), after which GStreamer cannot be used again in that process.
        .executableTarget(name: "gst-leak-probe", dependencies: ["GStreamer", "CameraKit"], path: "Tests/LeakProbe"),
        // Child processes, temporary folders and virtual displays for the tests.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GStreamerTests", dependencies: ["GStreamer", "TestSupport", "gst-leak-probe"]),
        .testTarget(name: "CameraKitTests", dependencies: ["CameraKit", "ImageMetadata", "GStreamer", "HEIF", "TestSupport"]),
        .testTarget(name: "PhotoLibraryTests", dependencies: ["PhotoLibrary", "TestSupport"]),
        .testTarget(name: "HEIFTests", dependencies: ["HEIF", "TestSupport"]),
        .testTarget(name: "PipelineScriptTests", dependencies: ["PipelineScript"]),
        // camctl run as a person or a script runs it: as a child process, judged by other tools.
        .testTarget(name: "CommandLineTests", dependencies: ["camctl", "camctl-bench", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
