// libFuzzer entry for e-mail addresses as a guest types them: every input is taken or refused,
// never a crash or a hang, and what is taken is plain ASCII with one @ and no space, comma, angle
// bracket, quote or line break, so it can add no header or recipient. Built and run by Fuzz/run mail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMail(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let address = MailAddress(text) else { return 0 }
    let bytes = Array(address.text.utf8)
    precondition(bytes.count <= MailAddress.longest, "an address longer than the longest taken")
    precondition(bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "an address with a space, a control character or a byte beyond ASCII")
    precondition(bytes.filter { $0 == UInt8(ascii: "@") }.count == 1, "an address without exactly one @")
    precondition(!bytes.contains { Array(",;<>\"\\()[]:".utf8).contains($0) }, "an address with a character that separates or quotes")
    return 0
}
