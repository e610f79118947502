import Foundation

/// A temporary folder, removed when the test ends.
public final class TemporaryFolder {
    /// The folder.
    public let url: URL

    /// Makes a new, empty folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("camctl-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
