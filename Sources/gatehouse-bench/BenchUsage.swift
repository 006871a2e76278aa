/// What `gatehouse-bench` takes: the whole benchmark with an optional number of seconds per
/// load phase, or one phase by name with its own optional numbers.
///
/// Anything else is refused in one line before any phase starts: a mistyped phase would
/// otherwise run the whole benchmark, a quarter of an hour of both cores.
enum BenchUsage {
    static let text = """
        usage: gatehouse-bench [seconds]            the whole benchmark (8 s per load phase)
               gatehouse-bench logins [seconds] [rounds]
               gatehouse-bench signup|operations [seconds]
               gatehouse-bench bound|bounds [seconds]
               gatehouse-bench hashes|passkey|factor|google|memory
               gatehouse-bench target URL SECONDS [PID ...]
        """

    /// Each phase that runs alone, and the numbers it takes after its name.
    private static let phases: [String: [String]] = [
        "logins": ["seconds", "rounds"], "signup": ["seconds"], "operations": ["seconds"], "bound": ["seconds"], "bounds": ["seconds"],
        "hashes": [], "passkey": [], "factor": [], "google": [], "memory": [],
    ]

    /// What to do with the command line's arguments.
    enum Verdict: Equatable {
        /// A phase, or the whole benchmark, takes them.
        case run
        /// The usage was asked for.
        case help
        /// Why not, in one line.
        case refused(String)
    }

    /// What to do with `arguments`: run, print the usage, or refuse them.
    static func verdict(on arguments: [String]) -> Verdict {
        if ["--help", "-h", "help"].contains(arguments.first) { return .help }
        return refusal(of: arguments).map(Verdict.refused) ?? .run
    }

    /// `nil` for arguments a phase takes; otherwise why not, in one line.
    private static func refusal(of arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        if first == "target" {
            let pids = arguments.dropFirst(3)
            guard arguments.count >= 3, (Double(arguments[2]) ?? 0) > 0, pids.allSatisfy({ Int32($0) != nil }) else {
                return "usage: gatehouse-bench target URL SECONDS [PID ...]"
            }
            return nil
        }
        if let seconds = Double(first) { return arguments.count == 1 && seconds > 0 ? nil : "usage: gatehouse-bench [seconds]" }
        guard let names = phases[first] else { return "unknown phase '\(first)' (gatehouse-bench --help lists them)" }
        let numbers = Array(arguments.dropFirst())
        let positive = numbers.allSatisfy { Double($0).map { $0 > 0 } ?? false }
        let whole = names.count < 2 || numbers.count < 2 || Int(numbers[1]) != nil  // rounds
        guard numbers.count <= names.count, positive, whole else {
            return "usage: gatehouse-bench " + ([first] + names.map { "[\($0)]" }).joined(separator: " ")
        }
        return nil
    }
}
