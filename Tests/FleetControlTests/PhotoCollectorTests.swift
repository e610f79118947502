import Checksums
import FleetControl
import Foundation
import HTTPClient
import OperatorWire
import PhotoLibrary
import TestSupport
import Testing

/// Files served over HTTP from a folder of the test's own, by Python's plain file server.
final class FileServer {
    let folder: TemporaryFolder
    let base: String
    private let process: ChildProcess.Running

    init() async throws {
        folder = try TemporaryFolder()
        process = try ChildProcess.Running("/usr/bin/python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.url.path])
        guard await process.output(containing: "Serving HTTP", timeout: 60),
              let port = process.outputSoFar.firstMatch(of: /port ([0-9]+)/).map({ String($0.1) }) else {
            throw ChildProcess.Failure(message: "the file server did not start: \(process.outputSoFar)")
        }
        base = "http://127.0.0.1:\(port)"
    }

    /// Serves `bytes` as `name`; returns its address.
    func serve(_ bytes: [UInt8], as name: String) throws -> String {
        try Data(bytes).write(to: folder.url.appendingPathComponent(name))
        return base + "/" + name
    }

    deinit { process.send(SIGKILL) }
}

extension FleetPhoto {
    /// The photo a node's record makes once it has travelled as JSON text.
    init?(sent record: [String: Any], node: String) {
        guard JSONSerialization.isValidJSONObject(record), let text = try? JSONSerialization.data(withJSONObject: record),
              let decoded = try? WireJSON.decode(PhotoRecord.self, from: text) else { return nil }
        self.init(record: decoded, node: node)
    }
}

@Suite("A fleet's photos collected: checked against what their nodes reported, kept once", .startsPrograms)
struct PhotoCollectorTests {
    static let picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) } + [0xFF, 0xD9]

    static func record(url: String, bytes: [UInt8] = picture, id: Int64 = 7, file: String = "20261201-101502.250-k3f9x2.jpg") -> [String: Any] {
        [
            "id": id, "path": "/var/lib/camctl/\(file)", "url": url, "sha256": SHA256.hash(bytes).hexDigits, "bytes": bytes.count,
            "captured_at_us": 1_796_000_000_123_456, "codec": "jpeg", "width": 640, "height": 480, "orientation": 1,
            "device": "Test camera (smpte)", "kind": "photo", "captured_at": "2026-12-01T10:15:02.250Z", "state": "final",
        ]
    }

    @Test("A listed photo's record is read only when every field is there and in range")
    func records() async throws {
        let good = Self.record(url: "http://10.0.0.7:8080/p/7-abc")
        let photo = try #require(FleetPhoto(sent: good, node: "a"))
        #expect(photo.fileName == "20261201-101502.250-k3f9x2.jpg" && photo.byteCount == Self.picture.count)
        #expect(photo.capturedAt.timeIntervalSince1970 == 1_796_000_000.123456)
        let broken: [(String, Any?)] = [
            ("id", 0), ("id", "7"), ("path", "/x/../../etc/passwd"), ("path", "/x/.hidden.jpg"), ("url", "file:///etc/passwd"),
            ("url", "http://a b"), ("sha256", "ABC"), ("sha256", String(repeating: "g", count: 64)), ("bytes", 0),
            ("bytes", 1e300), ("bytes", Double.nan as Any), ("captured_at_us", -1), ("codec", "gif"), ("width", 0), ("height", 70_000),
            ("orientation", 9), ("device", String(repeating: "d", count: 300)), ("thumbnail_url", "ftp://x"), ("width", nil),
        ]
        for (key, value) in broken {
            var record = good
            record[key] = value
            #expect(FleetPhoto(sent: record, node: "a") == nil, "\(key) = \(String(describing: value))")
        }
        for node in ["", "..", ".a", "a/b", String(repeating: "n", count: 200)] {
            #expect(FleetPhoto(sent: good, node: node) == nil, "node \(node)")
        }
    }

    @Test("Records of random JSON never make a photo out of nonsense, nor crash")
    func fuzzedRecords() async throws {
        var generator = SystemRandomNumberGenerator()
        let values: [Any] = [0, -1, 1, Int64.max, 1e308, -0.0, "", "x", "http://h/p", [] as [Any], [:] as [String: Any], true, NSNull()]
        let keys = ["id", "path", "url", "sha256", "bytes", "captured_at_us", "codec", "width", "height", "orientation", "device", "thumbnail_url"]
        let good = Self.record(url: "http://h/p/1")
        for _ in 0..<5000 {
            var record = good
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                record[keys[Int.random(in: keys.indices, using: &generator)]] = values[Int.random(in: values.indices, using: &generator)]
            }
            if let photo = FleetPhoto(sent: record, node: "n") {
                #expect(photo.id >= 1 && photo.byteCount >= 1 && (1...8).contains(photo.orientation) && photo.sha256.count == 64)
            }
        }
    }

    @Test("Into a folder: a file per photo under its node, kept once; a download that does not match is not kept; another file is never replaced")
    func intoFolder() async throws {
        let server = try await FileServer()
        let target = try TemporaryFolder()
        let collector = PhotoCollector(into: .folder(target.url.path), fleet: "rig")
        let photo = try #require(FleetPhoto(sent: Self.record(url: try server.serve(Self.picture, as: "a.jpg")), node: "a"))
        let path = target.path("a/20261201-101502.250-k3f9x2.jpg")
        #expect(try await collector.collect(photo) == .collected(path))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == Self.picture)
        #expect(try await collector.collect(photo) == .had(path), "collected again, it is there already")

        // The node reported other bytes than it serves: nothing is kept.
        var other = Self.record(url: try server.serve(Self.picture + [0], as: "b.jpg"), file: "20261201-101503.250-aaaaaa.jpg")
        other["bytes"] = Self.picture.count + 1
        other["sha256"] = SHA256.hash(Self.picture).hexDigits
        let lying = try #require(FleetPhoto(sent: other, node: "a"))
        await #expect { try await collector.collect(lying) } throws: { error in
            guard let error = error as? CollectionError, case .mismatch = error.reason else { return false }
            return error.concernsOnlyThisPhoto
        }
        #expect(!FileManager.default.fileExists(atPath: target.path("a/20261201-101503.250-aaaaaa.jpg")))

        // A file of someone else's where a photo would go stays as it is.
        let theirs = Self.record(url: try server.serve(Self.picture, as: "c.jpg"), file: "20261201-101504.250-bbbbbb.jpg")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: target.path("a/20261201-101504.250-bbbbbb.jpg")))
        await #expect(throws: CollectionError.self) { try await collector.collect(try #require(FleetPhoto(sent: theirs, node: "a"))) }
        #expect(try String(contentsOfFile: target.path("a/20261201-101504.250-bbbbbb.jpg"), encoding: .utf8) == "mine")

        // A server that sends more than reported is cut off at the reported size.
        let big = try server.serve([UInt8](repeating: 1, count: 100_000), as: "big.jpg")
        await #expect(throws: HTTPClientError.self) { try await HTTPClient().get(big, limit: 1000) }
        await #expect { try await HTTPClient().get(server.base + "/missing.jpg", limit: 1000) } throws: { ($0 as? HTTPClientError)?.status == 404 }
    }

    @Test("Two collections of one photo at once, into one folder or two processes' libraries: it is kept once, and each says where, neither failing",
          arguments: [false, true])
    func sameAtOnce(intoLibrary: Bool) async throws {
        let server = try await FileServer()
        let target = try TemporaryFolder()
        // Two collectors on one destination, as two camctl processes collecting the same rig are.
        let collectors = try (0..<2).map { _ in
            PhotoCollector(into: intoLibrary ? .library(try PhotoLibrary(folder: target.url.path)) : .folder(target.url.path), fleet: "rig")
        }
        let photo = try #require(FleetPhoto(sent: Self.record(url: try server.serve(Self.picture, as: "a.jpg")), node: "a"))
        async let first = collectors[0].collect(photo)
        async let second = collectors[1].collect(photo)
        let results = try await [first, second]
        let paths = Set(results.map { switch $0 { case .collected(let path), .had(let path): path } })
        #expect(paths.count == 1 && results.contains { if case .collected = $0 { true } else { false } }, "\(results)")
        if intoLibrary { #expect(try PhotoLibrary(folder: target.url.path).photos().count == 1) }
    }

    @Test("Into a library: each photo once, in its node's album, with its capture instant and thumbnail")
    func intoLibrary() async throws {
        let server = try await FileServer()
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        let collector = PhotoCollector(into: .library(library), fleet: "rig")
        var record = Self.record(url: try server.serve(Self.picture, as: "a.jpg"))
        record["thumbnail_url"] = try server.serve(Self.thumbnail(width: 320, height: 240), as: "a-thumbnail.jpg")
        let photo = try #require(FleetPhoto(sent: record, node: "cam-1"))
        guard case .collected(let path) = try await collector.collect(photo) else { Issue.record("not collected"); return }
        #expect(try await collector.collect(photo) == .had(path))
        let kept = try library.photos()
        #expect(kept.count == 1)
        #expect(kept.first?.albums == ["cam-1"] && kept.first?.thumbnailPath != nil)
        #expect(abs((kept.first?.capturedAt.timeIntervalSince1970 ?? 0) - 1_796_000_000.123) < 0.001)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == Self.picture)
        // Reopened, the library still knows the photo came.
        #expect(try PhotoLibrary(folder: folder.url.path).photo(origin: "camctl-fleet:rig/cam-1/\(photo.sha256)") != nil)

        // A "thumbnail" declaring 16384x16384 pixels is no thumbnail: the photo is kept without it.
        let other = Self.picture + [1]
        var giant = Self.record(url: try server.serve(other, as: "b.jpg"), bytes: other, id: 8, file: "20261201-101503.250-aaaaaa.jpg")
        giant["thumbnail_url"] = try server.serve(Self.thumbnail(width: 16384, height: 16384), as: "b-thumbnail.jpg")
        guard case .collected = try await collector.collect(try #require(FleetPhoto(sent: giant, node: "cam-1"))) else {
            Issue.record("the photo with a giant thumbnail was not collected")
            return
        }
        let second = try #require(try library.photos().first { $0.id != kept.first?.id })
        #expect(second.thumbnailPath == nil, "\(second)")
    }

    /// The start of a JPEG whose frame header declares `width` by `height` (no picture follows).
    static func thumbnail(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
         0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
    }
}
