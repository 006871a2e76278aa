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

    /// The phases and how many numbers each takes after its name, at most.
    private static let phases: [String: Int] = [
        "logins": 2, "signup": 1, "operations": 1, "bound": 1, "bounds": 1,
        "hashes": 0, "passkey": 0, "factor": 0, "google": 0, "memory": 0,
    ]

    /// `nil` for arguments a phase takes; `""` for a request for help; otherwise why not.
    static func refusal(of arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        if first == "--help" || first == "-h" || first == "help" { return "" }
        if first == "target" {
            guard arguments.count >= 3, Double(arguments[2]) != nil, arguments.dropFirst(3).allSatisfy({ Int32($0) != nil }) else {
                return "target needs a URL, seconds and process ids (--help for usage)"
            }
            return nil
        }
        if Double(first) != nil { return arguments.count == 1 ? nil : "the whole benchmark takes one number, seconds (--help for usage)" }
        guard let numbers = phases[first] else { return "unknown phase '\(first)' (--help for usage)" }
        let rest = Array(arguments.dropFirst())
        let rounds = first == "logins" && rest.count == 2 ? Int(rest[1]).map { $0 > 0 } ?? false : true
        guard rest.count <= numbers, rest.allSatisfy({ Double($0) != nil }), rounds else {
            return "\(first) takes at most \(numbers) number\(numbers == 1 ? "" : "s") (--help for usage)"
        }
        return nil
    }
}
