import CMicroHTTPD
import Glibc

// libmicrohttpd's callbacks: a request is read (headers, then its body in pieces), handed to the
// handler, and its response queued; a streamed response is read from its HTTPStream.

/// What the server keeps of one request between the calls for its body.
private final class RequestState {
    var body: [UInt8] = []
    var isTooLarge = false
    var isAnswered = false
}

/// The reading end of a streamed response, kept by libmicrohttpd until the response is done.
private final class StreamReader {
    let stream: HTTPStream
    let server: ServerContext

    init(stream: HTTPStream, server: ServerContext) {
        (self.stream, self.server) = (stream, server)
    }
}

let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, requestContext in
    guard let context, let connection, let requestContext, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
    guard let stored = requestContext.pointee else {
        // The headers are in: keep state for the body, and refuse an announced body over the limit at once.
        let state = RequestState()
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        server.watch.headersCame(on: connection)
        if value(of: "Transfer-Encoding", in: connection, kind: .HEADER_KIND)?.lowercased().contains("chunked") == true {
            // A body of no stated length could go on for ever: refused before any of it is read.
            state.isAnswered = true
            return queue(lengthRequired, on: connection, server: server)
        }
        if let length = value(of: "Content-Length", in: connection, kind: .HEADER_KIND), let bytes = Int(length),
           bytes > server.limits.bodyBytes {
            state.isAnswered = true
            return queue(tooLarge(server), on: connection, server: server)
        }
        return MHD_Result.YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        guard !state.isAnswered, !state.isTooLarge, let upload else { return MHD_Result.YES }
        if state.body.count + count > server.limits.bodyBytes {
            // Past its stated length's check only if the length lied: the rest is let go.
            state.isTooLarge = true
            state.body = []
        } else {
            state.body += UnsafeRawBufferPointer(start: upload, count: count)
        }
        return MHD_Result.YES
    }
    guard !state.isAnswered else { return MHD_Result.YES }
    state.isAnswered = true
    if state.isTooLarge { return queue(tooLarge(server), on: connection, server: server) }
    server.watch.handling(connection)
    let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                              query: values(in: connection, kind: .GET_ARGUMENT_KIND),
                              headers: values(in: connection, kind: .HEADER_KIND), body: state.body)
    state.body = []
    return queue(server.respond(to: request, on: connection), on: connection, server: server)
}

let requestCompleted: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
    if let context, let connection {
        Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().watch.requestEnded(on: connection)
    }
    guard let requestContext, let stored = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(stored).release()
    requestContext.pointee = nil
}

let connectionNotified: MHD_NotifyConnectionCallback = { context, connection, _, event in
    guard let context, let connection else { return }
    let watch = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().watch
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        watch.opened(connection, socket: withUnsafePointer(to: MicroHTTPD.functions) { camctl_http_connection_socket($0, connection) })
    default:
        watch.closed(connection)
    }
}

private let streamRead: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return -2 }  // the end, with an error
    let reader = Unmanaged<StreamReader>.fromOpaque(context).takeUnretainedValue()
    return reader.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) ?? -1  // the end
}

private let streamDone: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let reader = Unmanaged<StreamReader>.fromOpaque(context).takeRetainedValue()
    reader.stream.close()
    reader.server.forget(reader.stream)
}

// Written out here, below the wire's types, as the error record every transport sends.
private let lengthRequired = HTTPResponse(
    status: 411, type: "application/json",
    bytes: Array(#"{"error":"the request's body must say its length (Content-Length); a chunked body is not taken","event":"error","id":null,"status":411,"version":1}"#.utf8))

private func tooLarge(_ server: ServerContext) -> HTTPResponse {
    HTTPResponse(status: 413, type: "application/json",
                 bytes: Array(#"{"error":"the request's body is larger than \#(server.limits.bodyBytes) bytes","event":"error","id":null,"status":413,"version":1}"#.utf8))
}

/// Queues a response on the connection.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, server: ServerContext) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        made = bytes.withUnsafeBytes { body in
            MicroHTTPD.functions.create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        guard server.track(stream) else { return queue(HTTPResponse(status: 503), on: connection, server: server) }
        let reader = Unmanaged.passRetained(StreamReader(stream: stream, server: server))
        let unknownSize = UInt64.max
        made = MicroHTTPD.functions.create_response_from_callback(unknownSize, 64 * 1024, streamRead, reader.toOpaque(), streamDone)
        if made == nil {
            reader.release()
            server.forget(stream)
        }
    case .file(let file):
        // The server closes the descriptor once the response is freed, sent or not.
        guard let descriptor = file.take() else { return queue(HTTPResponse(status: 500), on: connection, server: server) }
        made = MicroHTTPD.functions.create_response_from_fd(file.size, descriptor)
        if made == nil { close(descriptor) }
    }
    guard let made else { return MHD_Result.NO }
    defer { MicroHTTPD.functions.destroy_response(made) }
    for (name, value) in response.headers { _ = MicroHTTPD.functions.add_response_header(made, name, value) }
    return MicroHTTPD.functions.queue_response(connection, UInt32(response.status), made)
}

/// A header's or query argument's value.
private func value(of name: String, in connection: OpaquePointer, kind: MHD_ValueKind) -> String? {
    MicroHTTPD.functions.lookup_connection_value(connection, kind, name).map { String(cString: $0) }
}

/// All headers, or all query arguments, of the request.
private func values(in connection: OpaquePointer, kind: MHD_ValueKind) -> [String: String] {
    final class Collected {
        var values: [String: String] = [:]
    }
    let collected = Collected()
    withExtendedLifetime(collected) {
        _ = MicroHTTPD.functions.get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return MHD_Result.YES }
            Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
            return MHD_Result.YES
        }, Unmanaged.passUnretained(collected).toOpaque())
    }
    return collected.values
}
