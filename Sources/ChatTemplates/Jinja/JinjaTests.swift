/// jinja2's tests, `value is name(arguments)`: `defined`, `none`, `string`, `mapping`,
/// `equalto` and the others, with Python's idea of each type (a boolean is a number, a string is
/// iterable, an undefined value is iterable and a sequence).
enum JinjaTests {
    static let names: Set<String> = [
        "boolean", "callable", "defined", "divisibleby", "eq", "equalto", "escaped", "even", "false", "filter", "float", "ge",
        "greaterthan", "gt", "in", "integer", "iterable", "le", "lessthan", "lower", "lt", "mapping", "ne", "none", "number", "odd",
        "sameas", "sequence", "string", "test", "true", "undefined", "upper", "==", "!=", "<", "<=", ">", ">=",
    ]
}

extension JinjaInterpreter {
    /// Whether `value` passes the test `name`.
    func test(_ name: String, _ value: JinjaValue, _ arguments: JinjaArguments, at location: JinjaSourceLocation) throws(JinjaError) -> Bool {
        guard JinjaTests.names.contains(name) else { throw .unsupported("test '\(name)'", at: location) }
        return try located(location) { () throws(JinjaFailure) in try passesTest(name, value, arguments) }
    }

    /// Whether `value` passes the test `name`, before the failure is placed in the template.
    func passesTest(_ name: String, _ value: JinjaValue, _ arguments: JinjaArguments) throws(JinjaFailure) -> Bool {
        func other() throws(JinjaFailure) -> JinjaValue {
            guard let argument = try arguments.bind(name, ["other"])[0] else { throw .evaluation("\(name)() missing 1 required positional argument") }
            return argument
        }
        switch name {
        case "defined": return !value.isUndefined
        case "undefined": return value.isUndefined
        case "none": return value == .none
        case "boolean": return if case .boolean = value { true } else { false }
        case "true": return value == .boolean(true)
        case "false": return value == .boolean(false)
        case "integer": return if case .integer = value { true } else { false }
        case "float": return value.isDouble
        case "number": return value.number != nil
        case "string": return if case .string = value { true } else { false }
        case "mapping": return if case .dictionary = value { true } else { false }
        case "iterable":
            switch value {
            case .undefined, .string, .array, .dictionary: return true
            default: return false
            }
        case "sequence":
            switch value {
            case .undefined, .string, .array, .dictionary: return true
            default: return false
            }
        case "callable": return if case .callable = value { true } else { false }
        case "escaped": return false
        case "lower", "upper":
            let text = try string(value)
            let cased = text.unicodeScalars.filter { $0.properties.isLowercase || $0.properties.isUppercase }
            return !cased.isEmpty && cased.allSatisfy { name == "lower" ? $0.properties.isLowercase : $0.properties.isUppercase }
        case "odd", "even":
            let remainder = try JinjaOperators.arithmetic(.modulo, value, .integer(2), maximumLength: limits.maximumLength)
            return JinjaOperators.equals(remainder, .integer(name == "odd" ? 1 : 0))
        case "divisibleby":
            let remainder = try JinjaOperators.arithmetic(.modulo, value, try other(), maximumLength: limits.maximumLength)
            return JinjaOperators.equals(remainder, .integer(0))
        case "eq", "equalto", "==": return JinjaOperators.equals(value, try other())
        case "ne", "!=": return !JinjaOperators.equals(value, try other())
        case "lt", "lessthan", "<": return try JinjaOperators.compare(value, .less, try other())
        case "le", "<=": return try JinjaOperators.compare(value, .lessOrEqual, try other())
        case "gt", "greaterthan", ">": return try JinjaOperators.compare(value, .greater, try other())
        case "ge", ">=": return try JinjaOperators.compare(value, .greaterOrEqual, try other())
        case "in": return try JinjaOperators.contains(try other(), value)
        case "sameas":
            let other = try other()
            switch (value, other) {
            case (.none, .none): return true
            case (.boolean(let a), .boolean(let b)): return a == b
            case (.integer(let a), .integer(let b)): return a == b && (-5...256).contains(a)
            case (.namespace(let a), .namespace(let b)): return a == b
            default: return false
            }
        case "filter":
            guard case .string(let filter) = value else { return false }
            return JinjaFilters.names.contains(filter)
        case "test":
            guard case .string(let test) = value else { return false }
            return JinjaTests.names.contains(test)
        default:
            throw .unsupported("test '\(name)'")
        }
    }
}
