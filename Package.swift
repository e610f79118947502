// swift-tools-version: 6.0
//
// camctl: cameras on Linux through GStreamer, with the capture model of AVFoundation.

import Foundation
import PackageDescription

/// GStreamer's flags: from the package scripts/setup writes (pkg-config's own, less the
/// `-pthread` SwiftPM warns about); without it, as when camctl is a dependency of another
/// package, from pkg-config's packages themselves.
let gstreamerPackages = FileManager.default.fileExists(atPath: "/usr/local/lib/pkgconfig/camctl-gstreamer.pc")
    ? "camctl-gstreamer"
    : "gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0 gstreamer-tag-1.0 gstreamer-pbutils-1.0"

let package = Package(
    name: "camctl",
    products: [
        .library(name: "Blocking", targets: ["Blocking"]),
        .library(name: "GStreamer", targets: ["GStreamer"]),
        .library(name: "CameraKit", targets: ["CameraKit"]),
        // A front end of one's own: the operator and its delivery, the library, the server.
        .library(name: "CameraOperator", targets: ["CameraOperator"]),
        // The wire's records and the JSON values in them, the file errors a delivery names.
        .library(name: "OperatorWire", targets: ["OperatorWire"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "FileSystem", targets: ["FileSystem"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
        .library(name: "CameraServer", targets: ["CameraServer"]),
        // A fleet's controller: commands to the nodes, their statuses, collecting their photos.
        .library(name: "FleetControl", targets: ["FleetControl"]),
        // For testing a front end or a transport of one's own: a camera in memory, a clock the test moves.
        .library(name: "CamctlTesting", targets: ["CamctlTesting"]),
        .executable(name: "camctl", targets: ["camctl"]),
    ],
    targets: [
        // Layer 1: the C libraries from Debian, and the few shims Swift cannot call directly.
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: gstreamerPackages,
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev", "libgstrtspserver-1.0-dev"])]
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // zlib's CRC-32: PNG chunks' checksums, and a photo's spooled frame's.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The kernel's V4L2 control interface (camera controls, flash), header only.
        .systemLibrary(name: "CV4L2"),
        // The kernel's clock discipline (whether the system clock is synchronized), header only.
        .systemLibrary(name: "CTimex"),
        .systemLibrary(name: "CSpawn"),
        // An HTTP server library (limits on connections, idle time and sizes built in): its header;
        // the library itself is loaded when a server first starts.
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // MQTT, through the mosquitto project's client library (a fleet's commands and events):
        // its header; the library itself is loaded when first used.
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // Printing: libcups's headers; the library itself is loaded when a picture is first printed.
        .systemLibrary(name: "CCups", providers: [.apt(["libcups2-dev"])]),
        .systemLibrary(name: "CGPhoto2", providers: [.apt(["libgphoto2-dev"])]),
        // libheif's headers (HEIC photos decoded: overlay); the library itself is loaded when a
        // HEIC photo is first decoded.
        .systemLibrary(name: "CHeif", providers: [.apt(["libheif-dev"])]),
        // OpenSSL's libcrypto, loaded with dlopen when a checksum is first made; its types are opaque here.
        .systemLibrary(name: "CCrypto"),
        // Xlib's headers (a preview filling an X screen); the library itself is loaded when a
        // preview first fills one.
        .systemLibrary(name: "CX11", providers: [.apt(["libx11-dev"])]),
        // HTTP downloads (a fleet's photos, collected from its nodes): libcurl's headers; the
        // library itself is loaded when first used.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // QR codes (a photo's download link for a guest's phone).
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // malloc tuning and the control signals' handler, for the command-line tool.
        .systemLibrary(name: "CProcess"),
        // Layer 2: safe, ARC-owned Swift wrappers. Knows nothing about cameras.
        .target(name: "GStreamer", dependencies: ["CGStreamer", "Blocking"]),
        // An HTTP/1.1 server over libmicrohttpd: requests to async handlers, streamed responses.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        // An MQTT client over libmosquitto: reconnecting, resubscribing, messages to a handler.
        .target(name: "MQTTClient", dependencies: ["CMosquitto", "Blocking"]),
        // Pictures printed through libcups: a CUPS queue, or an IPP printer straight.
        .target(name: "Printing", dependencies: ["CCups"]),
        .target(name: "GPhoto2", dependencies: ["CGPhoto2"]),
        // HEIC photos decoded through libheif.
        .target(name: "HEIFDecoding", dependencies: ["CHeif"]),
        // A window covering a whole X screen, for a kiosk's preview.
        .target(name: "Windowing", dependencies: ["CX11"]),
        // HTTP downloads over libcurl, with a limit on what is taken.
        .target(name: "Curl", dependencies: ["CCurl"]),
        .target(name: "HTTPClient", dependencies: ["Curl"]),
        .target(name: "MailClient", dependencies: ["Curl", "Formatting"]),
        // Layer 3, leaves in pure Swift that import nothing of the project:
        // formats read and written (EXIF, JPEG segments, PNG headers),
        .target(name: "ImageMetadata", dependencies: ["CZlib"]),
        // HEIF (HEIC) files written and read,
        .target(name: "HEIF"),
        .target(name: "GIF"),
        // pipeline description files, parsed,
        .target(name: "PipelineScript"),
        // SHA-256 and HMAC (download links that cannot be guessed, photos' checksums),
        .target(name: "Checksums", dependencies: ["CCrypto", "Blocking"]),
        // JSON values read from outside bytes and written as text,
        .target(name: "JSON"),
        // child processes and threads of their own, for work that blocks,
        .target(name: "Processes", dependencies: ["CSpawn", "Blocking"]),
        // text laid out: numbers as printf lays them out in any locale, trimmed ends, padded columns,
        .target(name: "Formatting"),
        // Composition templates read from their JSON files, and colours by name or #RRGGBB.
        .target(name: "Templates", dependencies: ["JSON"]),
        // and files read and written safely: durable writes, destinations as cp treats them,
        // inputs that are never special files.
        .target(name: "Blocking"),
        .target(name: "FileSystem", dependencies: ["Blocking"]),
        // Layer 4: the capture model (session, devices, outputs, photos). Knows nothing about the command line.
        .target(name: "CameraKit", dependencies: ["Blocking", "GStreamer", "Windowing", "HEIFDecoding", "ImageMetadata", "HEIF", "GIF", "FileSystem", "JSON", "Processes", "Formatting", "Templates", "CV4L2", "GPhoto2", "CGPhoto2"]),
        // Layer 5: the photo library, files and an SQLite index.
        .target(name: "PhotoLibrary", dependencies: ["Blocking", "CSQLite", "ImageMetadata", "HEIF", "GIF", "FileSystem", "Formatting"]),
        // The words on the wire: the records of photos, movies, events, outcomes and statuses,
        // as Codable values every transport and client shares.
        .target(name: "OperatorWire", dependencies: ["JSON"]),
        // Layer 6: the operator layer, which every front end drives: photo delivery (library,
        // copies, links, sidecars, hooks), as data; actions read from requests, and what the
        // operator does told in the wire's records.
        .target(name: "CameraOperator", dependencies: ["Blocking", "Checksums", "GStreamer", "CameraKit", "PhotoLibrary", "OperatorWire", "ImageMetadata", "Printing", "HEIF", "FileSystem", "JSON", "Processes", "Formatting", "GPhoto2"]),
        // Layer 7, front ends: camctl serve's web page, HTTP API, live picture and events,
        .target(name: "CameraServer", dependencies: ["Blocking", "GStreamer", "CameraKit", "CameraOperator", "OperatorWire", "PhotoLibrary", "FileSystem", "HTTPServer", "MQTTClient", "MailClient", "Printing", "Checksums", "JSON", "Formatting", "CQRencode", "CTimex", "FleetControl"]),
        // a fleet's controller: its nodes' statuses and answers, and their photos collected,
        .target(name: "CamctlTesting", dependencies: ["CameraKit", "CameraOperator"]),
        .target(name: "FleetControl", dependencies: ["MQTTClient", "HTTPClient", "PhotoLibrary", "OperatorWire", "Checksums", "FileSystem", "ImageMetadata", "JSON", "Formatting"]),
        // and the command-line tool.
        .executableTarget(name: "camctl", dependencies: ["Blocking", "GStreamer", "CameraKit", "CameraOperator", "OperatorWire", "CameraServer", "FleetControl", "Checksums", "MQTTClient", "MailClient", "Printing", "PhotoLibrary", "HEIF", "PipelineScript", "FileSystem", "ImageMetadata", "JSON", "Processes", "Formatting", "CProcess", "GPhoto2", "CGPhoto2"]),
        // Benchmarks against gst-launch-1.0 in the same run: swift run -c release camctl-bench
        .executableTarget(name: "camctl-bench", dependencies: ["GStreamer", "CameraKit", "PhotoLibrary", "OperatorWire", "HEIF", "Processes", "Checksums"]),

        // A helper process for the leak test: GStreamer's leak tracer reports only at
        // gst_deinit(), after which GStreamer cannot be used again in that process.
        .executableTarget(name: "gst-leak-probe", dependencies: ["Blocking", "GStreamer", "CameraKit"], path: "Tests/LeakProbe"),
        // Child processes, temporary folders and virtual displays for the tests.
        .target(name: "TestSupport", dependencies: ["GPhoto2", "CGPhoto2"], path: "Tests/TestSupport"),
        .testTarget(name: "GStreamerTests", dependencies: ["GStreamer", "TestSupport", "gst-leak-probe"]),
        .testTarget(name: "CameraKitTests", dependencies: ["CameraKit", "ImageMetadata", "GStreamer", "CGStreamer", "GPhoto2", "HEIF", "TestSupport"]),
        .testTarget(name: "PhotoLibraryTests", dependencies: ["PhotoLibrary", "CSQLite", "TestSupport"]),
        .testTarget(name: "HEIFTests", dependencies: ["HEIF", "TestSupport"]),
        .testTarget(name: "GIFTests", dependencies: ["GIF", "TestSupport"]),
        .testTarget(name: "PipelineScriptTests", dependencies: ["PipelineScript", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "BlockingTests", dependencies: ["Blocking", "TestSupport"]),
        .testTarget(name: "ChecksumsTests", dependencies: ["Checksums", "TestSupport"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "MailClientTests", dependencies: ["MailClient"]),
        .testTarget(name: "ProcessesTests", dependencies: ["Processes", "TestSupport"]),
        .testTarget(name: "FormattingTests", dependencies: ["Formatting", "TestSupport"]),
        .testTarget(name: "OperatorWireTests", dependencies: ["OperatorWire", "JSON", "TestSupport"]),
        .testTarget(name: "PrintingTests", dependencies: ["Printing", "TestSupport"]),
        .testTarget(name: "FleetControlTests", dependencies: ["FleetControl", "MQTTClient", "PhotoLibrary", "OperatorWire", "Checksums", "JSON", "TestSupport"]),
        // The operator driven as a front end drives it, beside camctl doing the same.
        .testTarget(name: "CameraOperatorTests", dependencies: ["CamctlTesting", "CameraOperator", "OperatorWire", "JSON", "GStreamer", "CameraKit", "ImageMetadata", "PhotoLibrary", "TestSupport", "camctl"]),
        // camctl run as a person or a script runs it: as a child process, judged by other tools.
        .testTarget(name: "CommandLineTests", dependencies: ["camctl", "camctl-bench", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
