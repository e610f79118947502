// swift-tools-version: 6.0
//
// An output of one's own outside camctl: it watches the camera's frames and takes a photo when
// they move. It depends on camctl's products alone.

import Foundation
import PackageDescription

/// camctl itself, two folders up. SwiftPM names a package it reaches by path after its folder.
let camctl = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
func product(_ name: String) -> Target.Dependency { .product(name: name, package: camctl.lastPathComponent) }

let package = Package(
    name: "MotionTrigger",
    products: [.library(name: "MotionTrigger", targets: ["MotionTrigger"])],
    dependencies: [.package(path: camctl.path)],
    targets: [
        .target(name: "MotionTrigger", dependencies: [product("CameraKit"), product("CameraOperator"), product("GStreamer"), product("JSON")]),
        .testTarget(name: "MotionTriggerTests", dependencies: ["MotionTrigger", product("CamctlTesting"), product("CameraKit"),
                                                               product("CameraOperator"), product("PhotoLibrary"), product("JSON"),
                                                               product("GStreamer")]),
    ],
    swiftLanguageModes: [.v6]
)
