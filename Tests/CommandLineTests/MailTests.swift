import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Sharing a picture by e-mail from a guest's page", .startsPrograms)
struct MailTests {
    /// An SMTP server of the test's own (aiosmtpd) on a port of its own, keeping each message it
    /// takes as a file `N.eml` in `folder`.
    final class MailCatcher {
        let process: ChildProcess.Running
        let port: Int
        let folder: TemporaryFolder

        init() async throws {
            folder = try TemporaryFolder()
            process = try ChildProcess.Running("/usr/bin/python3", ["-u", "-c", """
                import socket, sys, time
                from aiosmtpd.controller import Controller
                class Keep:
                    count = 0
                    async def handle_DATA(self, server, session, envelope):
                        Keep.count += 1
                        with open("%s/%d.eml" % (sys.argv[1], Keep.count), "wb") as kept:
                            kept.write(envelope.original_content)
                        return "250 OK"
                for attempt in range(20):
                    probe = socket.socket()
                    probe.bind(("127.0.0.1", 0))
                    port = probe.getsockname()[1]
                    probe.close()
                    try:
                        controller = Controller(Keep(), hostname="127.0.0.1", port=port)
                        controller.start()
                        break
                    except Exception:
                        continue
                print("listening", port)
                while True:
                    time.sleep(3600)
                """, folder.url.path])
            guard await process.output(containing: "listening"),
                  let port = process.outputSoFar.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
                process.send(SIGKILL)
                throw ChildProcess.Failure(message: "aiosmtpd did not start: \(process.errorsSoFar)")
            }
            self.port = port
        }

        deinit { process.send(SIGKILL) }

        /// The options that make `camctl serve` send its mail here, from booth@example.com.
        var serveOptions: [String] { ["--mail-server", "smtp://127.0.0.1:\(port)", "--mail-from", "booth@example.com"] }

        /// The messages taken, oldest first, as files.
        func messages() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".eml") }
                .sorted { (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0) }.map { folder.path($0) }
        }
    }

    /// A message file as a mail reader (Python's `email`) takes it apart: its headers, its first
    /// attachment's type, name and the count of attachments, and the first attachment's bytes.
    static func opened(_ message: String) async throws -> (headers: [String: Any], attachment: Data) {
        let folder = try TemporaryFolder()
        let read = try await ChildProcess.run("/usr/bin/python3", ["-c", """
            import email, email.policy, json, sys
            message = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
            parts = [part for part in message.iter_attachments()]
            open(sys.argv[2], "wb").write(parts[0].get_content())
            print(json.dumps({"to": message["To"], "from": message["From"], "subject": message["Subject"],
                              "type": parts[0].get_content_type(), "name": parts[0].get_filename(), "attachments": len(parts)}))
            """, message, folder.path("attached")])
        let headers = try #require((try? JSONSerialization.jsonObject(with: Data(read.standardOutput.utf8))) as? [String: Any], "\(read.standardError)")
        return (headers, try Data(contentsOf: URL(fileURLWithPath: folder.path("attached"))))
    }

    static let hasMail = PageTests.hasBrowser && (try? ChildProcess.runToEnd("/usr/bin/python3", ["-c", "import aiosmtpd"]).status) == 0

    @Test("A guest types an address on the photo's page: the photo reaches the mail server attached, as Python's email reads it; a picture is sent at most 3 times an hour; a wrong address is refused; the address is kept nowhere",
          .enabled(if: hasMail, "needs chromium, chromium-driver, python3-selenium and python3-aiosmtpd"), .drivesBrowser)
    func mailed() async throws {
        let catcher = try await MailCatcher()
        let served = try await ServedCamera(extra: catcher.serveOptions)
        defer { served.process.send(SIGTERM) }
        let taken = try await served.json("/api/capture", ["-d", "{}"])
        let record = try #require((taken.object["photos"] as? [[String: Any]])?.first, "\(taken.object)")
        let (path, link) = (try #require(record["path"] as? String), try #require(record["guest_link"] as? String))
        let address = "guest.one@example.org"
        let run = try await ChildProcess.run("/usr/bin/python3", [HEICGuestPageTests.script, served.base + link, address])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["mail_form"] as? Bool == true && seen["mail_said"] as? String == "Sent. Look in your inbox.", "\(seen)")
        let (headers, attached) = try await Self.opened(try #require(try catcher.messages().first))
        #expect(headers["to"] as? String == address && headers["from"] as? String == "booth@example.com", "\(headers)")
        #expect(headers["subject"] as? String == "Your photo from the booth" && headers["type"] as? String == "image/jpeg"
                && headers["attachments"] as? Int == 1, "\(headers)")
        #expect(attached == (try Data(contentsOf: URL(fileURLWithPath: path))), "the photo, byte for byte")
        // Twice more, then the picture's hour is used up.
        for expected in [200, 200, 429] {
            let sent = try await served.request(link + "/email", ["-d", #"{"address": "guest.two@example.org"}"#], withToken: false)
            #expect(sent.status == expected, "\(sent.body)")
            if expected == 429 { #expect(sent.body.contains("was e-mailed 3 times in the last hour; download it instead"), "\(sent.body)") }
        }
        #expect(try catcher.messages().count == 3)
        // An address that would add a recipient or a header is no address.
        for wrong in ["guest@example.org, other@example.org", "guest@example.org\r\nBcc: other@example.org", "guest", "guest@localhost"] {
            let object = String(decoding: try JSONSerialization.data(withJSONObject: ["address": wrong]), as: UTF8.self)
            let refused = try await served.request(link + "/email", ["-d", object], withToken: false)
            #expect(refused.status == 400 && refused.body.contains("that is not an e-mail address"), "\(wrong): \(refused.body)")
        }
        #expect(try catcher.messages().count == 3)
        // Kept nowhere: not in the library's files, nor in what serve said.
        let found = try await ChildProcess.run("grep", ["-r", "-l", "example.org", served.camctl.library.url.path])
        #expect(found.standardOutput.isEmpty, "\(found.standardOutput)")
        #expect(!served.process.outputSoFar.contains("example.org") && !served.process.errorsSoFar.contains("example.org"))
    }

    @Test("A guest types an address on the kiosk beside their picture's code: the booth's picture reaches the mail server attached, and the field is left empty for the next guest",
          .enabled(if: hasMail, "needs chromium, chromium-driver, python3-selenium and python3-aiosmtpd"), .drivesBrowser)
    func mailedFromKiosk() async throws {
        let catcher = try await MailCatcher()
        let served = try await ServedCamera(extra: catcher.serveOptions)
        defer { served.process.send(SIGTERM) }
        #expect(try await served.json("/api/settings", ["-X", "PUT", "-d", #"{"countdown": 0, "shots": 1}"#]).status == 200)
        #expect(try await served.json("/api/status").object["mail"] as? Bool == true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Browser/kiosk_mail.py").path
        let run = try await ChildProcess.run("/usr/bin/python3", [script, served.base, "guest.three@example.org"])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["form_shown"] as? Bool == true && seen["said"] as? String == "Sent. Look in your inbox."
                && seen["address_left"] as? String == "", "\(seen)")
        let pictures = try #require(try await served.json("/api/photos?composed=true").object["photos"] as? [[String: Any]])
        let picture = try #require(pictures.first?["path"] as? String, "\(pictures)")
        #expect((seen["link"] as? String)?.hasSuffix(try #require(pictures.first?["guest_link"] as? String)) == true, "\(seen)")
        let (headers, attached) = try await Self.opened(try #require(try catcher.messages().first))
        #expect(headers["to"] as? String == "guest.three@example.org" && headers["attachments"] as? Int == 1, "\(headers)")
        #expect(attached == (try Data(contentsOf: URL(fileURLWithPath: picture))), "the booth's picture, byte for byte")
    }

    @Test("Without a mail server, the guest's page offers no e-mail and the request is 404")
    func noMailServer() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let taken = try await served.json("/api/capture", ["-d", "{}"])
        let link = try #require(((taken.object["photos"] as? [[String: Any]])?.first?["guest_link"]) as? String)
        let page = try await served.request(link)
        #expect(page.status == 200 && !page.body.contains("id=\"mail\""))
        let refused = try await served.request(link + "/email", ["-d", #"{"address": "guest@example.org"}"#], withToken: false)
        #expect(refused.status == 404 && refused.body.contains("this booth sends no mail"), "\(refused.body)")
    }

    @Test("Mail options that cannot work are refused before the camera starts, in one sentence (exit 64)")
    func mailOptions() async throws {
        let camctl = try Camctl()
        for (options, said) in [(["--mail-from", "booth@example.com"], "--mail-from goes with --mail-server smtp://HOST:PORT"),
                                (["--mail-server", "smtp://127.0.0.1:2525"], "--mail-server needs --mail-from ADDRESS"),
                                (["--mail-server", "http://127.0.0.1", "--mail-from", "booth@example.com"],
                                 "--mail-server: http://127.0.0.1 is not a mail server's address; give smtp://HOST:PORT or smtps://HOST:PORT"),
                                (["--mail-server", "smtp://127.0.0.1:2525", "--mail-from", "booth"], "--mail-server needs --mail-from ADDRESS"),
                                (["--mail-server", "smtp://127.0.0.1:2525", "--mail-from", "booth@example.com", "--mail-password-file", "/etc/hostname"],
                                 "--mail-password-file goes with --mail-user USER")] {
            let result = try await camctl.run(["serve", "--device", "test", "--listen", "127.0.0.1:0"] + options)
            #expect(result.status == 64 && result.standardError.hasPrefix("camctl: " + said), "\(options): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        }
    }

    @Test("A mail server that does not answer: the guest is told in one sentence, without the server's address, and can try again")
    func mailServerDown() async throws {
        // A port nothing listens on: bound, then let go.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        close(probe)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let served = try await ServedCamera(extra: ["--mail-server", "smtp://127.0.0.1:\(port)", "--mail-from", "booth@example.com"])
        defer { served.process.send(SIGTERM) }
        let taken = try await served.json("/api/capture", ["-d", "{}"])
        let link = try #require(((taken.object["photos"] as? [[String: Any]])?.first?["guest_link"]) as? String)
        let sent = try await served.request(link + "/email", ["-d", #"{"address": "guest@example.org"}"#], withToken: false)
        #expect(sent.status == 502 && sent.body.contains("the photo could not be e-mailed (the mail server did not take the message")
                && sent.body.contains("try again later, or download it") && !sent.body.contains("127.0.0.1"), "\(sent.body)")
    }
}
