// swift-tools-version: 6.0
//
// A transport of one's own outside camctl: JSON lines over a Unix socket, a request a line in,
// its answer and every event a line out, in the words every camctl transport shares. It depends
// on camctl's products alone.

import Foundation
import PackageDescription

/// camctl itself, two folders up. SwiftPM names a package it reaches by path after its folder.
let camctl = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
func product(_ name: String) -> Target.Dependency { .product(name: name, package: camctl.lastPathComponent) }

let package = Package(
    name: "SocketTransport",
    products: [.library(name: "SocketTransport", targets: ["SocketTransport"])],
    dependencies: [.package(path: camctl.path)],
    targets: [
        .target(name: "SocketTransport", dependencies: [product("CameraOperator"), product("OperatorWire"), product("JSON")]),
        .testTarget(name: "SocketTransportTests", dependencies: ["SocketTransport", product("CamctlTesting"), product("CameraKit"),
                                                                 product("CameraOperator"), product("PhotoLibrary")]),
    ],
    swiftLanguageModes: [.v6]
)
