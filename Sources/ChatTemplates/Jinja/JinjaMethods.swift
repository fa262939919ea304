/// The methods of strings, lists and dictionaries that templates call (`content.strip()`,
/// `message.get('tool_calls')`, `text.split('</think>')`), with Python's behaviour. Methods that
/// would change their receiver are refused, as jinja2's immutable sandbox refuses them.
enum JinjaMethods {
    static let stringMethods: Set<String> = [
        "capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format", "format_map", "index",
        "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
        "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans", "partition", "removeprefix", "removesuffix", "replace",
        "rfind", "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title",
        "translate", "upper", "zfill",
    ]
    static let listMethods: Set<String> = ["copy", "count", "index"]
    static let mutatingListMethods: Set<String> = ["append", "clear", "extend", "insert", "pop", "remove", "reverse", "sort"]
    static let dictionaryMethods: Set<String> = ["copy", "fromkeys", "get", "items", "keys", "values"]
    static let mutatingDictionaryMethods: Set<String> = ["clear", "pop", "popitem", "setdefault", "update"]

    /// The method `name` of `value` bound to it; for one the sandbox refuses, an undefined value
    /// that fails when called; `nil` when the value has no such method.
    static func lookup(_ name: String, on value: JinjaValue) -> JinjaValue? {
        let bound = JinjaValue.callable(JinjaCallable(kind: .method(value, name)))
        switch value {
        case .string:
            return stringMethods.contains(name) ? bound : nil
        case .array:
            if mutatingListMethods.contains(name) { return .undefined("access to attribute '\(name)' of 'list' object is unsafe.") }
            return listMethods.contains(name) ? bound : nil
        case .dictionary:
            if mutatingDictionaryMethods.contains(name) { return .undefined("access to attribute '\(name)' of 'dict' object is unsafe.") }
            return dictionaryMethods.contains(name) ? bound : nil
        default:
            return nil
        }
    }
}

extension JinjaInterpreter {
    /// Calls the method `name` of `receiver`.
    func callMethod(_ name: String, on receiver: JinjaValue, with arguments: JinjaArguments) throws(JinjaFailure) -> JinjaValue {
        switch receiver {
        case .string(let text): return try callStringMethod(name, on: text, with: arguments)
        case .array(let items):
            switch name {
            case "copy":
                try arguments.expectNone(name)
                return receiver
            case "count":
                guard let item = try arguments.bind(name, ["value"])[0] else { throw .evaluation("count() takes exactly one argument") }
                return .integer(items.filter { JinjaOperators.equals($0, item) }.count)
            case "index":
                guard let item = try arguments.bind(name, ["value"])[0] else { throw .evaluation("index() takes at least 1 argument") }
                guard let index = items.firstIndex(where: { JinjaOperators.equals($0, item) }) else {
                    throw .evaluation("\(try representation(item, level: 0)) is not in list")
                }
                return .integer(index)
            default: break
            }
        case .dictionary(let dictionary):
            switch name {
            case "get":
                let bound = try arguments.bind(name, ["key", "default"])
                guard let key = bound[0] else { throw .evaluation("get expected at least 1 argument, got 0") }
                guard JinjaDictionary.Key(key) != nil else { throw .evaluation("unhashable type: '\(key.typeName)'") }
                return dictionary.value(for: key) ?? bound[1] ?? .none
            case "items":
                try arguments.expectNone(name)
                return .array(dictionary.pairs.map { .array([$0, $1]) })
            case "keys":
                try arguments.expectNone(name)
                return .array(dictionary.keys)
            case "values":
                try arguments.expectNone(name)
                return .array(dictionary.values)
            case "copy":
                try arguments.expectNone(name)
                return receiver
            default: break
            }
        default: break
        }
        throw .unsupported("method '\(receiver.typeName).\(name)'")
    }

    private func callStringMethod(_ name: String, on text: String, with arguments: JinjaArguments) throws(JinjaFailure) -> JinjaValue {
        func optionalString(_ value: JinjaValue?, _ parameter: String) throws(JinjaFailure) -> String? {
            guard let value, value != .none else { return nil }
            return try value.stringArgument(parameter)
        }
        switch name {
        case "strip", "lstrip", "rstrip":
            let characters = try optionalString(try arguments.bind(name, ["chars"])[0], "chars")
            return .string(text.pythonStrip(characters, leading: name != "rstrip", trailing: name != "lstrip"))
        case "split", "rsplit":
            let bound = try arguments.bind(name, ["sep", "maxsplit"])
            let separator = try optionalString(bound[0], "sep")
            if separator?.isEmpty == true { throw .evaluation("empty separator") }
            let limit = try bound[1]?.integerArgument("maxsplit") ?? -1
            let parts = name == "split" ? text.pythonSplit(separator, limit: limit) : text.pythonReverseSplit(separator, limit: limit)
            return .array(parts.map { .string($0) })
        case "startswith", "endswith":
            let bound = try arguments.bind(name, ["prefix", "start", "end"])
            guard let affix = bound[0] else { throw .evaluation("\(name)() takes at least 1 argument (0 given)") }
            var subject = text
            if bound[1] != nil || bound[2] != nil, case .string(let sliced) = try slice(.string(text), start: bound[1], stop: bound[2], step: nil) {
                subject = sliced
            }
            let candidates: [JinjaValue]
            if case .array(let items) = affix { candidates = items } else { candidates = [affix] }
            for candidate in candidates {
                guard case .string(let affixText) = candidate else {
                    throw .evaluation("\(name) first arg must be str or a tuple of str, not \(candidate.typeName)")
                }
                if name == "startswith" ? subject.hasScalarPrefix(affixText) : subject.hasScalarSuffix(affixText) { return .boolean(true) }
            }
            return .boolean(false)
        case "replace":
            let bound = try arguments.bind(name, ["old", "new", "count"])
            guard let old = bound[0], let new = bound[1] else { throw .evaluation("replace expected at least 2 arguments") }
            let oldText = try old.stringArgument("replace() argument 1")
            let newText = try new.stringArgument("replace() argument 2")
            return .string(try replacing(oldText, with: newText, in: text, count: try bound[2]?.integerArgument("count") ?? -1))
        case "upper", "lower", "casefold", "title", "capitalize", "swapcase":
            try arguments.expectNone(name)
            switch name {
            case "upper": return .string(text.uppercased())
            case "lower", "casefold": return .string(text.lowercased())
            case "title": return .string(text.pythonTitle())
            case "capitalize": return .string(text.pythonCapitalize())
            default:
                return .string(String(text.unicodeScalars.map { scalar in
                    scalar.properties.isUppercase ? scalar.properties.lowercaseMapping
                        : scalar.properties.isLowercase ? scalar.properties.uppercaseMapping : String(scalar)
                }.joined()))
            }
        case "join":
            guard let iterable = try arguments.bind(name, ["iterable"])[0] else { throw .evaluation("join() takes exactly one argument") }
            var parts: [String] = []
            for (index, item) in try iterate(iterable).enumerated() {
                guard case .string(let part) = item else {
                    throw .evaluation("sequence item \(index): expected str instance, \(item.typeName) found")
                }
                parts.append(part)
            }
            return .string(parts.joined(separator: text))
        case "find", "rfind", "index", "rindex", "count":
            guard let needle = try arguments.bind(name, ["sub"])[0] else { throw .evaluation("\(name)() takes at least 1 argument (0 given)") }
            let pattern = try needle.stringArgument("\(name)() argument")
            if name == "count" { return .integer(text.pythonCount(pattern)) }
            let scalars = text.scalars
            let patternScalars = pattern.scalars
            var found: Int?
            if name.hasPrefix("r") {
                var start = scalars.count - patternScalars.count
                while start >= 0, found == nil {
                    if scalars[start..<start + patternScalars.count].elementsEqual(patternScalars) { found = start }
                    start -= 1
                }
            } else {
                found = String.firstOccurrence(of: patternScalars, in: scalars)
            }
            if found == nil, name.hasSuffix("index") { throw .evaluation("substring not found") }
            return .integer(found ?? -1)
        case "isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace", "islower", "isupper", "isascii":
            try arguments.expectNone(name)
            return .boolean(Self.classify(name, text))
        case "splitlines":
            try arguments.expectNone(name)
            return .array(text.pythonLines().map { .string($0) })
        case "removeprefix", "removesuffix":
            guard let affix = try arguments.bind(name, ["affix"])[0] else { throw .evaluation("\(name)() takes exactly one argument") }
            let affixText = try affix.stringArgument("\(name)() argument")
            let scalars = text.scalars
            let count = affixText.unicodeScalars.count
            if name == "removeprefix", text.hasScalarPrefix(affixText) { return .string(String(scalars: scalars.dropFirst(count))) }
            if name == "removesuffix", count > 0, text.hasScalarSuffix(affixText) { return .string(String(scalars: scalars.dropLast(count))) }
            return .string(text)
        case "format":
            return .string(try format(text, with: arguments))
        case "center", "ljust", "rjust", "zfill":
            let bound = try arguments.bind(name, name == "zfill" ? ["width"] : ["width", "fillchar"])
            guard let width = try bound[0]?.integerArgument("width") else { throw .evaluation("\(name)() takes at least 1 argument") }
            guard width <= limits.maximumLength else { throw .limitExceeded("a string longer than \(limits.maximumLength) bytes") }
            let fill = name == "zfill" ? "0" : try optionalString(bound.count > 1 ? bound[1] : nil, "fillchar") ?? " "
            return .string(Self.pad(text, to: width, with: fill, method: name))
        default:
            throw .unsupported("method 'str.\(name)'")
        }
    }

    /// Python's `str.replace`, failing before it makes a string longer than the limit.
    func replacing(_ old: String, with new: String, in text: String, count: Int) throws(JinjaFailure) -> String {
        var occurrences = old.isEmpty ? text.unicodeScalars.count + 1 : text.pythonCount(old)
        if count >= 0 { occurrences = min(occurrences, count) }
        guard new.utf8.count <= old.utf8.count || occurrences <= (limits.maximumLength - text.utf8.count) / max(1, new.utf8.count - old.utf8.count)
        else {
            throw .limitExceeded("a string longer than \(limits.maximumLength) bytes")
        }
        return text.pythonReplace(old, with: new, count: count)
    }

    /// Python's `isdigit`, `isalpha` and the like.
    private static func classify(_ name: String, _ text: String) -> Bool {
        let scalars = text.scalars
        switch name {
        case "isascii": return scalars.allSatisfy(\.isASCII)
        case "islower", "isupper":
            let cased = scalars.filter { $0.properties.isLowercase || $0.properties.isUppercase }
            return !cased.isEmpty && cased.allSatisfy { name == "islower" ? $0.properties.isLowercase : $0.properties.isUppercase }
        default:
            guard !scalars.isEmpty else { return false }
            return scalars.allSatisfy { scalar in
                let category = scalar.properties.generalCategory
                let isDigit = category == .decimalNumber || scalar.properties.numericType == .digit
                let isNumeric = isDigit || scalar.properties.numericType != nil
                let isLetter = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter].contains(category)
                switch name {
                case "isdecimal": return category == .decimalNumber
                case "isdigit": return isDigit
                case "isnumeric": return isNumeric
                case "isalpha": return isLetter
                case "isalnum": return isLetter || isNumeric
                default: return scalar.isPythonWhitespace
                }
            }
        }
    }

    /// Python's `center`, `ljust`, `rjust` and `zfill`.
    private static func pad(_ text: String, to width: Int, with fill: String, method: String) -> String {
        let count = text.unicodeScalars.count
        guard width > count else { return text }
        let margin = width - count
        switch method {
        case "ljust": return text + String(repeating: fill, count: margin)
        case "rjust": return String(repeating: fill, count: margin) + text
        case "zfill":
            if let first = text.unicodeScalars.first, first == "+" || first == "-" {
                return String(first) + String(repeating: "0", count: margin) + String(scalars: text.unicodeScalars.dropFirst())
            }
            return String(repeating: "0", count: margin) + text
        default:
            let left = margin / 2 + (margin & width & 1)
            return String(repeating: fill, count: left) + text + String(repeating: fill, count: margin - left)
        }
    }

    /// Python's `str.format` with plain fields: `{}`, `{0}`, `{name}`, `{{` and `}}`.
    private func format(_ template: String, with arguments: JinjaArguments) throws(JinjaFailure) -> String {
        var result = ""
        let scalars = template.scalars
        var index = 0
        var automatic = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "}" {
                guard index + 1 < scalars.count, scalars[index + 1] == "}" else { throw .evaluation("Single '}' encountered in format string") }
                result += "}"
                index += 2
                continue
            }
            guard scalar == "{" else {
                result.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            if index + 1 < scalars.count, scalars[index + 1] == "{" {
                result += "{"
                index += 2
                continue
            }
            guard let end = scalars[index...].firstIndex(of: "}") else { throw .evaluation("Single '{' encountered in format string") }
            let field = String(scalars: scalars[(index + 1)..<end])
            index = end + 1
            let value: JinjaValue
            if field.isEmpty {
                guard automatic < arguments.positional.count else { throw .evaluation("Replacement index \(automatic) out of range") }
                value = arguments.positional[automatic]
                automatic += 1
            } else if let position = Int(field) {
                guard position >= 0, position < arguments.positional.count else { throw .evaluation("Replacement index \(position) out of range") }
                value = arguments.positional[position]
            } else if field.unicodeScalars.allSatisfy(\.isIdentifierContinuation) {
                guard let keyword = arguments.keywords.last(where: { $0.name == field }) else { throw .evaluation("'\(field)'") }
                value = keyword.value
            } else {
                throw .unsupported("format field '{\(field)}'")
            }
            result += try string(value)
        }
        return result
    }
}
