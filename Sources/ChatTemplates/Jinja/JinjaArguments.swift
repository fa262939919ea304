/// The evaluated arguments of a call, a filter or a test, and their binding to the parameters of
/// the function they go to, with Python's errors.
struct JinjaArguments {
    var positional: [JinjaValue] = []
    var keywords: [(name: String, value: JinjaValue)] = []

    /// The arguments bound to `parameters` in order (positional first, then by name), `nil` for
    /// those not given; `function` names the callee in errors.
    func bind(_ function: String, _ parameters: [String]) throws(JinjaFailure) -> [JinjaValue?] {
        guard positional.count <= parameters.count else {
            throw .evaluation("\(function)() takes at most \(parameters.count) argument(s) (\(positional.count) given)")
        }
        var bound: [JinjaValue?] = positional.map { $0 } + Array(repeating: nil, count: parameters.count - positional.count)
        for (name, value) in keywords {
            guard let index = parameters.firstIndex(of: name) else {
                throw .evaluation("\(function)() got an unexpected keyword argument '\(name)'")
            }
            guard bound[index] == nil else { throw .evaluation("\(function)() got multiple values for argument '\(name)'") }
            bound[index] = value
        }
        return bound
    }

    /// Throws unless there are no arguments.
    func expectNone(_ function: String) throws(JinjaFailure) {
        _ = try bind(function, [])
    }
}

extension JinjaValue {
    /// The value as an integer argument (booleans count), or a type error naming `parameter`.
    func integerArgument(_ parameter: String) throws(JinjaFailure) -> Int {
        switch self {
        case .integer(let value): return value
        case .boolean(let flag): return flag ? 1 : 0
        default: throw .evaluation("'\(typeName)' object cannot be interpreted as an integer (\(parameter))")
        }
    }

    /// The value as a string argument, or a type error naming `parameter`.
    func stringArgument(_ parameter: String) throws(JinjaFailure) -> String {
        guard case .string(let value) = self else { throw .evaluation("\(parameter) must be str, not \(typeName)") }
        return value
    }
}
