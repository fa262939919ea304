/// An error that ends the command with a message and an exit status.
enum CommandError: Error {
    /// The command line is wrong.
    case usage(String)
    /// The input could not be read.
    case unreadable(String)
    /// The input is invalid.
    case invalidInput(String)
    /// The model could not be found or fetched.
    case modelUnavailable(String)
    /// The schema uses something that cannot be enforced.
    case unsupportedSchema(String)
    /// The model's output could not be completed (token budget, context size).
    case generationFailed(String)

    var message: String {
        switch self {
        case .usage(let text), .unreadable(let text), .invalidInput(let text), .modelUnavailable(let text), .unsupportedSchema(let text),
            .generationFailed(let text):
            text
        }
    }

    var status: ExitStatus {
        switch self {
        case .usage: .usage
        case .unreadable: .unreadableInput
        case .invalidInput: .failure
        case .modelUnavailable: .modelUnavailable
        case .unsupportedSchema: .unsupportedSchema
        case .generationFailed: .generationFailed
        }
    }
}
