@testable import ConstrainedDecoding
import PartialJSON

/// The canonical compact spellings of a JSON instance, one per order of the members of its
/// objects (the grammar fixes member order to the schema's, which the test does not know).
enum InstanceSpellings {
    /// Every spelling, or `nil` when there are more than `limit`.
    static func all(_ value: JSONValue, limit: Int = 5000) -> [String]? {
        switch value {
        case .null: return ["null"]
        case .bool(let flag): return [flag ? "true" : "false"]
        case .number(let number): return [DecimalNumber(number.text)?.plainText ?? number.text]
        case .string(let text): return [SchemaValue.quoted(text)]
        case .array(let elements):
            var results = [""]
            for (index, element) in elements.enumerated() {
                guard let spellings = all(element, limit: limit) else { return nil }
                results = results.flatMap { prefix in spellings.map { prefix + (index > 0 ? "," : "") + $0 } }
                if results.count > limit { return nil }
            }
            return results.map { "[" + $0 + "]" }
        case .object(let object):
            var members: [[String]] = []
            for member in object.members {
                guard let spellings = all(member.value, limit: limit) else { return nil }
                members.append(spellings.map { SchemaValue.quoted(member.key) + ":" + $0 })
            }
            var results: [String] = []
            for order in permutations(Array(members.indices)) {
                var partial = [""]
                for (position, index) in order.enumerated() {
                    partial = partial.flatMap { prefix in members[index].map { prefix + (position > 0 ? "," : "") + $0 } }
                    if partial.count + results.count > limit { return nil }
                }
                results += partial
                if results.count > limit { return nil }
            }
            return results.map { "{" + $0 + "}" }
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
