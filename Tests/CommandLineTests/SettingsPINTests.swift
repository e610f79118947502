import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The booth's settings behind a PIN", .startsPrograms)
struct SettingsPINTests {
    @Test("With --settings-pin-file, the page's changes need the PIN, five wrong ones lock it, and a program with the token needs none")
    func pin() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("pin", holding: "2468\n")
        let served = try await ServedCamera(extra: ["--settings-pin-file", file])
        defer { served.process.send(SIGTERM) }
        #expect(try await served.json("/api/settings").object["pin_required"] as? Bool == true)
        // As the page sends it: its cookie, and the PIN typed, or not.
        let page = ["-X", "PUT", "-H", "Cookie: camctl_token=\(served.token)", "-d", #"{"shots": 2}"#]
        let without = try await served.request("/api/settings", page, withToken: false)
        #expect(without.status == 403 && without.body.contains("the booth's settings need its PIN"), "\(without.body)")
        let right = try await served.request("/api/settings", page + ["-H", "X-Camctl-PIN: 2468"], withToken: false)
        #expect(right.status == 200 && right.body.contains(#""shots":2"#), "\(right.body)")
        for _ in 1...5 {
            let wrong = try await served.request("/api/settings", page + ["-H", "X-Camctl-PIN: 1111"], withToken: false)
            #expect(wrong.status == 403 && wrong.body.contains("that is not the booth's PIN"), "\(wrong.body)")
        }
        let locked = try await served.request("/api/settings", page + ["-H", "X-Camctl-PIN: 2468"], withToken: false)
        #expect(locked.status == 429 && locked.body.contains("too many wrong PINs"), "\(locked.body)")
        // The owner's program, with the token, is not held by the PIN.
        let program = try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"shots": 3}"#])
        #expect(program.status == 200 && program.body.contains(#""shots":3"#), "\(program.body)")
        #expect(try await served.json("/api/settings").object["shots"] as? Int == 3)
    }

    @Test("A PIN file that holds no PIN of 4 to 12 digits is refused before the camera starts (exit 64)")
    func noPIN() async throws {
        let folder = try TemporaryFolder()
        let camctl = try Camctl()
        for text in ["12a4", "123", "1234567890123", ""] {
            let file = try folder.file("pin-\(text.count)-\(text.hashValue)", holding: text)
            let result = try await camctl.run(["serve", "--device", "test", "--listen", "127.0.0.1:0", "--settings-pin-file", file])
            #expect(result.status == 64 && result.standardError == "camctl: --settings-pin-file \(file) holds no PIN; write 4 to 12 digits in it\n",
                    "\(text): \(result.standardError)")
        }
    }
}
