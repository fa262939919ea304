/// Everything parsed so far, in append-only form, shared by a parser and its snapshots, with the
/// state machine that writes it.
///
/// Nodes are stored in document order (pre-order) and never move or disappear; a node's fields
/// change only to record what happened after it was created (its next sibling, its end, the
/// moment it completed). A snapshot remembers how many nodes and bytes existed and the completion
/// clock when it was taken, and reads the storage through those bounds, so taking one costs
/// nothing and it never changes afterwards.
final class ParseStorage {
    /// The parser's state machine, which owns the buffers. It lives behind a pointer so that the
    /// parser's calls reach it without the exclusivity checks a class's stored `var` costs.
    let core: UnsafeMutablePointer<ParserCore>

    /// String contents (unescaped UTF-8), member names and number text, back to back.
    var bytes: GrowableBuffer<UInt8> { core.pointee.bytes }
    /// The values, in document order.
    var nodes: GrowableBuffer<ParsedNode> { core.pointee.nodes }

    init(maximumDepth: Int) {
        core = .allocate(capacity: 1)
        core.initialize(to: ParserCore(maximumDepth: maximumDepth))
    }

    deinit {
        core.pointee.bytes.deallocate()
        core.pointee.nodes.deallocate()
        core.deinitialize(count: 1)
        core.deallocate()
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes.buffer(range), as: UTF8.self)
    }

    /// The complete value at `index`, which must be a complete node.
    func value(at index: Int) -> JSONValue {
        let node = nodes[index]
        switch node.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(JSONNumber(validatedText: text(node.start..<node.end)))
        case .string: return .string(text(node.start..<node.end))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(node.childCount)
            var child = node.firstChild
            while child >= 0 {
                elements.append(value(at: child))
                child = nodes[child].nextSibling
            }
            return .array(elements)
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(node.childCount)
            var child = node.firstChild
            while child >= 0 {
                let childNode = nodes[child]
                members.append(JSONObject.Member(key: text(childNode.keyStart..<childNode.keyEnd), value: value(at: child)))
                child = childNode.nextSibling
            }
            return .object(JSONObject(members))
        }
    }
}

/// One value in ``ParseStorage``.
struct ParsedNode {
    enum Kind: UInt8 {
        case null, `false`, `true`, number, string, array, object
    }

    var kind: Kind
    /// Where the member name of this value lies in the storage's bytes, when its parent is an object.
    var keyStart = 0
    var keyEnd = 0
    /// Where a string's contents or a number's text lies in the storage's bytes; `end` is set
    /// when the value completes.
    var start = 0
    var end = 0
    /// The first and last children of an array or object, and the next sibling; -1 for none.
    var firstChild = -1
    var lastChild = -1
    var nextSibling = -1
    var childCount = 0
    /// The completion clock's reading when this value completed; `Int.max` while it is open.
    var completedAt = Int.max

    init(kind: Kind, start: Int) {
        self.kind = kind
        self.start = start
    }
}
