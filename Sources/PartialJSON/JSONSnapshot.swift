/// The value a ``PartialJSONParser`` had parsed when the snapshot was taken.
///
/// A snapshot shows objects with the members whose values have begun, in order; arrays with the
/// elements that have begun; strings as written so far, never with half an escape sequence or
/// half a UTF-8 sequence; numbers, `true`, `false` and `null` only once complete. Every node
/// says whether it is complete. A later snapshot of the same parser always extends an earlier
/// one (see ``PartialJSONValue/isExtended(by:)``).
///
/// A snapshot is a view of the parser's storage: taking it costs nothing, and reading it costs
/// what is read. It is not `Sendable`; ``value`` gives a `Sendable` copy.
public struct JSONSnapshot {
    let storage: ParseStorage
    let nodeCount: Int
    let clock: Int
    let byteCount: Int

    /// The top-level value, or `nil` before it has begun.
    public var root: Node? {
        nodeCount > 0 ? Node(snapshot: self, index: 0) : nil
    }

    /// Whether the whole document is complete.
    public var isComplete: Bool { root?.isComplete ?? false }

    /// A copy of the value parsed so far, or `nil` before it has begun.
    public var value: PartialJSONValue? { root?.value }

    /// The kinds of JSON values.
    public enum Kind: Sendable, Hashable {
        case null, bool, number, string, array, object
    }

    /// One value in a snapshot.
    public struct Node {
        let snapshot: JSONSnapshot
        let index: Int

        private var stored: ParsedNode { snapshot.storage.nodes[index] }

        /// What kind of value this is.
        public var kind: Kind {
            switch stored.kind {
            case .null: .null
            case .false, .true: .bool
            case .number: .number
            case .string: .string
            case .array: .array
            case .object: .object
            }
        }

        /// Whether this value is complete (closed, for strings, arrays and objects).
        public var isComplete: Bool { stored.completedAt < snapshot.clock }

        /// The Boolean, when this is `true` or `false`.
        public var bool: Bool? {
            switch stored.kind {
            case .true: true
            case .false: false
            default: nil
            }
        }

        /// The number, when this is a number.
        public var number: JSONNumber? {
            let node = stored
            guard node.kind == .number else { return nil }
            return JSONNumber(validatedText: snapshot.storage.text(node.start..<node.end))
        }

        /// The string as written so far, when this is a string.
        public var string: String? {
            let node = stored
            guard node.kind == .string else { return nil }
            let end = node.completedAt < snapshot.clock ? node.end : snapshot.byteCount
            return snapshot.storage.text(node.start..<end)
        }

        /// The elements that have begun, when this is an array; empty otherwise.
        public var elements: [Node] {
            children.map(\.node)
        }

        /// The members whose values have begun, in order, when this is an object; empty otherwise.
        public var members: [(key: String, value: Node)] {
            children.map { (snapshot.storage.text($0.keyRange), $0.node) }
        }

        /// A copy of this value as far as it goes.
        public var value: PartialJSONValue {
            let kind: PartialJSONValue.Kind
            switch stored.kind {
            case .null: kind = .null
            case .false: kind = .bool(false)
            case .true: kind = .bool(true)
            case .number: kind = .number(number ?? 0)
            case .string: kind = .string(string ?? "")
            case .array: kind = .array(children.map(\.node.value))
            case .object:
                kind = .object(children.map { PartialJSONValue.Member(key: snapshot.storage.text($0.keyRange), value: $0.node.value) })
            }
            return PartialJSONValue(kind: kind, isComplete: isComplete)
        }

        private var children: [(node: Node, keyRange: Range<Int>)] {
            var result: [(node: Node, keyRange: Range<Int>)] = []
            let nodes = snapshot.storage.nodes
            var child = stored.kind == .array || stored.kind == .object ? stored.firstChild : -1
            while child >= 0, child < snapshot.nodeCount {
                let childNode = nodes[child]
                result.append((Node(snapshot: snapshot, index: child), childNode.keyStart..<childNode.keyEnd))
                child = childNode.nextSibling
            }
            return result
        }
    }
}

@available(*, unavailable, message: "a snapshot reads its parser's storage; send its `value` instead")
extension JSONSnapshot: Sendable {}
