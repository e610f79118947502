import CameraKit
import Formatting
import JSON

/// `camctl filters`: the named filters `--filter` and description files accept.
struct FiltersCommand: Subcommand {
    static let name = "filters"
    static let synopsis = "camctl filters  [--json]"
    static let summary = "list the filters --filter accepts"
    static let help = """
        Lists the filters by name with what each does. Use one with --filter NAME on preview,
        capture, booth and run, or chain them with +, such as --filter mono+warm; a running preview
        goes to the next filter with the f key. --json prints one JSON object per filter.
        """
    static let options: [ParsedArguments.Option] = [.init(name: "--json", value: nil)]

    let printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        printsJSON = arguments.flag("--json")
    }

    func run() async throws(CommandFailure) {
        let width = ImageFilter.allCases.map(\.rawValue.count).max() ?? 0
        for filter in ImageFilter.allCases {
            if printsJSON {
                try Console.json(["name": .string(filter.rawValue), "summary": .string(filter.summary)] as JSONValue)
            } else {
                try Console.result(filter.rawValue.padded(to: width + 2) + filter.summary)
            }
        }
    }
}
