// libFuzzer entry point for composition templates: a template file's JSON, every key, number and
// picture name checked (CompositionTemplate). Built by Fuzz/run with the JSON reader compiled in.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplates(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let template = try? CompositionTemplate(json: bytes) else { return 0 }
    // Whatever passed is within its documented ranges, and names only pictures inside its folder.
    precondition((16...CompositionTemplate.maximumSide).contains(template.width) && (16...CompositionTemplate.maximumSide).contains(template.height))
    precondition(template.width * template.height <= CompositionTemplate.maximumPixels)
    precondition((1...CompositionTemplate.maximumSlots).contains(template.slots.count))
    for slot in template.slots {
        precondition(slot.width >= 16 && slot.height >= 16 && abs(slot.rotation) <= 360)
        precondition((0..<Double(template.width)).contains(slot.center.x) && (0..<Double(template.height)).contains(slot.center.y))
    }
    for name in template.pictures {
        precondition(!name.hasPrefix("/") && !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0.hasPrefix(".") })
    }
    for text in template.texts {
        precondition(CompositionTemplate.isFontFamily(text.font) && (4...1000).contains(text.size))
    }
    return 0
}
