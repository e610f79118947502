import Dispatch

extension Printer {
    /// Follows job `id` until it ends, asking the printer off Swift's shared threads a few times
    /// a second: `nil` once it is printed, else why it was not (failed, the printer stopped, the
    /// printer not answering, or `limit` passed).
    public func failure(ofJob id: Int32, within limit: Duration) async -> String? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let state = await withCheckedContinuation { continuation in
                Self.queue.async { continuation.resume(returning: Result { () throws(PrintError) in try self.state(ofJob: id) }) }
            }
            switch state {
            case .failure(let error): return error.message
            case .success(.completed): return nil
            case .success(.failed(let reason)): return reason
            case .success(.pending(let reasons)) where reasons.contains("printer-stopped"):
                return "\(name) is stopped, and holds the job (\(id)) until it is started again"
            case .success(.pending), .success(.processing):
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        return "\(name) did not print the job (\(id)) within \(limit)"
    }

    /// Where printers are asked how their jobs go.
    private static let queue = DispatchQueue(label: "camctl.printing.follow")
}
