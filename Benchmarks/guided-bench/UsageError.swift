/// Why a benchmark cannot run: its command line is wrong.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}
