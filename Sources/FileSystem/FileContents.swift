import Glibc

/// What a file is written with when its bytes are not in one array: a writer that hands its
/// pieces to a descriptor as they are (a frame's planes straight from their buffer), so no
/// copy is made to write them.
public protocol FileContents: Sendable {
    /// Writes every byte to `descriptor`; returns 0, or the `errno` of the failure.
    func write(to descriptor: Int32) -> Int32
}

extension Array: FileContents where Element == UInt8 {
    public func write(to descriptor: Int32) -> Int32 {
        withUnsafeBytes { DurableFile.writeAll($0, to: descriptor) }
    }
}
