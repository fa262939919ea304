import Foundation
import PartialJSON

/// `guided parse [--stream] [--chunk-size N] FILE`: parses JSON and prints it compactly, or
/// prints a line per snapshot while the bytes arrive.
struct ParseCommand {
    var path: String
    var stream = false
    var chunkSize = 8

    init(arguments: [String]) throws(CommandError) {
        var path: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--stream":
                stream = true
            case "--chunk-size":
                guard let value = remaining.popFirst(), let size = Int(value), size > 0 else {
                    throw .usage("--chunk-size needs a positive integer")
                }
                chunkSize = size
            case _ where argument.hasPrefix("--"):
                throw .usage("unknown option '\(argument)' for parse")
            default:
                guard path == nil else { throw .usage("parse takes one FILE") }
                path = argument
            }
        }
        guard let path else { throw .usage("parse needs a FILE ('-' for standard input)") }
        self.path = path
    }

    func run() throws(CommandError) {
        let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { if descriptor != 0 { close(descriptor) } }

        let parser = PartialJSONParser()
        var lastLine = ""
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        do {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count >= 0 else { throw CommandError.unreadable("cannot read \(path): \(String(cString: strerror(errno)))") }
                if count == 0 { break }
                guard stream else {
                    try parser.feed(buffer[..<count])
                    continue
                }
                var start = 0
                while start < count {
                    let end = min(start + chunkSize, count)
                    try parser.feed(buffer[start..<end])
                    start = end
                    if let line = parser.snapshot.value?.value.jsonString, line != lastLine {
                        print(line)
                        lastLine = line
                    }
                }
            }
            let value = try parser.finish()
            let line = value.jsonString
            if !stream || line != lastLine { print(line) }
        } catch let error as JSONParseError {
            throw .invalidInput("\(path == "-" ? "standard input" : path): \(error)")
        } catch let error as CommandError {
            throw error
        } catch {
            throw .invalidInput("\(error)")
        }
    }
}
