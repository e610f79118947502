import Foundation
import GStreamer
import TestSupport
import Testing

@Suite("Tag lists and EXIF", .timeLimit(.minutes(3)))
struct TagListTests {
    @Test("Tags become an EXIF block that exiftool reads")
    func exifFromTags() throws {
        var tags = try TagList()
        try tags.set(TagList.Tag.deviceManufacturer, .string("camctl"))
        try tags.set(TagList.Tag.deviceModel, .string("Test Camera"))
        try tags.set(TagList.Tag.imageOrientation, .string("rotate-90"))
        try tags.set(TagList.Tag.applicationName, .string("camctl 0.1.0"))
        let captured = Date(timeIntervalSince1970: 1_790_000_000)
        try tags.set(TagList.Tag.dateTime, captured)
        #expect(tags[TagList.Tag.deviceModel] == .string("Test Camera"))
        #expect(tags[TagList.Tag.description] == nil)

        let exif = tags.exifData()
        #expect(Array(exif.prefix(4)) == [0x49, 0x49, 0x2A, 0x00], "a little-endian TIFF header")

        let folder = try TemporaryFolder()
        let file = folder.path("exif.tif")
        try Data(exif).write(to: URL(fileURLWithPath: file))
        let result = try ChildProcess.run("exiftool", ["-s", "-Make", "-Model", "-Orientation", "-Software", "-DateTimeOriginal", file])
        #expect(result.status == 0)
        let fields = Dictionary(uniqueKeysWithValues: result.standardOutput.split(separator: "\n").map { line in
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        })
        #expect(fields["Make"] == "camctl")
        #expect(fields["Model"] == "Test Camera")
        #expect(fields["Orientation"] == "Rotate 90 CW")
        #expect(fields["Software"] == "camctl 0.1.0")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        formatter.timeZone = .current
        #expect(fields["DateTimeOriginal"] == formatter.string(from: captured))
    }

    @Test("Tag lists are values: a copy changes alone")
    func copyOnWrite() throws {
        var original = try TagList()
        try original.set(TagList.Tag.deviceModel, .string("A"))
        var copy = original
        try copy.set(TagList.Tag.deviceModel, .string("B"))
        #expect(original[TagList.Tag.deviceModel] == .string("A"))
        #expect(copy[TagList.Tag.deviceModel] == .string("B"))
    }

    @Test("Unknown tags and wrong types are refused")
    func badTags() throws {
        var tags = try TagList()
        #expect(throws: GStreamerError.self) { try tags.set("no-such-tag", .string("x")) }
        #expect(throws: GStreamerError.self) { try tags.set(TagList.Tag.digitalZoomRatio, .bool(true)) }
        #expect(throws: GStreamerError.self) { try tags.set(TagList.Tag.deviceModel, Date()) }
        try tags.set(TagList.Tag.digitalZoomRatio, .double(2))
        #expect(tags[TagList.Tag.digitalZoomRatio] == .double(2))
    }
}
