/// The command line of camctl-bench.
struct BenchmarkOptions {
    var runs = 5
    var output = "BENCHMARKS.md"
    /// How long the memory and CPU rows run the preview.
    var previewSeconds = 60
    /// How long the soak runs the preview.
    var soakMinutes = 10
    /// The groups asked for with --only; empty means all.
    var groups: Set<String> = []

    /// Whether a group runs.
    func includes(_ group: String) -> Bool { groups.isEmpty || groups.contains(group) }

    static func parse(_ arguments: some Sequence<String>) -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--runs": options.runs = iterator.next().flatMap(Int.init).map { max(1, $0) } ?? options.runs
            case "--output": options.output = iterator.next() ?? options.output
            case "--only": if let group = iterator.next() { options.groups.insert(group) }
            case "--preview-seconds": options.previewSeconds = iterator.next().flatMap(Int.init).map { max(5, $0) } ?? options.previewSeconds
            case "--soak-minutes": options.soakMinutes = iterator.next().flatMap(Int.init).map { max(2, $0) } ?? options.soakMinutes
            default: break
            }
        }
        return options
    }
}
