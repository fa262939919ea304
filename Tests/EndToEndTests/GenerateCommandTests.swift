import Foundation
import Testing
import TestSupport

/// `guided generate`, run as a user runs it: on a terminal (through `script`, which gives it one)
/// and into a pipe.
@Suite(.serialized, .threadOfItsOwn) struct GenerateCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `guided` executable built beside the tests (the test command fetches the model with it
    /// first, so it is there).
    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("guided")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : root.appendingPathComponent(".build/release/guided")
    }

    /// What a shell command prints on standard output.
    static func output(of command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(command) exited with \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }

    /// `-h` and `--help`, alone or after any subcommand and its options, print the usage on
    /// standard output and exit 0 (the check of `output(of:)`).
    @Test(arguments: ["", "generate", "respond", "parse", "serve", "fetch-model"])
    func helpPrintsTheUsage(subcommand: String) throws {
        for flag in ["-h", "--help"] {
            let usage = try Self.output(of: "'\(Self.executable.path)' \(subcommand) --stats \(flag) 2>&1")
            #expect(usage.hasPrefix("usage: guided \(subcommand.isEmpty ? "<subcommand>" : subcommand)"), "\(usage)")
            #expect(usage.contains("exit status:"))
            #expect(!usage.contains("unknown"))
            if !subcommand.isEmpty { #expect(usage.contains("  \(subcommand)")) }
        }
    }

    /// `--choice`, `--regex`, `--grammar` and `--lark` write text that follows the grammar; a grammar that
    /// cannot be enforced is refused before the model runs, naming its rule, line and column.
    @Test func textGrammarsShapeTheAnswer() throws {
        _ = try requireTinyModel()
        let guided = Self.executable.path
        try #require(FileManager.default.isExecutableFile(atPath: guided), "build guided first")
        let generate = "'\(guided)' generate --greedy --model smollm2-135m-instruct"
        let colour = try Self.output(of: "\(generate) --choice red --choice green --choice blue 'What colour is the sky?' 2>/dev/null")
        #expect(["red\n", "green\n", "blue\n"].contains(colour), "\(colour.debugDescription)")
        let phone = try Self.output(of: "\(generate) --regex '[0-9]{3}-[0-9]{4}' 'Write a phone number.' 2>/dev/null")
        #expect(phone.wholeMatch(of: /[0-9]{3}-[0-9]{4}\n/) != nil, "\(phone.debugDescription)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guided-grammar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let grammar = folder.appendingPathComponent("answer.gbnf")
        try Data("root ::= \"The answer is \" number \".\"\nnumber ::= [0-9]+\n".utf8).write(to: grammar)
        let answer = try Self.output(of: "\(generate) --grammar '\(grammar.path)' 'What is 6 times 7?' 2>/dev/null")
        #expect(answer.wholeMatch(of: /The answer is [0-9]+\.\n/) != nil, "\(answer.debugDescription)")
        // A .lark file is Lark; --lark reads any file as Lark.
        let lark = folder.appendingPathComponent("answer.lark")
        try Data("start: \"The answer is \" NUMBER \".\"\n%import common.INT -> NUMBER\n".utf8).write(to: lark)
        let larkAnswer = try Self.output(of: "\(generate) --grammar '\(lark.path)' 'What is 6 times 7?' 2>/dev/null")
        #expect(larkAnswer.wholeMatch(of: /The answer is [0-9]+\.\n/) != nil, "\(larkAnswer.debugDescription)")
        let larkText = folder.appendingPathComponent("answer.txt")
        try Data("start: WORD (\" \" WORD)~2\n%import common.WORD\n".utf8).write(to: larkText)
        let words = try Self.output(of: "\(generate) --lark '\(larkText.path)' 'Three words about cats.' 2>/dev/null")
        #expect(words.wholeMatch(of: /[A-Za-z]+ [A-Za-z]+ [A-Za-z]+\n/) != nil, "\(words.debugDescription)")
        let leftRecursive = folder.appendingPathComponent("left.gbnf")
        try Data("root ::= list\nlist ::= list \",\" [a-z]\n".utf8).write(to: leftRecursive)
        let refusal = try Self.output(of: "\(generate) --grammar '\(leftRecursive.path)' 'List letters.' 2>&1; echo \" $?\"")
        #expect(refusal.contains("line 2, column 1: rule 'list' refers to itself") && refusal.hasSuffix(" 5\n"), "\(refusal)")
    }

    @Test func onATerminalTheValueGrowsInPlaceAndEndsAsThePipedLine() throws {
        _ = try requireTinyModel()
        let guided = Self.executable.path
        try #require(FileManager.default.isExecutableFile(atPath: guided), "build guided first")
        let schema = Self.root.appendingPathComponent("schemas/cat-profile.json").path
        let arguments = "generate --greedy --model smollm2-135m-instruct --schema '\(schema)' 'Describe a shelter cat named Tom.'"
        let piped = try Self.output(of: "'\(guided)' \(arguments) 2>/dev/null")
        #expect(!piped.contains("\u{1B}"), "no terminal control in a pipe: \(piped)")
        let onTerminal = try Self.output(of: "script -q -e -c \"'\(guided)' \(arguments)\" /dev/null")
        // Each snapshot rewrites the line; the last rewrite clears it for the final value.
        let rewrites = onTerminal.components(separatedBy: "\r\u{1B}[K")
        #expect(rewrites.count > 3, "the value was not shown as it grew: \(onTerminal.debugDescription)")
        let finalLine = (rewrites.last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(finalLine == piped.trimmingCharacters(in: .whitespacesAndNewlines))
        let value = try JSONSerialization.jsonObject(with: Data(finalLine.utf8)) as? [String: Any]
        #expect(value?["name"] != nil, "\(finalLine)")
    }
}
