import Foundation
import GStreamer
import TestSupport
import Testing

@Suite("Tag lists", .hangGuard(minutes: 3))
struct TagListTests {
    @Test("Tags set are read back by name")
    func setAndRead() async throws {
        var tags = try TagList()
        try tags.set(TagList.Tag.deviceManufacturer, .string("camctl"))
        try tags.set(TagList.Tag.deviceModel, .string("Test Camera"))
        try tags.set(TagList.Tag.imageOrientation, .string("rotate-90"))
        try tags.set(TagList.Tag.applicationName, .string("camctl 0.1.0"))
        try tags.set(TagList.Tag.dateTime, Date(timeIntervalSince1970: 1_790_000_000))
        #expect(tags[TagList.Tag.deviceModel] == .string("Test Camera"))
        #expect(tags[TagList.Tag.description] == nil)

        #expect(tags[TagList.Tag.imageOrientation] == .string("rotate-90"))
        #expect(tags[TagList.Tag.applicationName] == .string("camctl 0.1.0"))
        #expect(tags[TagList.Tag.dateTime] != nil)
    }

    @Test("Tag lists are values: a copy changes alone")
    func copyOnWrite() async throws {
        var original = try TagList()
        try original.set(TagList.Tag.deviceModel, .string("A"))
        var copy = original
        try copy.set(TagList.Tag.deviceModel, .string("B"))
        #expect(original[TagList.Tag.deviceModel] == .string("A"))
        #expect(copy[TagList.Tag.deviceModel] == .string("B"))
    }

    @Test("Unknown tags and wrong types are refused")
    func badTags() async throws {
        var tags = try TagList()
        #expect(throws: GStreamerError.self) { try tags.set("no-such-tag", .string("x")) }
        #expect(throws: GStreamerError.self) { try tags.set(TagList.Tag.digitalZoomRatio, .bool(true)) }
        #expect(throws: GStreamerError.self) { try tags.set(TagList.Tag.deviceModel, Date()) }
        try tags.set(TagList.Tag.digitalZoomRatio, .double(2))
        #expect(tags[TagList.Tag.digitalZoomRatio] == .double(2))
    }
}
