/// The functions every template can call: jinja2's (`range`, `namespace`, `dict`) and those
/// Hugging Face adds for chat templates (`raise_exception`, `strftime_now`).
enum JinjaGlobals {
    static let names: Set<String> = ["range", "namespace", "dict", "raise_exception", "strftime_now", "lipsum", "cycler", "joiner"]
    /// The longest `range` jinja2's sandbox allows.
    static let maximumRange = 100_000
}

extension JinjaInterpreter {
    /// Calls the global function `name`.
    func callGlobal(_ name: String, with arguments: JinjaArguments, at location: JinjaSourceLocation) throws(JinjaError) -> JinjaValue {
        switch name {
        case "raise_exception":
            let message = try located(location) { () throws(JinjaFailure) in
                try string(try arguments.bind(name, ["message"])[0] ?? .undefined(""))
            }
            throw .raised(message, at: location)
        case "strftime_now":
            return try located(location) { () throws(JinjaFailure) in
                guard let format = try arguments.bind(name, ["format"])[0] else { throw .evaluation("strftime_now() missing 1 required argument: 'format'") }
                return .string(try JinjaStrftime.format(now, try format.stringArgument("format")))
            }
        case "range":
            return try located(location) { () throws(JinjaFailure) in try range(arguments) }
        case "namespace", "dict":
            let attributes = try located(location) { () throws(JinjaFailure) in try dictionary(name, from: arguments) }
            guard name == "namespace" else { return .dictionary(attributes) }
            namespaces.append(attributes)
            return .namespace(JinjaNamespace(index: namespaces.count - 1))
        default:
            throw .unsupported("function '\(name)'", at: location)
        }
    }

    /// `range(stop)`, `range(start, stop)` or `range(start, stop, step)`, as a list.
    private func range(_ arguments: JinjaArguments) throws(JinjaFailure) -> JinjaValue {
        guard arguments.keywords.isEmpty else { throw .evaluation("range() takes no keyword arguments") }
        var values: [Int] = []
        for argument in arguments.positional { values.append(try argument.integerArgument("range")) }
        let start: Int
        let stop: Int
        var step = 1
        switch values.count {
        case 1: (start, stop) = (0, values[0])
        case 2: (start, stop) = (values[0], values[1])
        case 3: (start, stop, step) = (values[0], values[1], values[2])
        default: throw .evaluation("range expected at most 3 arguments, got \(values.count)")
        }
        guard step != 0 else { throw .evaluation("range() arg 3 must not be zero") }
        // The span in unsigned arithmetic, which holds the distance between any two integers.
        let (low, high) = step > 0 ? (start, stop) : (stop, start)
        let span = high > low ? UInt(bitPattern: high &- low) : 0
        let count = span == 0 ? 0 : (span - 1) / step.magnitude + 1
        guard count <= JinjaGlobals.maximumRange else {
            throw .evaluation("Range too big. The sandbox blocks ranges larger than MAX_RANGE (\(JinjaGlobals.maximumRange)).")
        }
        return .array((0..<Int(count)).map { .integer(start + $0 * step) })
    }

    /// The attributes `namespace(...)` or `dict(...)` starts with: a mapping or a list of pairs,
    /// then keyword arguments.
    private func dictionary(_ function: String, from arguments: JinjaArguments) throws(JinjaFailure) -> JinjaDictionary {
        guard arguments.positional.count <= 1 else { throw .evaluation("\(function) expected at most 1 argument, got \(arguments.positional.count)") }
        var dictionary = JinjaDictionary()
        if let initial = arguments.positional.first {
            switch initial {
            case .dictionary(let mapping): dictionary = mapping
            default:
                for pair in try iterate(initial) {
                    let items = try iterate(pair)
                    guard items.count == 2, dictionary.setValue(items[1], for: items[0]) else {
                        throw .evaluation("cannot convert \(function) update sequence element to a key and a value")
                    }
                }
            }
        }
        for (name, value) in arguments.keywords { dictionary[name] = value }
        return dictionary
    }
}
