import Foundation
import Synchronization
import HTTPServer
import Testing
import TestSupport

/// The streams a test's handler opened.
private final class Opened: Sendable {
    let streams = Mutex<[HTTPStream]>([])
}

@Suite("The HTTP server", .hangGuard(minutes: 2))
struct HTTPServerTests {
    /// curl's answer: the status and the body. Children are awaited, so no thread waits for them
    /// (a waiting thread of Swift's pool could be the one a request's handler needs). A request's
    /// handler runs on that pool, which the whole test run shares: on a busy run it may wait its
    /// turn for seconds, so curl waits up to a minute.
    static func curl(_ arguments: [String]) async throws -> (status: Int, body: String) {
        let result = try await ChildProcess.run("curl", ["-s", "-w", "\n%{http_code}", "--max-time", "60"] + arguments)
        var lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return (status, lines.joined(separator: "\n"))
    }

    /// A loopback server that answers 200 to everything, with limits changed as `change` says.
    static func answering200(_ change: (inout HTTPServer.Limits) -> Void) throws -> HTTPServer {
        var limits = HTTPServer.Limits()
        change(&limits)
        return try HTTPServer(host: "127.0.0.1", port: 0, limits: limits) { _ in HTTPResponse(status: 200) }
    }

    @Test("A request reaches the handler with its method, path, query, headers and body")
    func request() async throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { request in
            let text = "\(request.method) \(request.path) \(request.query["a"] ?? "-") \(request.headers["x-test"] ?? "-") \(String(decoding: request.body, as: UTF8.self))"
            return HTTPResponse(status: 201, type: "text/plain", bytes: Array(text.utf8))
        }
        defer { server.stop() }  // at once: nothing is connected by then
        let answer = try await Self.curl(["-X", "POST", "-H", "X-Test: yes", "--data-binary", "hello", "http://127.0.0.1:\(server.port)/some%20where?a=1&b=2"])
        #expect(answer.status == 201)
        #expect(answer.body == "POST /some where 1 yes hello")
    }

    @Test("A file body is sent from disk whole, with its length; the descriptor is closed once sent")
    func fileBody() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("movie.bin")
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
            guard let file = HTTPFile(path: path) else { return HTTPResponse(status: 404) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "video/mp4")], body: .file(file))
        }
        defer { server.stop() }
        // This process's descriptors open on the file.
        let open = {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path
            }.count
        }
        for _ in 0..<3 {
            let result = try await ChildProcess.run("curl", ["-s", "-D", folder.path("headers"), "-o", folder.path("copy"), "--max-time", "60",
                                                                  "http://127.0.0.1:\(server.port)/"])
            #expect(result.status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("copy"))) == Data(bytes))
            let headers = try String(contentsOfFile: folder.path("headers"), encoding: .utf8).lowercased()
            #expect(headers.contains("content-length: 3000000") && headers.contains("content-type: video/mp4"), "\(headers)")
        }
        #expect(await until { open() == 0 }, "the file was closed once sent")
        #expect(HTTPFile(path: folder.path("missing")) == nil && HTTPFile(path: folder.url.path) == nil)
    }

    @Test("A body over the limit is answered 413 (411 when it does not say its length), and the handler never sees it")
    func bodyLimit() async throws {
        let server = try Self.answering200 { $0.bodyBytes = 1000 }
        defer { server.stop() }  // at once: nothing is connected by then
        let folder = try TemporaryFolder()
        let big = folder.path("big")
        try Data(repeating: 65, count: 5000).write(to: URL(fileURLWithPath: big))
        #expect(try await Self.curl(["--data-binary", "@\(big)", "http://127.0.0.1:\(server.port)/"]).status == 413)
        #expect(try await Self.curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "@\(big)", "http://127.0.0.1:\(server.port)/"]).status == 411)
        #expect(try await Self.curl(["--data-binary", "small", "http://127.0.0.1:\(server.port)/"]).status == 200)
    }

    @Test("Headers over the limit are refused without reaching the handler")
    func headerLimit() async throws {
        var limits = HTTPServer.Limits()
        limits.headerBytes = 4096
        let handled = Atomic<Int>(0)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits) { _ in
            handled.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }  // at once: nothing is connected by then
        let answer = try await Self.curl(["-H", "X-Big: \(String(repeating: "a", count: 20000))", "http://127.0.0.1:\(server.port)/"])
        #expect(answer.status == 431, "refused as Request Header Fields Too Large: \(answer.status)")
        #expect(handled.load(ordering: .relaxed) == 0, "the handler never saw the request")
        // Headers within the limit reach it: the count above is of a handler that counts.
        #expect(try await Self.curl(["-H", "X-Small: \(String(repeating: "a", count: 1000))", "http://127.0.0.1:\(server.port)/"]).status == 200)
        #expect(handled.load(ordering: .relaxed) == 1)
    }

    @Test("A streamed response sends what is written; a client that stops reading loses its own chunks, not the others'")
    func streams() async throws {
        let opened = Opened()
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
            let stream = HTTPStream(keeping: 2)
            opened.streams.withLock { $0.append(stream) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: .stream(stream))
        }
        // A client that reads nothing after connecting, and one that reads everything.
        let stalled = try ChildProcess.Running("/usr/bin/python3", ["-c", """
            import socket, time
            s = socket.create_connection(("127.0.0.1", \(server.port)))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            time.sleep(20)
            """])
        // Its time limit outlasts the wait for both clients, however busy the machine.
        let reader = try ChildProcess.Running("/usr/bin/curl", ["-s", "-N", "--max-time", "60", "http://127.0.0.1:\(server.port)/"])
        // Both clients connected (Python takes a while to start on a busy machine).
        #expect(await until { opened.streams.withLock { $0.count } == 2 })
        let chunk = [UInt8](repeating: 120, count: 100_000) + Array("\n".utf8)
        for _ in 0..<100 {
            for stream in opened.streams.withLock({ $0 }) { stream.send(chunk) }
        }
        for stream in opened.streams.withLock({ $0 }) { stream.send(Array("end\n".utf8)) }
        // The reading client has read to the end before the streams finish.
        #expect(await until { reader.outputSoFar.hasSuffix("end\n") }, "the reader got every chunk it read")
        for stream in opened.streams.withLock({ $0 }) { stream.finish() }
        let read = await reader.finished(timeout: 40)
        stalled.send(SIGKILL)
        _ = await stalled.finished(timeout: 5)
        try await ChildProcess.offThePools { server.stop() }
        #expect(read.standardOutput.hasSuffix("end\n"))
        #expect(read.standardOutput.split(separator: "\n").count >= 2)
        #expect(opened.streams.withLock { $0.map(\.droppedCount).max() ?? 0 } > 50, "the stalled client's chunks gave way")
    }

    @Test("Stopping ends open streams, and the port is free again")
    func stop() async throws {
        let opened = Opened()
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
            let stream = HTTPStream()
            opened.streams.withLock { $0.append(stream) }
            return HTTPResponse(status: 200, body: .stream(stream))
        }
        let reader = try ChildProcess.Running("/usr/bin/curl", ["-s", "-N", "--max-time", "60", "http://127.0.0.1:\(server.port)/"])
        #expect(await until { opened.streams.withLock { !$0.isEmpty } }, "the reader is connected")
        try await ChildProcess.offThePools { server.stop() }
        // The stream was ended, not waited out: curl did not run into its own limit (exit 28).
        let read = await reader.finished(timeout: 70)
        #expect(read.status != 28 && read.status != SIGKILL, "curl ended with \(read.status)")
        let again = try HTTPServer(host: "127.0.0.1", port: server.port) { _ in HTTPResponse(status: 204) }
        #expect(try await Self.curl(["http://127.0.0.1:\(again.port)/"]).status == 204)
        try await ChildProcess.offThePools { again.stop() }
    }

    @Test("Clients that connect and send nothing cannot hold the server: one address gets a share, and silence is ended")
    func silentClients() async throws {
        var limits = HTTPServer.Limits()
        (limits.connections, limits.connectionsPerAddress, limits.idleSeconds) = (16, 8, 2)
        let server = try HTTPServer(host: "0.0.0.0", port: 0, limits: limits) { _ in HTTPResponse(status: 204) }
        defer { server.stop() }  // at once: nothing is connected by then
        // 12 silent connections from 127.0.0.1 (8 are taken); then a request from 127.0.0.2; then,
        // once the silent ones are ended, how many of them were closed by the server.
        let probe = try await ChildProcess.run("/usr/bin/python3", ["-c", """
            import socket, time, subprocess
            silent = [socket.create_connection(("127.0.0.1", \(server.port))) for _ in range(12)]
            other = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30",
                                    "--interface", "127.0.0.2", "http://127.0.0.1:\(server.port)/"], capture_output=True, text=True)
            print(other.stdout)
            closed = 0
            for s in silent:
                s.settimeout(15)  # silent for 2 seconds, each is ended; a busy machine may take longer
                try:
                    closed += s.recv(1) == b""
                except OSError:
                    closed += 1
            print(closed)
            """])
        let lines = probe.standardOutput.split(separator: "\n")
        #expect(lines.first == "204", "another address is served: \(probe.standardOutput) \(probe.standardError)")
        #expect(lines.last == "12", "every silent connection was ended: \(probe.standardOutput)")
    }

    @Test("Clients that trickle their headers or body cannot hold the server: each is ended at its deadline, and another address is served meanwhile")
    func tricklingClients() async throws {
        var limits = HTTPServer.Limits()
        (limits.connections, limits.connectionsPerAddress, limits.headerSeconds, limits.bodySeconds) = (16, 8, 1, 1)
        let server = try HTTPServer(host: "0.0.0.0", port: 0, limits: limits) { _ in HTTPResponse(status: 204) }
        defer { server.stop() }  // at once: nothing is connected by then
        // 8 connections from 127.0.0.1 send a byte of their headers (or, after whole headers, of
        // their body) every 0.2 s, for ever unless ended; a request from 127.0.0.2 meanwhile; then
        // how many of the trickling ones the server ended before they finished.
        let probe = try await ChildProcess.run("/usr/bin/python3", ["-c", """
            import socket, subprocess, time
            heads = [socket.create_connection(("127.0.0.1", \(server.port))) for _ in range(4)]
            bodies = [socket.create_connection(("127.0.0.1", \(server.port))) for _ in range(4)]
            for s in bodies:
                s.sendall(b"POST / HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 100000\\r\\n\\r\\n")
            other = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30",
                                    "--interface", "127.0.0.2", "http://127.0.0.1:\(server.port)/"], capture_output=True, text=True)
            print(other.stdout)
            open_ones, deadline = heads + bodies, time.monotonic() + 120
            ended = 0
            while open_ones and time.monotonic() < deadline:
                for s in list(open_ones):
                    try:
                        s.sendall(b"X" if s in heads else b"a")
                    except OSError:
                        ended += 1
                        open_ones.remove(s)
                time.sleep(0.2)
            print(ended)
            """])
        let lines = probe.standardOutput.split(separator: "\n")
        #expect(lines.first == "204", "another address is served: \(probe.standardOutput) \(probe.standardError)")
        #expect(lines.last == "8", "every trickling connection was ended: \(probe.standardOutput)")
    }

    @Test("A chunked body, which could go on for ever, is answered 411 before any of it is read")
    func chunkedBody() async throws {
        let reached = Mutex(false)
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
            reached.withLock { $0 = true }
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }  // at once: nothing is connected by then
        let probe = try await ChildProcess.run("/usr/bin/python3", ["-c", """
            import socket, time
            s = socket.create_connection(("127.0.0.1", \(server.port)))
            s.sendall(b"POST / HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n")
            s.settimeout(60)
            answer = b""
            try:
                while b"\\r\\n" not in answer:
                    s.sendall(b"400\\r\\n" + b"a" * 1024 + b"\\r\\n")
                    time.sleep(0.05)
                    s.setblocking(False)
                    try:
                        answer += s.recv(4096)
                    except BlockingIOError:
                        pass
                    s.setblocking(True)
            except OSError:
                answer += s.recv(4096)
            print(answer.split(b"\\r\\n")[0].decode())
            """])
        #expect(probe.standardOutput.hasPrefix("HTTP/1.1 411"), "\(probe.standardOutput) \(probe.standardError)")
        #expect(!reached.withLock { $0 }, "the handler never saw it")
    }

    @Test("A handler whose client has gone is cancelled")
    func clientGone() async throws {
        let cancelled = Mutex(false)
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
            try? await Task.sleep(for: .seconds(600))
            if Task.isCancelled { cancelled.withLock { $0 = true } }
            return HTTPResponse(status: 200)
        }
        let gone = try await ChildProcess.run("curl", ["-s", "--max-time", "1", "http://127.0.0.1:\(server.port)/"])
        #expect(gone.status == 28, "curl gave up waiting: \(gone.status)")
        #expect(await until { cancelled.withLock { $0 } }, "the handler was cancelled")
        try await ChildProcess.offThePools { server.stop() }
    }

    @Test("An address that is not one, or a port in use, is refused with a sentence")
    func badAddresses() async throws {
        #expect(throws: HTTPServerError.self) { try HTTPServer(host: "not-an-address", port: 0) { _ in HTTPResponse(status: 200) } }
        let first = try HTTPServer(host: "127.0.0.1", port: 0) { _ in HTTPResponse(status: 200) }
        defer { first.stop() }  // at once: nothing is connected by then
        let error = #expect(throws: HTTPServerError.self) { try HTTPServer(host: "127.0.0.1", port: first.port) { _ in HTTPResponse(status: 200) } }
        #expect(error?.description.hasPrefix("cannot listen on 127.0.0.1:\(first.port)") == true)
    }
}
