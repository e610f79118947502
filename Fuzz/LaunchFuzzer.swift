// libFuzzer entry for the reader of plain gst-launch descriptions: every input must be read or
// refused (left to gst_parse), never crash or hang, and what is read must hold together: every
// link joins two elements read, every element has a factory, names are unique.
// Built and run by Fuzz/run launch.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLaunch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let plain = PlainLaunch(text) else { return 0 }
    precondition(!plain.elements.isEmpty, "a description read without elements")
    for link in plain.links {
        precondition(plain.elements.indices.contains(link.from) && plain.elements.indices.contains(link.to), "a link to nothing")
        precondition(link.caps.map { !$0.isEmpty && !$0.contains("!") } ?? true, "caps read wrong")
    }
    for element in plain.elements {
        precondition(!element.factory.isEmpty && element.properties.allSatisfy { !$0.name.isEmpty && !$0.value.contains("\0") },
                     "an element read wrong")
    }
    let names = plain.elements.compactMap(\.name)
    precondition(Set(names).count == names.count, "two elements of one name")
    return 0
}
