@testable import ConstrainedDecoding
import PartialJSON

/// The canonical compact spellings of a JSON instance, one per order of the members of its
/// objects (the grammar fixes member order to the schema's, which the test does not know), or
/// its spellings in the indented layout, in the same order.
enum InstanceSpellings {
    /// Every spelling, or `nil` when there are more than `limit`; with `indent`, laid out as
    /// ``CompileOptions/Whitespace/indented(_:)`` has it.
    static func all(_ value: JSONValue, limit: Int = 5000, indent: Int? = nil, depth: Int = 0) -> [String]? {
        // Where the layout breaks lines: after the opening bracket and commas, before the closing one.
        let levels = min(depth, SchemaCompiler.maximumLayoutDepth)
        let inner = indent.map { "\n" + String(repeating: " ", count: $0 * (levels + 1)) } ?? ""
        let outer = indent.map { "\n" + String(repeating: " ", count: $0 * levels) } ?? ""
        let colon = indent == nil ? ":" : ": "
        switch value {
        case .null: return ["null"]
        case .bool(let flag): return [flag ? "true" : "false"]
        case .number(let number): return [DecimalNumber(number.text)?.plainText ?? number.text]
        case .string(let text): return [SchemaValue.quoted(text)]
        case .array(let elements):
            guard !elements.isEmpty else { return ["[]"] }
            var results = [""]
            for (index, element) in elements.enumerated() {
                guard let spellings = all(element, limit: limit, indent: indent, depth: depth + 1) else { return nil }
                results = results.flatMap { prefix in spellings.map { prefix + (index > 0 ? "," : "") + inner + $0 } }
                if results.count > limit { return nil }
            }
            return results.map { "[" + $0 + outer + "]" }
        case .object(let object):
            guard !object.members.isEmpty else { return ["{}"] }
            var members: [[String]] = []
            for member in object.members {
                guard let spellings = all(member.value, limit: limit, indent: indent, depth: depth + 1) else { return nil }
                members.append(spellings.map { SchemaValue.quoted(member.key) + colon + $0 })
            }
            var results: [String] = []
            for order in permutations(Array(members.indices)) {
                var partial = [""]
                for (position, index) in order.enumerated() {
                    partial = partial.flatMap { prefix in members[index].map { prefix + (position > 0 ? "," : "") + inner + $0 } }
                    if partial.count + results.count > limit { return nil }
                }
                results += partial
                if results.count > limit { return nil }
            }
            return results.map { "{" + $0 + outer + "}" }
        }
    }

    private static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        guard items.count <= 7 else { return [items] }
        return items.indices.flatMap { index -> [[Int]] in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
}
