extension Sequence {
    /// The elements transformed one after another by an asynchronous `transform`.
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
