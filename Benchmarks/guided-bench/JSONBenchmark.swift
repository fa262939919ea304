import Foundation
import PartialJSON

/// Parse throughput of `PartialJSON` against `JSONSerialization` on documents of a few shapes,
/// and the cost of streaming with a snapshot every 4 bytes as a ratio to one-shot parsing.
struct JSONBenchmark {
    var scale = 1.0
    var runs = 5
    /// Only the shapes whose name contains this text.
    var only: String?

    init(arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--scale": scale = remaining.popFirst().flatMap(Double.init) ?? scale
            case "--runs": runs = remaining.popFirst().flatMap(Int.init) ?? runs
            case "--shape": only = remaining.popFirst()
            default: print("ignoring unknown option \(argument)")
            }
        }
    }

    /// A document to parse.
    struct Shape {
        var name: String
        var bytes: [UInt8]
    }

    func shapes() -> [Shape] {
        let count = Int(40_000 * scale)
        var objects = "["
        for i in 0..<count {
            if i > 0 { objects += "," }
            objects += #"{"id":\#(i),"name":"item \#(i)","price":\#(Double(i) * 0.25 + 0.5),"tags":["red","large"],"active":\#(i % 2 == 0),"parent":null}"#
        }
        objects += "]"

        let piece = #"Line one\nLine \"two\" with caf\u00e9 and 中文 and 😀 \\ tab\t end. "#
        let longString = String(repeating: piece, count: 400)
        var strings = "["
        for i in 0..<Int(100 * scale) {
            if i > 0 { strings += "," }
            strings += "\"\(longString)\""
        }
        strings += "]"

        let depth = 100
        let nested = String(repeating: #"{"a":["#, count: depth) + "1" + String(repeating: "]}", count: depth)
        var deep = "["
        for i in 0..<Int(600 * scale) {
            if i > 0 { deep += "," }
            deep += nested
        }
        deep += "]"

        return [
            Shape(name: "array of small objects", bytes: Array(objects.utf8)),
            Shape(name: "long strings with escapes", bytes: Array(strings.utf8)),
            Shape(name: "deep nesting (100 levels)", bytes: Array(deep.utf8)),
        ]
    }

    func run() {
        print("PartialJSON vs JSONSerialization, median of \(runs) runs (release build)")
        print(pad("shape", 28) + pad("MB", 8) + pad("ours MB/s", 12) + pad("JSONSer. MB/s", 15) + pad("ours/JSONSer.", 15) + "stream/one-shot")
        for shape in shapes() where only.map(shape.name.contains) ?? true {
            let data = Data(shape.bytes)
            let megabytes = Double(shape.bytes.count) / 1_000_000
            var sink = 0
            let ours = Stopwatch.median(runs: runs) {
                guard let value = try? JSONValue(parsing: shape.bytes) else { fatalError("benchmark document did not parse") }
                if case .array(let elements) = value { sink &+= elements.count }
            }
            let theirs = Stopwatch.median(runs: runs) {
                guard let value = try? JSONSerialization.jsonObject(with: data) as? [Any] else { fatalError("benchmark document did not parse") }
                sink &+= value.count
            }
            let streaming = Stopwatch.median(runs: runs) {
                let parser = PartialJSONParser()
                shape.bytes.withUnsafeBytes { buffer in
                    var start = 0
                    while start < buffer.count {
                        let end = min(start + 4, buffer.count)
                        do { try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) } catch { fatalError("\(error)") }
                        if parser.snapshot.root?.isComplete == true { sink &+= 1 }
                        start = end
                    }
                }
                guard let value = try? parser.finish() else { fatalError("benchmark document did not finish") }
                if case .array(let elements) = value { sink &+= elements.count }
            }
            print(
                pad(shape.name, 28) + pad(format(megabytes), 8) + pad(format(megabytes / ours), 12)
                    + pad(format(megabytes / theirs), 15) + pad(format(theirs / ours) + "x faster", 15)
                    + format(streaming / ours) + "x")
            if sink == 42 { print("") }
        }
    }

    private func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
