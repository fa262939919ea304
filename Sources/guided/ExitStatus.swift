/// The exit statuses of `guided`.
enum ExitStatus: Int32 {
    /// The command did what was asked.
    case success = 0
    /// The input was invalid (for `parse`: not JSON).
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// A file could not be read.
    case unreadableInput = 3
    /// The model could not be found or fetched.
    case modelUnavailable = 4
    /// The schema uses a keyword or guide that cannot be enforced.
    case unsupportedSchema = 5
    /// The response could not be completed: the token budget or the context ran out.
    case generationFailed = 6
}
