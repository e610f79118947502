/// How far a collection of a fleet's photos has come: photos collected now and found there
/// already, against those the nodes have listed so far, the bytes collected and the time taken.
public struct CollectionProgress: Sendable, Equatable {
    public var collected = 0
    public var had = 0
    public var listed = 0
    public var bytes = 0
    public var seconds = 0.0

    public init() {}
}
