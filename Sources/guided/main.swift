import Foundation

/// The `guided` command-line tool.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitStatus
do {
    // `-h` or `--help` anywhere asks for the usage: the subcommand's, after one.
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
        print(arguments.first.flatMap(Usage.text(of:)) ?? Usage.text)
        exit(ExitStatus.success.rawValue)
    }
    switch arguments.first {
    case "parse":
        try ParseCommand(arguments: Array(arguments.dropFirst())).run()
        status = .success
    case "generate":
        try await GenerateCommand(arguments: Array(arguments.dropFirst()), needsSchema: true).run()
        status = .success
    case "respond":
        try await GenerateCommand(arguments: Array(arguments.dropFirst()), needsSchema: false).run()
        status = .success
    case "serve":
        try await ServeCommand(arguments: Array(arguments.dropFirst())).run()
    case "fetch-model":
        try FetchModelCommand(arguments: Array(arguments.dropFirst())).run()
        status = .success
    case "help":
        print(Usage.text)
        status = .success
    case nil:
        throw CommandError.usage("missing subcommand")
    case let other?:
        throw CommandError.usage("unknown subcommand '\(other)'")
    }
} catch let error as CommandError {
    FileHandle.standardError.write(Data("guided: \(error.message)\n".utf8))
    if case .usage = error { FileHandle.standardError.write(Data((Usage.text + "\n").utf8)) }
    status = error.status
} catch {
    FileHandle.standardError.write(Data("guided: \(error)\n".utf8))
    status = .failure
}
exit(status.rawValue)
