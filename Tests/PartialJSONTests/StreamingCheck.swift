import Foundation
import PartialJSON
import TestSupport

/// Feeding helpers shared by the tests: one-shot parsing, chunked parsing, and the snapshot
/// invariants.
enum StreamingCheck {
    /// The outcome of parsing: a value or an error.
    enum Outcome: Equatable {
        case value(JSONValue)
        case error(JSONParseError)
    }

    static func parseAtOnce(_ bytes: [UInt8]) -> Outcome {
        do throws(JSONParseError) {
            return .value(try JSONValue(parsing: bytes))
        } catch {
            return .error(error)
        }
    }

    /// Parses `bytes` fed in chunks whose ends are `cuts`, taking a snapshot after each feed
    /// and after a successful finish. Returns the outcome and the snapshots, materialized.
    static func parse(_ bytes: [UInt8], cuts: [Int]) -> (outcome: Outcome, snapshots: [PartialJSONValue?]) {
        let parser = PartialJSONParser()
        var snapshots: [PartialJSONValue?] = []
        var start = 0
        do {
            for end in cuts + [bytes.count] where end >= start {
                try parser.feed(bytes[start..<end])
                snapshots.append(parser.snapshot.value)
                start = end
            }
            let value = try parser.finish()
            snapshots.append(parser.snapshot.value)
            return (.value(value), snapshots)
        } catch {
            return (.error(error), snapshots)
        }
    }

    static func byteByByte(_ bytes: [UInt8]) -> (outcome: Outcome, snapshots: [PartialJSONValue?]) {
        parse(bytes, cuts: Array(0..<bytes.count))
    }

    static func randomCuts(count: Int, using generator: inout SeededGenerator) -> [Int] {
        guard count > 1 else { return [] }
        let pieces = Int.random(in: 1...min(count, 12), using: &generator)
        return (0..<pieces).map { _ in Int.random(in: 0...count, using: &generator) }.sorted()
    }

    /// The first place where a snapshot does not extend the one before, or `nil`.
    static func firstNonMonotoneStep(_ snapshots: [PartialJSONValue?]) -> Int? {
        var previous: PartialJSONValue?
        for (step, snapshot) in snapshots.enumerated() {
            switch (previous, snapshot) {
            case (let earlier?, let later?):
                if !earlier.isExtended(by: later) { return step }
            case (.some, nil):
                return step
            default:
                break
            }
            previous = snapshot ?? previous
        }
        return nil
    }

    /// Whether the value equals what `JSONSerialization` made of the same text (numbers compared
    /// as doubles, objects by their last member of each name).
    static func matchesFoundation(_ value: JSONValue, _ other: Any) -> Bool {
        switch value {
        case .null:
            return other is NSNull
        case .bool(let flag):
            return (other as? Bool) == flag
        case .number(let number):
            guard let mine = try? number.doubleValue(), let theirs = (other as? NSNumber)?.doubleValue else { return false }
            return mine == theirs || abs(mine - theirs) <= 1e-12 * max(abs(mine), abs(theirs))
        case .string(let text):
            return (other as? String) == text
        case .array(let elements):
            guard let others = other as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { matchesFoundation($0, $1) }
        case .object(let object):
            guard let others = other as? [String: Any] else { return false }
            let keys = Set(object.keys)
            guard keys == Set(others.keys) else { return false }
            return keys.allSatisfy { key in matchesFoundation(object[key]!, others[key]!) }
        }
    }
}
