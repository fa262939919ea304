/// Why a regular expression cannot be compiled exactly.
struct RegexError: Error, Sendable {
    let reason: String
}
