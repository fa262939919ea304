import Foundation

/// jinja2's filters that chat templates use, `value | name(arguments)`, with jinja2's behaviour
/// (`sort` and `unique` ignore case by default, `length` of an undefined value is 0), and
/// Hugging Face's `tojson`, which writes as `json.dumps` does without escaping HTML.
enum JinjaFilters {
    static let names: Set<String> = [
        "abs", "attr", "batch", "capitalize", "center", "count", "d", "default", "dictsort", "e", "escape", "first", "float",
        "forceescape", "indent", "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min", "reject", "rejectattr",
        "replace", "reverse", "round", "safe", "select", "selectattr", "sort", "string", "sum", "title", "tojson", "trim", "unique",
        "upper", "wordcount",
    ]
}

extension JinjaInterpreter {
    /// `value | name(arguments)`.
    func filter(_ name: String, _ value: JinjaValue, _ arguments: JinjaArguments, at location: JinjaSourceLocation) throws(JinjaError)
        -> JinjaValue
    {
        guard JinjaFilters.names.contains(name) else { throw .unsupported("filter '\(name)'", at: location) }
        return try located(location) { () throws(JinjaFailure) in try applyFilter(name, value, arguments, at: location) }
    }

    /// Applies the filters of a `{% filter %}` block or a `{% set %}` block in turn.
    func applyFilters(_ filters: [JinjaNode.Filter], to value: JinjaValue, in scope: Scope) throws(JinjaError) -> JinjaValue {
        var result = value
        for filter in filters {
            result = try self.filter(filter.name, result, try evaluate(filter.arguments, in: scope), at: filter.location)
        }
        return result
    }

    private func applyFilter(_ name: String, _ value: JinjaValue, _ arguments: JinjaArguments, at location: JinjaSourceLocation)
        throws(JinjaFailure) -> JinjaValue
    {
        switch name {
        case "abs":
            try arguments.expectNone(name)
            try JinjaOperators.requireDefined(value)
            switch value.number {
            case .integer(let integer)?:
                guard integer != .min else { throw .evaluation("integer overflow") }
                return .integer(abs(integer))
            case .double(let double)?: return .double(abs(double))
            case nil: throw .evaluation("bad operand type for abs(): '\(value.typeName)'")
            }
        case "attr":
            guard let attribute = try arguments.bind(name, ["name"])[0] else { throw .evaluation("attr() missing 1 required argument: 'name'") }
            try JinjaOperators.requireDefined(value)
            let attributeName = try string(attribute)
            if let method = JinjaMethods.lookup(attributeName, on: value) { return method }
            if case .namespace(let namespace) = value, let item = namespaces[namespace.index][attributeName] { return item }
            return .undefined("\(Self.objectDescription(value)) has no attribute '\(attributeName)'")
        case "batch":
            let bound = try arguments.bind(name, ["linecount", "fill_with"])
            guard let size = try bound[0]?.integerArgument("linecount") else { throw .evaluation("batch() missing 1 required argument: 'linecount'") }
            var batches: [JinjaValue] = []
            var current: [JinjaValue] = []
            for item in try iterate(value) {
                if current.count == size {
                    batches.append(.array(current))
                    current = []
                }
                current.append(item)
            }
            if !current.isEmpty {
                if let fill = bound[1], fill != .none, current.count < size {
                    current += Array(repeating: fill, count: size - current.count)
                }
                batches.append(.array(current))
            }
            return .array(batches)
        case "capitalize":
            try arguments.expectNone(name)
            return .string(try string(value).pythonCapitalize())
        case "center":
            let width = try arguments.bind(name, ["width"])[0]?.integerArgument("width") ?? 80
            return try callMethod("center", on: .string(try string(value)), with: JinjaArguments(positional: [.integer(width)]))
        case "count", "length":
            try arguments.expectNone(name)
            return .integer(try length(of: value))
        case "d", "default":
            let bound = try arguments.bind(name, ["default_value", "boolean"])
            if value.isUndefined || (bound[1]?.isTruthy == true && !value.isTruthy) { return bound[0] ?? .string("") }
            return value
        case "dictsort":
            let bound = try arguments.bind(name, ["case_sensitive", "by", "reverse"])
            guard case .dictionary(let dictionary) = value else {
                try JinjaOperators.requireDefined(value)
                throw .evaluation("'\(value.typeName)' object has no attribute 'items'")
            }
            let by = try bound[1].map { by throws(JinjaFailure) in try by.stringArgument("by") } ?? "key"
            guard by == "key" || by == "value" else { throw .evaluation("You can only sort by either \"key\" or \"value\"") }
            let pairs = dictionary.pairs.map { JinjaValue.array([$0, $1]) }
            let caseSensitive = bound[0]?.isTruthy ?? false
            let keys = dictionary.pairs.map { pair in
                let key = by == "key" ? pair.0 : pair.1
                return caseSensitive ? key : Self.ignoringCase(key)
            }
            return .array(try Self.stableOrder(keys, reverse: bound[2]?.isTruthy ?? false).map { pairs[$0] })
        case "e", "escape", "forceescape":
            try arguments.expectNone(name)
            return .string(Self.escapingHTML(try string(value)))
        case "first", "last":
            try arguments.expectNone(name)
            let items = try iterate(value)
            guard let item = name == "first" ? items.first : items.last else {
                return .undefined("No \(name) item, sequence was empty.")
            }
            return item
        case "float":
            let fallback = try arguments.bind(name, ["default"])[0] ?? .double(0)
            return Self.double(from: value).map { .double($0) } ?? fallback
        case "indent":
            return try indent(value, try arguments.bind(name, ["width", "first", "blank"]))
        case "int":
            let bound = try arguments.bind(name, ["default", "base"])
            return try Self.integer(from: value, base: try bound[1]?.integerArgument("base") ?? 10).map { .integer($0) } ?? bound[0] ?? .integer(0)
        case "items":
            try arguments.expectNone(name)
            switch value {
            case .undefined: return .array([])
            case .dictionary(let dictionary): return .array(dictionary.pairs.map { .array([$0, $1]) })
            default: throw .evaluation("Can only get item pairs from a mapping.")
            }
        case "join":
            let bound = try arguments.bind(name, ["d", "attribute"])
            var items = try iterate(value)
            if let attribute = bound[1], attribute != .none {
                var mapped: [JinjaValue] = []
                for item in items { mapped.append(try attributePath(attribute, of: item)) }
                items = mapped
            }
            var parts: [String] = []
            for item in items { parts.append(try string(item)) }
            let joined = parts.joined(separator: try string(bound[0] ?? .string("")))
            guard joined.utf8.count <= limits.maximumLength else { throw .limitExceeded("a string longer than \(limits.maximumLength) bytes") }
            return .string(joined)
        case "list":
            try arguments.expectNone(name)
            return .array(try iterate(value))
        case "lower", "upper":
            try arguments.expectNone(name)
            let text = try string(value)
            return .string(name == "lower" ? text.lowercased() : text.uppercased())
        case "map":
            return try map(value, arguments, at: location)
        case "max", "min":
            let bound = try arguments.bind(name, ["case_sensitive", "attribute"])
            let items = try iterate(value)
            guard var best = items.first else { return .undefined("No aggregated item, sequence was empty.") }
            var bestKey = try aggregationKey(best, bound)
            for item in items.dropFirst() {
                let key = try aggregationKey(item, bound)
                if name == "max" ? try JinjaOperators.less(bestKey, key, symbol: ">") : try JinjaOperators.less(key, bestKey) {
                    best = item
                    bestKey = key
                }
            }
            return best
        case "select", "reject", "selectattr", "rejectattr":
            return try select(value, arguments, keeping: name.hasPrefix("select"), byAttribute: name.hasSuffix("attr"))
        case "replace":
            let bound = try arguments.bind(name, ["old", "new", "count"])
            guard let old = bound[0], let new = bound[1] else { throw .evaluation("replace() missing required arguments 'old' and 'new'") }
            let count = try bound[2].map { count throws(JinjaFailure) in count == .none ? -1 : try count.integerArgument("count") } ?? -1
            return .string(try replacing(try string(old), with: try string(new), in: try string(value), count: count))
        case "reverse":
            try arguments.expectNone(name)
            if case .string(let text) = value { return .string(String(scalars: text.unicodeScalars.reversed())) }
            return .array(try iterate(value).reversed())
        case "round":
            let bound = try arguments.bind(name, ["precision", "method"])
            let precision = try bound[0]?.integerArgument("precision") ?? 0
            let method = try bound[1].map { method throws(JinjaFailure) in try method.stringArgument("method") } ?? "common"
            guard ["common", "ceil", "floor"].contains(method) else { throw .evaluation("method must be common, ceil or floor") }
            try JinjaOperators.requireDefined(value)
            guard let number = value.number else { throw .evaluation("type \(value.typeName) doesn't define __round__ method") }
            let scale = Foundation.pow(10, Double(precision))
            switch (method, number) {
            case ("common", .integer(let integer)): return .integer(integer)
            case ("common", .double(let double)): return .double((double * scale).rounded(.toNearestOrEven) / scale)
            default: return .double((number.doubleValue * scale).rounded(method == "ceil" ? .up : .down) / scale)
            }
        case "safe", "string":
            try arguments.expectNone(name)
            return .string(try string(value))
        case "sort":
            let bound = try arguments.bind(name, ["reverse", "case_sensitive", "attribute"])
            let items = try iterate(value)
            var keys: [JinjaValue] = []
            for item in items { keys.append(try sortKey(item, caseSensitive: bound[1]?.isTruthy ?? false, attribute: bound[2])) }
            return .array(try Self.stableOrder(keys, reverse: bound[0]?.isTruthy ?? false).map { items[$0] })
        case "sum":
            let bound = try arguments.bind(name, ["attribute", "start"])
            var total = bound[1] ?? .integer(0)
            for item in try iterate(value) {
                let term = try bound[0].map { attribute throws(JinjaFailure) in try attributePath(attribute, of: item) } ?? item
                total = try JinjaOperators.arithmetic(.add, total, term, maximumLength: limits.maximumLength)
            }
            return total
        case "title":
            try arguments.expectNone(name)
            return .string(Self.titleCasingWords(try string(value)))
        case "tojson":
            return .string(try JinjaJSON.dumps(value, style: try Self.jsonStyle(try arguments.bind(name, ["ensure_ascii", "indent", "separators", "sort_keys"]))))
        case "trim":
            guard let characters = try arguments.bind(name, ["chars"])[0], characters != .none else {
                return .string(try string(value).pythonStrip(nil))
            }
            return .string(try string(value).pythonStrip(try characters.stringArgument("chars")))
        case "unique":
            let bound = try arguments.bind(name, ["case_sensitive", "attribute"])
            var seen = Set<JinjaDictionary.Key>()
            var unique: [JinjaValue] = []
            for item in try iterate(value) {
                var key = try bound[1].map { attribute throws(JinjaFailure) in try attributePath(attribute, of: item) } ?? item
                if !(bound[0]?.isTruthy ?? false) { key = Self.ignoringCase(key) }
                guard let hashed = JinjaDictionary.Key(key) else { throw .evaluation("unhashable type: '\(key.typeName)'") }
                if seen.insert(hashed).inserted { unique.append(item) }
            }
            return .array(unique)
        case "wordcount":
            try arguments.expectNone(name)
            var count = 0
            var inWord = false
            for scalar in try string(value).unicodeScalars {
                let isWord = scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                if isWord, !inWord { count += 1 }
                inWord = isWord
            }
            return .integer(count)
        default:
            throw .unsupported("filter '\(name)'")
        }
    }

    /// Python's `len`, with jinja2's 0 for an undefined value.
    private func length(of value: JinjaValue) throws(JinjaFailure) -> Int {
        switch value {
        case .undefined: 0
        case .string(let text): text.unicodeScalars.count
        case .array(let items): items.count
        case .dictionary(let dictionary): dictionary.count
        default: throw .evaluation("object of type '\(value.typeName)' has no len()")
        }
    }

    /// The item at a dotted path (`function.name`, `0.text`) of `value`, looked up as
    /// `value[part]` part by part, as jinja2's attribute getters do.
    private func attributePath(_ attribute: JinjaValue, of value: JinjaValue, default fallback: JinjaValue? = nil) throws(JinjaFailure)
        -> JinjaValue
    {
        var parts: [JinjaValue]
        if case .string(let path) = attribute {
            parts = path.split(separator: ".", omittingEmptySubsequences: false).map { part in
                Int(part).map { .integer($0) } ?? .string(String(part))
            }
        } else {
            parts = [attribute]
        }
        var current = value
        for part in parts {
            current = try item(part, of: current)
            if let fallback, fallback != .none, current.isUndefined { current = fallback }
        }
        return current
    }

    private func sortKey(_ item: JinjaValue, caseSensitive: Bool, attribute: JinjaValue?) throws(JinjaFailure) -> JinjaValue {
        guard let attribute, attribute != .none else { return .array([caseSensitive ? item : Self.ignoringCase(item)]) }
        var keys: [JinjaValue] = []
        let attributes: [JinjaValue]
        if case .string(let text) = attribute {
            attributes = text.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) }
        } else {
            attributes = [attribute]
        }
        for path in attributes {
            let key = try attributePath(path, of: item)
            keys.append(caseSensitive ? key : Self.ignoringCase(key))
        }
        return .array(keys)
    }

    private func aggregationKey(_ item: JinjaValue, _ bound: [JinjaValue?]) throws(JinjaFailure) -> JinjaValue {
        var key = item
        if let attribute = bound[1], attribute != .none { key = try attributePath(attribute, of: item) }
        return bound[0]?.isTruthy == true ? key : Self.ignoringCase(key)
    }

    /// `map(attribute=...)` or `map('filter', arguments)`.
    private func map(_ value: JinjaValue, _ arguments: JinjaArguments, at location: JinjaSourceLocation) throws(JinjaFailure) -> JinjaValue {
        guard value.isTruthy else { return .array([]) }
        let items = try iterate(value)
        if arguments.positional.isEmpty, let attribute = arguments.keywords.first(where: { $0.name == "attribute" })?.value {
            let fallback = arguments.keywords.first(where: { $0.name == "default" })?.value
            if let extra = arguments.keywords.first(where: { $0.name != "attribute" && $0.name != "default" }) {
                throw .evaluation("Unexpected keyword argument '\(extra.name)'")
            }
            var mapped: [JinjaValue] = []
            for item in items { mapped.append(try attributePath(attribute, of: item, default: fallback)) }
            return .array(mapped)
        }
        guard case .string(let filterName)? = arguments.positional.first else { throw .evaluation("map requires a filter argument") }
        guard JinjaFilters.names.contains(filterName) else { throw .unsupported("filter '\(filterName)'") }
        let rest = JinjaArguments(positional: Array(arguments.positional.dropFirst()), keywords: arguments.keywords)
        var mapped: [JinjaValue] = []
        for item in items { mapped.append(try applyFilter(filterName, item, rest, at: location)) }
        return .array(mapped)
    }

    /// `select`, `reject`, `selectattr` and `rejectattr`: the items (or their attribute) that
    /// pass a test, or that are true without one.
    private func select(_ value: JinjaValue, _ arguments: JinjaArguments, keeping: Bool, byAttribute: Bool)
        throws(JinjaFailure) -> JinjaValue
    {
        guard value.isTruthy else { return .array([]) }
        var positional = arguments.positional
        var attribute: JinjaValue?
        if byAttribute {
            guard !positional.isEmpty else { throw .evaluation("Missing parameter for attribute name") }
            attribute = positional.removeFirst()
        }
        var testName: String?
        if !positional.isEmpty {
            guard case .string(let name) = positional.removeFirst() else { throw .evaluation("a test name must be a string") }
            guard JinjaTests.names.contains(name) else { throw .unsupported("test '\(name)'") }
            testName = name
        }
        let testArguments = JinjaArguments(positional: positional, keywords: arguments.keywords)
        var kept: [JinjaValue] = []
        for item in try iterate(value) {
            let subject = try attribute.map { attribute throws(JinjaFailure) in try attributePath(attribute, of: item) } ?? item
            let passes: Bool
            if let testName {
                passes = try passesTest(testName, subject, testArguments)
            } else {
                passes = subject.isTruthy
            }
            if passes == keeping { kept.append(item) }
        }
        return .array(kept)
    }

    /// The `indent` filter: every line but the first (and the first with `first`) indented,
    /// blank lines too with `blank`.
    private func indent(_ value: JinjaValue, _ bound: [JinjaValue?]) throws(JinjaFailure) -> JinjaValue {
        guard case .string(let text) = value else {
            try JinjaOperators.requireDefined(value)
            throw .evaluation("unsupported operand type(s) for +=: '\(value.typeName)' and 'str'")
        }
        let indentation: String
        switch bound[0] ?? .integer(4) {
        case .string(let prefix): indentation = prefix
        case let width:
            let count = try width.integerArgument("width")
            guard count <= limits.maximumLength else { throw .limitExceeded("a string longer than \(limits.maximumLength) bytes") }
            indentation = String(repeating: " ", count: max(0, count))
        }
        var lines = (text + "\n").pythonLines()
        var result: String
        if bound[2]?.isTruthy == true {
            result = lines.joined(separator: "\n" + indentation)
        } else {
            result = lines.isEmpty ? "" : lines.removeFirst()
            if !lines.isEmpty { result += "\n" + lines.map { $0.isEmpty ? $0 : indentation + $0 }.joined(separator: "\n") }
        }
        if bound[1]?.isTruthy == true { result = indentation + result }
        guard result.utf8.count <= limits.maximumLength else { throw .limitExceeded("a string longer than \(limits.maximumLength) bytes") }
        return .string(result)
    }

    /// The order of `keys` sorted stably by Python's `<`, equal keys keeping their order also
    /// when reversed, as Python's `sorted` does.
    private static func stableOrder(_ keys: [JinjaValue], reverse: Bool) throws(JinjaFailure) -> [Int] {
        var order = Array(keys.indices)
        var buffer = order
        var width = 1
        while width < order.count {
            var start = 0
            while start < order.count {
                let middle = min(start + width, order.count)
                let end = min(start + 2 * width, order.count)
                var left = start
                var right = middle
                var index = start
                while left < middle, right < end {
                    let takesRight = reverse
                        ? try JinjaOperators.less(keys[order[left]], keys[order[right]])
                        : try JinjaOperators.less(keys[order[right]], keys[order[left]])
                    if takesRight {
                        buffer[index] = order[right]
                        right += 1
                    } else {
                        buffer[index] = order[left]
                        left += 1
                    }
                    index += 1
                }
                while left < middle {
                    buffer[index] = order[left]
                    left += 1
                    index += 1
                }
                while right < end {
                    buffer[index] = order[right]
                    right += 1
                    index += 1
                }
                start += 2 * width
            }
            swap(&order, &buffer)
            width *= 2
        }
        return order
    }

    /// A string lowered, for comparisons that ignore case; other values as they are.
    private static func ignoringCase(_ value: JinjaValue) -> JinjaValue {
        if case .string(let text) = value { return .string(text.lowercased()) }
        return value
    }

    /// markupsafe's escape of `&`, `<`, `>`, `'` and `"`.
    private static func escapingHTML(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "'": result += "&#39;"
            case "\"": result += "&#34;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// jinja2's `title`: each word (after `-`, whitespace or an opening bracket) with its first
    /// letter upper and the rest lower.
    private static func titleCasingWords(_ text: String) -> String {
        func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isPythonWhitespace || "-({[<".unicodeScalars.contains(scalar)
        }
        var result = ""
        var piece = String.UnicodeScalarView()
        var pieceIsSeparator = false
        func flush() {
            guard let first = piece.first else { return }
            result += String(first).uppercased() + String(scalars: piece.dropFirst()).lowercased()
            piece = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isSeparator(scalar) != pieceIsSeparator {
                flush()
                pieceIsSeparator = isSeparator(scalar)
            }
            piece.append(scalar)
        }
        flush()
        return result
    }

    /// Python's `float(value)`, or `nil` where it raises.
    private static func double(from value: JinjaValue) -> Double? {
        switch value {
        case .string(let text):
            let trimmed = text.pythonStrip(nil).replacingOccurrences(of: "_", with: "")
            guard !trimmed.lowercased().hasPrefix("0x"), !trimmed.lowercased().contains("p") else { return nil }
            return Double(trimmed)
        default:
            return value.number?.doubleValue
        }
    }

    /// Python's `int(value)` (`int(value, base)` for a string), then `int(float(value))`, or
    /// `nil` where both raise.
    private static func integer(from value: JinjaValue, base: Int) throws(JinjaFailure) -> Int? {
        switch value {
        case .string(let text):
            var digits = text.pythonStrip(nil).replacingOccurrences(of: "_", with: "")
            if digits.hasPrefix("+") { digits.removeFirst() }
            if (2...36).contains(base), let integer = Int(digits, radix: base) { return integer }
        case .integer(let integer): return integer
        case .boolean(let flag): return flag ? 1 : 0
        default: break
        }
        guard let double = double(from: value), double.isFinite else { return nil }
        guard let integer = Int(exactly: double.rounded(.towardZero)) else { throw .evaluation("cannot convert float to integer") }
        return integer
    }

    /// The `json.dumps` style of `tojson(ensure_ascii, indent, separators, sort_keys)`.
    private static func jsonStyle(_ bound: [JinjaValue?]) throws(JinjaFailure) -> JinjaJSON.Style {
        var style = JinjaJSON.Style()
        style.ensuresASCII = bound[0]?.isTruthy ?? false
        switch bound[1] {
        case nil, .none?: break
        case .string(let indent)?: style.indent = indent
        case let width?: style.indent = String(repeating: " ", count: max(0, min(try width.integerArgument("indent"), 1024)))
        }
        if style.indent != nil { style.itemSeparator = "," }
        if let separators = bound[2], separators != .none {
            guard case .array(let pair) = separators, pair.count == 2, case .string(let item) = pair[0], case .string(let key) = pair[1] else {
                throw .evaluation("separators must be a pair of strings")
            }
            style.itemSeparator = item
            style.keySeparator = key
        }
        style.sortsKeys = bound[3]?.isTruthy ?? false
        return style
    }
}
