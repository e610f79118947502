import FoundationEssentials
import Glibc
import HTTPServer
import JSON
import OperatorWire

/// JSON request and response bodies.
enum JSONBody {
    /// A response carrying `record` as JSON.
    static func response(_ record: some Encodable, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, type: "application/json", bytes: WireJSON.bytes(record), headers: [("Cache-Control", "no-store")])
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
