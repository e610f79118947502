import Checksums
import HTTPServer
import Synchronization

/// The PIN the booth's settings are behind (`serve --settings-pin-file FILE`), so a guest at a
/// screen that shows the owner's page cannot change the booth: a change carries the PIN in
/// `X-Camctl-PIN`, or the access token in `Authorization: Bearer` (a program of the owner's). After
/// ``allowedMisses`` wrong PINs in a row, every PIN is refused for ``lockout``, so four digits
/// cannot be tried one after another.
public final class SettingsPIN: Sendable {
    private let pin: String
    private let misses = Mutex<(count: Int, lockedUntil: ContinuousClock.Instant?)>((0, nil))

    static let allowedMisses = 5
    static let lockout = Duration.seconds(60)
    /// The header a page's change carries the PIN in.
    static let header = "x-camctl-pin"

    init(_ pin: String) {
        self.pin = pin
    }

    /// Whether a PIN of 4 to 12 digits: what the owner's file may hold.
    public static func isPIN(_ text: String) -> Bool {
        (4...12).contains(text.count) && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
    }

    /// Lets `request` change the settings, or says why not.
    ///
    /// - Throws: ``APIError``: 403 without the right PIN, 429 while wrong ones have locked it.
    func admit(_ request: HTTPRequest, access: AccessControl) throws(APIError) {
        if access.carriesBearerToken(request) { return }
        let now = ContinuousClock.now
        let given = request.headers[Self.header]
        let refusal: APIError? = misses.withLock { misses in
            if let until = misses.lockedUntil, now < until {
                return APIError(429, "too many wrong PINs; the settings open to the PIN again in a minute")
            }
            guard let given else { return APIError(403, "the booth's settings need its PIN; type it in the page's settings") }
            guard HMAC.matches(given, pin) else {
                misses.count += 1
                if misses.count >= Self.allowedMisses { (misses.count, misses.lockedUntil) = (0, now + Self.lockout) }
                return APIError(403, "that is not the booth's PIN")
            }
            misses = (0, nil)
            return nil
        }
        if let refusal { throw refusal }
    }
}
