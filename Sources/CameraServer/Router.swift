import CameraKit
import CameraOperator
import FoundationEssentials
import Glibc
import HTTPServer
import JSON
import OperatorWire
import PhotoLibrary
import Printing

/// Turns requests into operator actions, library reads and media, and outcomes and failures into
/// responses.
struct Router: Sendable {
    /// The hint a review asked for over the API shows at the preview's foot.
    static let reviewHint = "Save or Cancel on the page"

    let sessionOperator: SessionOperator
    let session: CaptureSession
    let shelf: LibraryShelf?
    let events: EventHub
    let access: AccessControl
    /// Guests' download links, when the server keeps a library.
    let links: GuestLinks?
    /// Where guests reach the server, for the links' QR codes.
    let address: PublicAddress
    /// The printer photos are printed on, when the server has one.
    let printDesk: PrintDesk?
    /// The mail server guests' pictures are e-mailed through, when the server has one.
    let mailDesk: MailDesk?
    /// The booth's settings the page changes.
    let settings: BoothSettings
    /// The PIN changes of the settings need, when the owner set one.
    let settingsPIN: SettingsPIN?

    /// The largest page of photos.
    static let maximumPage = 200
    /// How long a booth the settings print waits for its printer's word before its first shot.
    static let printerCheckWait = Duration.seconds(8)

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await access.answer(request) { request throws(APIError) in try await route(request) }
    }

    private func route(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let parts = request.pathParts.map(String.init)
        // HEAD is answered as GET, without the body (a shared link's preview asks so).
        let method = request.method == "HEAD" ? "GET" : request.method
        if parts.first == "p", method == "POST", parts.count == 3, parts[2] == "email" {
            return JSONBody.response(try await guestMail(parts[1], try JSONBody.object(request.body)))
        }
        if parts.first == "p", method == "GET" {
            switch parts.count == 3 ? parts[2] : parts.count == 2 ? "" : "/" {
            case "": return try await guestPage(parts[1])
            case "file": return try await guestDownload(parts[1], thumbnail: false)
            case "thumbnail": return try await guestDownload(parts[1], thumbnail: true)
            case GuestPage.renditionName: return try await guestRendition(parts[1])
            default: throw APIError.notFound("this download link is not valid")
            }
        }
        if parts.first == "tile", method == "GET" {
            guard let links, links.isTile(request.path) else { throw APIError.notFound("this tile link is not valid") }
            return try await tile()
        }
        if parts.first == "api" || ["stream.mjpg", "snapshot.jpg"].contains(parts.first ?? "") {
            guard access.allows(request) else {
                throw APIError(401, access.isOnLoopback
                    ? "changing anything needs the access token: use the server's page, or send Authorization: Bearer TOKEN (the library's serve-token file holds it)"
                    : "this server needs its access token: open the page once with ?token=TOKEN (camctl serve printed it), or send Authorization: Bearer TOKEN")
            }
        }
        if parts.count >= 3, parts[0] == "api", parts[1] == "photos" {
            return try await photoRoute(method, id: parts[2], rest: Array(parts.dropFirst(3)))
        }
        switch (method, parts.joined(separator: "/")) {
        case ("GET", ""), ("GET", "index.html"):
            return HTTPResponse(type: "text/html; charset=utf-8", bytes: Array(WebPage.html.utf8), headers: [("Cache-Control", "no-store")])
        case ("GET", "stream.mjpg"):
            return LiveStream.response(from: session.liveJPEGOutput)
        case ("GET", "snapshot.jpg"):
            do {
                return HTTPResponse(type: "image/jpeg", bytes: try await session.photoOutput.snapshot(), headers: [("Cache-Control", "no-store")])
            } catch {
                throw APIError(error)
            }
        case ("GET", "api/shown.jpg"):
            guard let shown = await sessionOperator.shownPicture else { throw APIError.notFound("no picture is shown over the preview now") }
            return HTTPResponse(type: "image/jpeg", bytes: shown.jpeg, headers: [("Cache-Control", "no-store")])
        case ("GET", "api/status"):
            return JSONBody.response(await status())
        case ("GET", "api/events"):
            return events.subscribe()
        case ("POST", "api/capture"):
            return try await capture(try JSONBody.object(request.body))
        case ("POST", "api/actions"):
            return try await perform(try JSONBody.object(request.body))
        case ("GET", "api/photos"):
            let offset = try Self.integer(request.query["offset"], name: "offset") ?? 0
            let limit = min(try Self.integer(request.query["limit"], name: "limit") ?? 50, Self.maximumPage)
            let selection = PhotoLibrary.Selection(album: request.query["album"], composedOnly: try Self.flag(request.query["composed"], name: "composed"))
            let shelf = try library()
            do {
                return HTTPResponse(type: "application/json", bytes: try await shelf.page(offset: offset, limit: limit, of: selection))
            } catch {
                throw APIError(error)
            }
        case ("GET", "api/settings"):
            var record = await settings.record()
            record.pinRequired = settingsPIN != nil
            return JSONBody.response(record)
        case ("GET", "api/printer"):
            guard let printDesk else { throw APIError.notFound("this server has no printer; start camctl serve with --printer NAME or ipp://…") }
            return JSONBody.response(await printDesk.status(counting: shelf))
        case ("PUT", "api/settings"):
            try settingsPIN?.admit(request, access: access)
            var record = try await changeSettings(request.body)
            record.pinRequired = settingsPIN != nil
            return JSONBody.response(record)
        case ("GET", "api/camera-settings"):
            do {
                return JSONBody.response(try await session.cameraSettings().map(\.record))
            } catch {
                throw APIError(error)
            }
        case ("PUT", "api/camera-settings"):
            try settingsPIN?.admit(request, access: access)
            return JSONBody.response(try await setCameraSettings(try JSONBody.object(request.body)))
        case ("POST", "api/settings/sample-key"):
            try settingsPIN?.admit(request, access: access)
            var record = try await changeSettings(by: SettingsRecord(), samplingKey: true)
            record.pinRequired = settingsPIN != nil
            return JSONBody.response(record)
        case ("GET", "api/albums"):
            let shelf = try library()
            do {
                return JSONBody.response(try await shelf.albums())
            } catch {
                throw APIError(error)
            }
        case (_, "api/status"), (_, "api/events"), (_, "api/capture"), (_, "api/actions"), (_, "api/photos"), (_, "api/albums"), (_, "api/settings"),
             (_, "api/camera-settings"):
            throw APIError(405, "\(method) is not allowed on \(request.path)")
        default:
            throw APIError.notFound("there is nothing at \(request.path)")
        }
    }

    /// `/api/photos/ID`, `…/file`, `…/thumbnail`: one photo's record and files, and its deletion.
    private func photoRoute(_ method: String, id: String, rest: [String]) async throws(APIError) -> HTTPResponse {
        switch (method, rest.joined(separator: "/")) {
        case ("GET", ""):
            return JSONBody.response(annotated(try await photo(id).record))
        case ("GET", "qr.svg"):
            let photo = try await photo(id)
            guard let links, let svg = QRCode.svg(address.url + links.path(for: photo.id)) else {
                throw APIError.notFound("photo \(id) has no download link")
            }
            return HTTPResponse(type: "image/svg+xml", bytes: svg, headers: [("Cache-Control", "private, max-age=3600")])
        case ("GET", "file"):
            let photo = try await photo(id)
            return try await file(of: photo, type: photo.mediaType)
        case ("GET", "thumbnail"):
            let photo = try await photo(id)
            guard photo.thumbnailPath != nil else { throw APIError.notFound("photo \(id) has no thumbnail") }
            return try await file(of: photo, thumbnail: true, type: "image/jpeg")
        case ("DELETE", ""):
            let number = try Self.photoNumber(id)
            let shelf = try library()
            do {
                try await shelf.delete(id: number)
            } catch {
                throw APIError(error)
            }
            return JSONBody.response(["deleted": .integer(number)] as JSONValue)
        case (_, ""), (_, "file"), (_, "thumbnail"), (_, "qr.svg"):
            throw APIError(405, "\(method) is not allowed on a photo's \(rest.first ?? "record")")
        default:
            throw APIError.notFound("there is nothing at /api/photos/\(id)/\(rest.joined(separator: "/"))")
        }
    }

    /// A photo, after a countdown (`"countdown": seconds`) and through a review (`"review": true`,
    /// `"timeout": seconds`) when asked: the outcome is then the review's.
    private func capture(_ object: [String: JSONValue]) async throws(APIError) -> HTTPResponse {
        var object = object
        object["action"] = "capture"
        return try await perform(object)
    }

    /// Performs the action a JSON object asks for.
    private func perform(_ object: [String: JSONValue]) async throws(APIError) -> HTTPResponse {
        JSONBody.response(try await outcome(of: object))
    }

    /// What the action a JSON object asks for did, as its JSON object (photos with their links).
    func outcome(of object: [String: JSONValue]) async throws(APIError) -> OutcomeRecord {
        if object["action"]?.string == "print" { return try await print(object) }
        let isBooth = object["action"]?.string == "booth"
        let configuration = await session.configuration
        var action: Action
        do {
            // A booth takes what its request leaves out from the settings.
            action = try await ActionRequest.action(isBooth ? settings.filling(object) : object, image: configuration.image,
                                                    camera: configuration.device, reviewHint: Self.reviewHint)
        } catch {
            throw APIError(error)
        }
        if case .booth(var plan) = action, object["layout"] == nil, case .template = settings.layout {
            plan.layout = settings.layout
            action = .booth(plan)
        }
        // A booth the settings print is refused before its first shot when the printer says it would
        // refuse its picture, so no guest poses for nothing; a printer that says nothing within
        // seconds holds no booth (its print is told as an event later).
        if isBooth, settings.printsBooths, let printing = printDesk?.printing {
            let verdict = OnceAnswer<PrintError?>()
            Task {
                do throws(PrintError) {
                    try await PrintSheet.check(printing.printer, options: PrintOptions(media: printing.media), cuttingStrips: printing.cutsStrips)
                    verdict.give(nil)
                } catch {
                    verdict.give(error)
                }
            }
            Task {
                try? await Task.sleep(for: Self.printerCheckWait)
                verdict.give(nil)
            }
            if let refusal = await verdict.value { throw APIError(503, "\(refusal.message); no photo was taken") }
        }
        let outcome: Outcome
        do {
            outcome = try await sessionOperator.perform(action)
        } catch {
            throw APIError(error)
        }
        if case .boothTaken(_, let composed?) = outcome, let id = composed.libraryPhoto?.id, settings.printsBooths {
            // The booth's picture is kept whatever the printer does, and its answer never waits for
            // a printer: the print goes on beside it, told as events (`printing`, or `print_failed`).
            Task { [self] in
                do throws(APIError) {
                    // The settings' copies, within what the printer may print of one picture.
                    let copies = min(settings.copies, printDesk?.printing.limit ?? 1)
                    _ = try await print(["id": .integer(id), "copies": .integer(Int64(copies))])
                } catch {
                    sessionOperator.tellNotPrinted(error.message)
                }
            }
        }
        return outcome.record.withPhotos(annotated)
    }

    /// `PUT /api/camera-settings`: the DSLR's settings a JSON object names (`{"iso": "800"}`), set
    /// in the order of their names, each checked against what the camera offers; answers them as the camera
    /// then says them. The first refused ends the request, naming the values it takes.
    private func setCameraSettings(_ object: [String: JSONValue]) async throws(APIError) -> [CameraSettingRecord] {
        var changed: [CameraSettingRecord] = []
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            let text: String
            switch value {
            case .string(let words): text = words
            case .integer(let number): text = String(number)
            case .number(let number): text = String(number)
            case .bool(let on): text = on ? "1" : "0"
            default: throw APIError.badRequest("\(name) must be a string, a number or true or false")
            }
            do {
                changed.append(try await session.setCameraSetting(name, to: text).record)
            } catch {
                throw APIError(error)
            }
        }
        return changed
    }

    /// `PUT /api/settings`: the settings a JSON object sets changed, applied to the running
    /// picture, kept, and said back with what may be chosen.
    private func changeSettings(_ body: [UInt8]) async throws(APIError) -> SettingsRecord {
        _ = try JSONBody.object(body)  // an object, its nesting checked
        let change: SettingsRecord
        do {
            change = try WireJSON.decode(SettingsRecord.self, from: body)
        } catch {
            throw APIError.badRequest("the settings are not as /api/settings says them: \(error.reason)")
        }
        return try await changeSettings(by: change)
    }

    /// Changes the settings as `change` says, one change at a time, each from the settings the one
    /// before left. `samplingKey` (`POST /api/settings/sample-key`): the key colour is first
    /// sampled from the camera's picture (the green screen as it is lit), and kept.
    private func changeSettings(by change: SettingsRecord, samplingKey: Bool = false) async throws(APIError) -> SettingsRecord {
        var change = change
        let sessionOperator = self.sessionOperator
        // One change at a time, each from the settings the one before left.
        let pass: FlowGate.Pass
        do {
            pass = try await sessionOperator.gate.enter(.settingsChange)
        } catch {
            throw APIError(error)
        }
        defer { sessionOperator.gate.leave(pass) }
        if samplingKey {
            do {
                if case .screenColor(let colour) = try await sessionOperator.perform(.sampleScreenColor) { change.keyColor = colour.hex }
            } catch {
                throw APIError(error)
            }
        }
        do throws(CaptureError) {
            return try await settings.change(by: change) { resolved throws(CaptureError) in
                do throws(OperatorError) {
                    _ = try await sessionOperator.perform(.adjustImage { resolved.applied(to: $0) })
                } catch {
                    if case .capture(let failure) = error { throw failure }
                    throw CaptureError(.invalidSetting, "the picture could not be changed: \(APIError(error).message)")
                }
            }
        } catch {
            throw APIError(error)
        }
    }

    /// A record with its guest link, when the server makes them.
    private func annotated(_ record: PhotoRecord) -> PhotoRecord {
        links?.annotated(record) ?? record
    }

    /// `GET /p/ID-TAG`: a guest's page of one photo, while its file is there; 404 otherwise, the
    /// same as for a link that is not valid.
    private func guestPage(_ part: String) async throws(APIError) -> HTTPResponse {
        guard let links, let id = links.photo(named: part), let shelf, let photo = try? await shelf.photo(id: id),
              await shelf.file(of: photo) != nil else { throw APIError.notFound("this download link is not valid") }
        // A booth's picture brings its shots and clip: the guest's own, each by a link of its own.
        let parts = ((try? await shelf.parts(of: id)) ?? []).map { (photo: $0, part: String(links.path(for: $0.id).dropFirst("/p/".count))) }
        return HTTPResponse(type: "text/html; charset=utf-8",
                            bytes: Array(GuestPage.html(of: photo, part: part, parts: parts, base: address.url, mails: mailDesk != nil).utf8),
                            headers: [("Cache-Control", "private, max-age=3600")])
    }

    /// `GET /p/ID-TAG/file` (and `…/thumbnail`): a guest's download of one photo (or its
    /// thumbnail); anything else there is 404, the same for all.
    private func guestDownload(_ part: String, thumbnail: Bool) async throws(APIError) -> HTTPResponse {
        let missing = APIError.notFound("this download link is not valid")
        guard let links, let id = links.photo(named: part), let shelf, let photo = try? await shelf.photo(id: id),
              !thumbnail || photo.thumbnailPath != nil else { throw missing }
        let type = thumbnail ? "image/jpeg" : photo.mediaType
        let name = "camctl-\(photo.id)\(thumbnail ? "-thumbnail" : "").\(thumbnail ? "jpg" : URL(fileURLWithPath: photo.path).pathExtension)"
        do {
            return try await file(of: photo, thumbnail: thumbnail, type: type,
                                  headers: [("Content-Disposition", "attachment; filename=\"\(name)\""), ("Cache-Control", "private, max-age=86400")])
        } catch {
            throw missing
        }
    }

    /// `POST /p/ID-TAG/email` `{"address": "…"}`: the picture e-mailed to a guest, as phones open
    /// it (a HEIC as its JPEG rendition); 404 without a mail server or for a link that is not valid.
    private func guestMail(_ part: String, _ object: [String: JSONValue]) async throws(APIError) -> OutcomeRecord {
        let missing = APIError.notFound("this download link is not valid")
        guard let mailDesk else { throw APIError.notFound("this booth sends no mail; download the picture instead") }
        guard let links, let id = links.photo(named: part), let shelf, let photo = try? await shelf.photo(id: id) else { throw missing }
        guard let address = object["address"]?.string else { throw APIError.badRequest("say where to send it: {\"address\": \"name@example.com\"}") }
        // Everything that costs nothing is checked, and the message counted, before the picture is read.
        let recipient = try mailDesk.admit(address, for: photo)
        let picture: (bytes: [UInt8], type: String)
        do {
            picture = try await shelf.shown(photo)
        } catch {
            throw APIError(500, "the picture could not be read: \(error.message)")
        }
        return try await mailDesk.mail(picture.bytes, mediaType: picture.type, of: photo, to: recipient)
    }

    /// `GET /p/ID-TAG/shown.jpg`: a HEIC photo as a phone shows it, its JPEG rendition (made once,
    /// kept in the library); 404 for any other photo, and for a link that is not valid.
    private func guestRendition(_ part: String) async throws(APIError) -> HTTPResponse {
        let missing = APIError.notFound("this download link is not valid")
        guard let links, let id = links.photo(named: part), let shelf, let photo = try? await shelf.photo(id: id) else { throw missing }
        let rendition: HTTPFile?
        do {
            rendition = try await shelf.rendition(of: photo)
        } catch {
            throw APIError(500, "the photo could not be shown as JPEG: \(error.message)")
        }
        guard let rendition else { throw missing }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "private, max-age=86400")], body: .file(rendition))
    }

    /// `{"action": "print", "id": ID, "copies": N}`: the library photo printed on the server's
    /// printer (`serve --printer`), its job's end told as an event.
    private func print(_ object: [String: JSONValue]) async throws(APIError) -> OutcomeRecord {
        guard let printDesk else { throw APIError(409, "this server has no printer; start camctl serve with --printer NAME or ipp://…") }
        let id: Int, copies: Int
        do throws(RequestError) {
            guard let given = try ActionRequest.integer("id", in: object, 1...Int(Int64.max)) else {
                throw RequestError(.badRequest, "print needs \"id\": the photo's number")
            }
            (id, copies) = (given, try ActionRequest.integer("copies", in: object, 1...printDesk.printing.limit) ?? 1)
        } catch {
            throw APIError(error)
        }
        let photo = try await self.photo(String(id))
        let shelf = try library()
        // A HEIC as its JPEG rendition: what every printer, and the raster made for one that takes no JPEG, starts from.
        let picture: (bytes: [UInt8], type: String)
        do {
            picture = try await shelf.shown(photo)
        } catch {
            throw APIError(404, "photo \(id)'s file cannot be read")
        }
        return try await printDesk.print(photo, picture, copies: copies, counting: shelf, through: sessionOperator)
    }

    /// `{"action": "photos", "after": ID, "limit": N}` from a fleet's controller: the library's
    /// photos with ids above `after` (0), oldest first, at most `limit` (50), each with its file's
    /// SHA-256 and its download links (`url`, `thumbnail_url`) under `base`, and whether more follow.
    func listing(_ object: [String: JSONValue], base: String) async throws(APIError) -> OutcomeRecord {
        let after: Int, limit: Int
        do {
            after = try ActionRequest.integer("after", in: object, 0...Int(Int64.max)) ?? 0
            limit = try ActionRequest.integer("limit", in: object, 1...Self.maximumPage) ?? 50
        } catch {
            throw APIError(error)
        }
        let shelf = try library()
        guard let links else { throw APIError(404, "this server keeps no library") }
        do {
            let page = try await shelf.checksummed(after: Int64(after), limit: limit)
            let photos = page.photos.map { photo, sha256 in
                var record = photo.record
                (record.sha256, record.url) = (sha256, base + links.path(for: photo.id) + "/file")
                if photo.thumbnailPath != nil { record.thumbnailURL = base + links.path(for: photo.id) + "/thumbnail" }
                return record
            }
            return .listing(photos: photos, more: page.more)
        } catch {
            throw APIError(error)
        }
    }

    /// The tile of a rig page: the frame held now, at most ``tileSide`` pixels on its longer side.
    private func tile() async throws(APIError) -> HTTPResponse {
        do {
            return HTTPResponse(type: "image/jpeg", bytes: try await session.photoOutput.snapshot(quality: 70, maximumSide: Self.tileSide),
                                headers: [("Cache-Control", "no-store")])
        } catch {
            throw APIError(error)
        }
    }

    /// The longer side of a rig page's tile.
    static let tileSide = 320

    /// What the server says of itself at `/api/status` (and a fleet node in its status).
    func status() async -> StatusRecord {
        let configuration = await session.configuration
        let live = session.liveJPEGOutput
        var status = StatusRecord()
        (status.device, status.deviceID, status.status) = (configuration.device.name, configuration.device.id, "\(await session.status)")
        status.format = await session.activeFormat.map { FormatRecord(width: $0.width, height: $0.height, fps: $0.frameRate.doubleValue) }
        (status.filter, status.zoom) = (configuration.image.filters.map(\.rawValue).joined(separator: "+"), configuration.image.zoom)
        (status.viewers, status.eventClients) = (live.receiverCount, events.clientCount)
        (status.framesEncoded, status.framesPassedThrough) = (live.encodedFrameCount, live.passedThroughFrameCount)
        (status.h264FramesEncoded, status.cameraFrames) = (session.liveH264Output.encodedFrameCount, session.cameraFrameCount)
        status.tokenRequired = !access.isOnLoopback
        status.printer = printDesk.map { $0.printing.printer ?? "default" }
        status.guestWarning = address.guestWarning
        status.mail = mailDesk != nil
        if let census = try? await shelf?.census() { (status.photos, status.freeBytes) = census }
        return status
    }

    private func library() throws(APIError) -> LibraryShelf {
        guard let shelf else { throw APIError(404, "this server keeps no library") }
        return shelf
    }

    private func photo(_ id: String) async throws(APIError) -> LibraryPhoto {
        let number = try Self.photoNumber(id)
        let shelf = try library()
        do {
            return try await shelf.photo(id: number)
        } catch {
            throw APIError(error)
        }
    }

    private static func photoNumber(_ id: String) throws(APIError) -> Int64 {
        guard let number = Int64(id), number > 0 else { throw APIError.notFound("there is no photo \(id)") }
        return number
    }

    /// A query's yes or no: `true` or `false`, absent for no.
    private static func flag(_ text: String?, name: String) throws(APIError) -> Bool {
        guard let text else { return false }
        guard let value = Bool(text) else { throw APIError.badRequest("\(name) must be true or false") }
        return value
    }

    private static func integer(_ text: String?, name: String) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let number = Int(text), number >= 0 else { throw APIError.badRequest("\(name) must be a whole number from 0") }
        return number
    }

    /// A library file sent from disk as it is read (a movie is never whole in memory).
    /// A photo's file or thumbnail as the response's body, read from the library as it reads its own files.
    private func file(of photo: LibraryPhoto, thumbnail: Bool = false, type: String,
                      headers: [(name: String, value: String)] = [("Cache-Control", "private, max-age=3600")]) async throws(APIError) -> HTTPResponse {
        guard let file = await (try library()).file(of: photo, thumbnail: thumbnail) else {
            throw APIError.notFound("the photo's file is missing from the library")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", type)] + headers, body: .file(file))
    }
}
