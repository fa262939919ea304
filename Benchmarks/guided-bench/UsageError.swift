/// Why a benchmark cannot run: its command line is wrong.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// Reads a command line of `--option value` pairs, calling `body` with each.
func forEachOption(in arguments: [String], _ body: (_ option: String, _ value: String) throws -> Void) throws {
    var remaining = arguments[...]
    while let option = remaining.popFirst() {
        guard let value = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
        try body(option, value)
    }
}
