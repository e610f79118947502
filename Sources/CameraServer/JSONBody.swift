import FoundationEssentials
import Glibc
import HTTPServer
import JSON

/// JSON request and response bodies.
enum JSONBody {
    /// A response carrying `object` (a dictionary or an array) as JSON.
    static func response(_ object: Any, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, type: "application/json", bytes: bytes(object), headers: [("Cache-Control", "no-store")])
    }

    /// `object` as one line of JSON, keys sorted.
    static func bytes(_ object: Any) -> [UInt8] {
        JSONValue.text(of: object) ?? Array("{}".utf8)
    }

    /// A request's body as a JSON object; an empty body is an empty object.
    static func object(_ body: [UInt8]) throws(APIError) -> [String: JSONValue] {
        guard !body.isEmpty else { return [:] }
        guard let object = (try? JSONValue(parsing: body))?.object else {
            throw APIError.badRequest("the request's body is not a JSON object")
        }
        return object
    }
}
