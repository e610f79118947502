import Foundation
import HEIF
import TestSupport
import Testing

/// Movies read box by box: their size, frames and length, and how much of a cut file is whole;
/// damaged and hostile movies are refused with a sentence, never a trap or a hang.
@Suite("MP4 movies read, cut ones to their last whole fragment", .startsPrograms)
struct MovieFileTests {
    /// A 2 s 320x240 movie at 30 fps in fragments of half a second, and the same unfragmented.
    private static let fragmentedMade = Task { try await MovieFixture.movie(fragmentMilliseconds: 500) }
    private static let plainMade = Task { try await MovieFixture.movie(fragmentMilliseconds: 0) }
    /// A movie in fragments of half a second, and one unfragmented: a failure to make them fails the test that asks.
    static var fragmented: [UInt8] { get async throws { try await fragmentedMade.value } }
    static var plain: [UInt8] { get async throws { try await plainMade.value } }

    @Test("A whole movie, fragmented or not: its size, 60 frames and 2 s, every byte whole")
    func wholeMovies() async throws {
        for bytes in [try await Self.fragmented, try await Self.plain] {
            let movie = try MovieFile(data: bytes)
            #expect(movie.width == 320 && movie.height == 240)
            #expect(movie.frameCount == 60 && abs(movie.duration - 2) < 1e-9, "\(movie)")
            #expect(movie.wholeLength == bytes.count)
        }
    }

    @Test("A fragmented movie cut anywhere keeps its whole fragments: never more frames than were whole, never a byte past the cut")
    func cuts() async throws {
        let bytes = try await Self.fragmented
        var lastFrames = 0
        for length in Array(stride(from: 0, to: bytes.count, by: 97)) + [bytes.count] {
            guard let movie = try? MovieFile(data: Array(bytes.prefix(length))) else { continue }
            #expect(movie.wholeLength <= length)
            #expect(movie.frameCount >= lastFrames && movie.frameCount % 15 == 0, "\(length): \(movie.frameCount)")
            lastFrames = movie.frameCount
            // What is whole reads again as the same movie, whole.
            let kept = try MovieFile(data: Array(bytes.prefix(movie.wholeLength)))
            #expect(kept.frameCount == movie.frameCount && kept.wholeLength == movie.wholeLength)
        }
        #expect(lastFrames == 60)
    }

    /// A box: its size, its type and its body.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(8 + body.count) + Array(type.utf8) + body }
    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// A movie box of one 64x48 video track whose sample table has `entries` (count, delta).
    static func movie(samples entries: [(Int, Int)]) -> [UInt8] {
        let tkhd = box("tkhd", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + be32(1) + [UInt8](repeating: 0, count: 4 + 4 + 8 + 8 + 36)
                       + be32(64 << 16) + be32(48 << 16))
        let mdhd = box("mdhd", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + be32(30) + be32(0) + [0, 0, 0, 0])
        let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 13))
        let stts = box("stts", [0, 0, 0, 0] + be32(entries.count) + entries.flatMap { be32($0.0) + be32($0.1) })
        let minf = box("minf", box("stbl", stts))
        return box("ftyp", Array("isom".utf8) + be32(0)) + box("moov", box("trak", tkhd + box("mdia", mdhd + hdlr + minf)))
    }

    @Test("A sample table read to its sums: frames and length, and sums past what a movie holds refused")
    func sampleTableSums() async throws {
        let movie = try MovieFile(data: Self.movie(samples: [(30, 1), (15, 2)]))
        #expect(movie.width == 64 && movie.height == 48 && movie.frameCount == 45 && movie.duration == 2)
        #expect(throws: HEIFError.self) { try MovieFile(data: Self.movie(samples: [(0xFFFF_FFFF, 0xFFFF_FFFF)])) }
        #expect(throws: HEIFError.self) { try MovieFile(data: Self.movie(samples: [(0x7FFF_FFFF, 0xFFFF_FFFF), (0x7FFF_FFFF, 0xFFFF_FFFF)])) }
        #expect(throws: HEIFError.self) { try MovieFile(data: Self.movie(samples: []).dropLast(3) + [0]) }
    }

    @Test("Files that are not movies, and 3000 damaged ones, are refused or read within their bytes")
    func hostile() async throws {
        #expect(throws: HEIFError.self) { try MovieFile(data: []) }
        #expect(throws: HEIFError.self) { try MovieFile(data: Array("not a movie at all, just text".utf8)) }
        // A box whose size is smaller than its header, and a huge 64-bit size.
        #expect(throws: HEIFError.self) { try MovieFile(data: [0, 0, 0, 4] + Array("ftyp".utf8) + [UInt8](repeating: 0, count: 16)) }
        _ = try? MovieFile(data: [0, 0, 0, 1] + Array("ftyp".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        var generator = SystemRandomNumberGenerator()
        let (fragmented, plain) = (try await Self.fragmented, try await Self.plain)
        for round in 0..<3000 {
            var bytes = round % 2 == 0 ? fragmented : plain
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let place = Int.random(in: 0..<min(bytes.count, 2000), using: &generator)  // the headers
                bytes[place] = UInt8.random(in: 0...255, using: &generator)
            }
            if let movie = try? MovieFile(data: bytes) {
                #expect(movie.wholeLength <= bytes.count && movie.frameCount >= 0 && movie.duration >= 0)
            }
        }
    }
}
