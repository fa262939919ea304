import Foundation

/// Python's operators on template values: equality, ordering, membership and arithmetic, with
/// Python's results (`7 // -2` is `-4`, `1 == 1.0`, `'a' * 3`) and its type errors. An undefined
/// operand fails with what was undefined, as jinja2's `Undefined` does.
enum JinjaOperators {
    /// Throws the undefined value's message when `value` is undefined.
    static func requireDefined(_ value: JinjaValue) throws(JinjaFailure) {
        if case .undefined(let hint) = value { throw .evaluation(hint) }
    }

    /// Python's `==`.
    static func equals(_ left: JinjaValue, _ right: JinjaValue) -> Bool {
        if let a = left.number, let b = right.number {
            switch (a, b) {
            case (.integer(let x), .integer(let y)): return x == y
            default: return a.doubleValue == b.doubleValue
            }
        }
        switch (left, right) {
        case (.undefined, .undefined), (.none, .none): return true
        case (.string(let a), .string(let b)): return a.isScalarEqual(to: b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equals($0, $1) }
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a.pairs {
                guard let other = b.value(for: key), equals(value, other) else { return false }
            }
            return true
        case (.namespace(let a), .namespace(let b)): return a == b
        case (.callable(let a), .callable(let b)): return a == b
        default: return false
        }
    }

    /// Python's `<`, or a type error for values it does not order.
    static func less(_ left: JinjaValue, _ right: JinjaValue, symbol: String = "<") throws(JinjaFailure) -> Bool {
        try requireDefined(left)
        try requireDefined(right)
        if let a = left.number, let b = right.number {
            switch (a, b) {
            case (.integer(let x), .integer(let y)): return x < y
            default: return a.doubleValue < b.doubleValue
            }
        }
        switch (left, right) {
        case (.string(let a), .string(let b)): return a.isScalarLess(than: b)
        case (.array(let a), .array(let b)):
            for (x, y) in zip(a, b) where !equals(x, y) { return try less(x, y, symbol: symbol) }
            return a.count < b.count
        default:
            throw .evaluation("'\(symbol)' not supported between instances of '\(left.typeName)' and '\(right.typeName)'")
        }
    }

    /// Python's comparison operators.
    static func compare(_ left: JinjaValue, _ operation: JinjaExpression.ComparisonOperator, _ right: JinjaValue) throws(JinjaFailure)
        -> Bool
    {
        switch operation {
        case .equal: equals(left, right)
        case .notEqual: !equals(left, right)
        case .less: try less(left, right, symbol: "<")
        case .greater: try less(right, left, symbol: ">")
        case .lessOrEqual: try !less(right, left, symbol: "<=")
        case .greaterOrEqual: try !less(left, right, symbol: ">=")
        case .contained: try contains(right, left)
        case .notContained: try !contains(right, left)
        }
    }

    /// Python's `item in container`.
    static func contains(_ container: JinjaValue, _ item: JinjaValue) throws(JinjaFailure) -> Bool {
        switch container {
        case .undefined: return false
        case .string(let text):
            guard case .string(let needle) = item else {
                try requireDefined(item)
                throw .evaluation("'in <string>' requires string as left operand, not \(item.typeName)")
            }
            return text.containsScalars(needle)
        case .array(let items): return items.contains { equals($0, item) }
        case .dictionary(let dictionary):
            guard JinjaDictionary.Key(item) != nil else { throw .evaluation("unhashable type: '\(item.typeName)'") }
            return dictionary.contains(item)
        default: throw .evaluation("argument of type '\(container.typeName)' is not iterable")
        }
    }

    /// A binary arithmetic operator; results longer than `maximumLength` (scalars of a string,
    /// items of a list) fail.
    static func arithmetic(_ operation: JinjaExpression.BinaryOperator, _ left: JinjaValue, _ right: JinjaValue, maximumLength: Int)
        throws(JinjaFailure) -> JinjaValue
    {
        try requireDefined(left)
        try requireDefined(right)
        if let a = left.number, let b = right.number { return try numeric(operation, a, b) }
        switch (operation, left, right) {
        case (.add, .string(let a), .string(let b)): return .string(a + b)
        case (.add, .array(let a), .array(let b)): return .array(a + b)
        case (.multiply, .string(let text), _), (.multiply, _, .string(let text)):
            guard let count = (left.number == nil ? right : left).number, case .integer(let times) = count else { break }
            guard times <= 0 || text.utf8.count <= maximumLength / times else { throw .limitExceeded("a string longer than \(maximumLength) bytes") }
            return .string(String(repeating: text, count: max(0, times)))
        case (.multiply, .array(let items), _), (.multiply, _, .array(let items)):
            guard let count = (left.number == nil ? right : left).number, case .integer(let times) = count else { break }
            guard times <= 0 || items.count <= maximumLength / times else { throw .limitExceeded("a list longer than \(maximumLength) items") }
            return .array(Array([[JinjaValue]](repeating: items, count: max(0, times)).joined()))
        case (.modulo, .string, _):
            throw .unsupported("string formatting with '%'")
        default:
            break
        }
        if operation == .add, case .string = left {
            throw .evaluation("can only concatenate str (not \"\(right.typeName)\") to str")
        }
        if operation == .add, case .array = left {
            throw .evaluation("can only concatenate list (not \"\(right.typeName)\") to list")
        }
        throw .evaluation("unsupported operand type(s) for \(operation.rawValue): '\(left.typeName)' and '\(right.typeName)'")
    }

    private static func numeric(_ operation: JinjaExpression.BinaryOperator, _ left: JinjaNumber, _ right: JinjaNumber) throws(JinjaFailure)
        -> JinjaValue
    {
        if case .integer(let a) = left, case .integer(let b) = right {
            func checked(_ result: (partialValue: Int, overflow: Bool)) throws(JinjaFailure) -> JinjaValue {
                guard !result.overflow else { throw .evaluation("integer overflow") }
                return .integer(result.partialValue)
            }
            switch operation {
            case .add: return try checked(a.addingReportingOverflow(b))
            case .subtract: return try checked(a.subtractingReportingOverflow(b))
            case .multiply: return try checked(a.multipliedReportingOverflow(by: b))
            case .divide:
                guard b != 0 else { throw .evaluation("division by zero") }
                return .double(Double(a) / Double(b))
            case .floorDivide, .modulo:
                guard b != 0 else { throw .evaluation("integer division or modulo by zero") }
                guard !(a == .min && b == -1) else { throw .evaluation("integer overflow") }
                var quotient = a / b
                var remainder = a % b
                if remainder != 0, (remainder < 0) != (b < 0) {
                    quotient -= 1
                    remainder += b
                }
                return .integer(operation == .floorDivide ? quotient : remainder)
            case .power:
                guard b >= 0 else {
                    guard a != 0 else { throw .evaluation("0.0 cannot be raised to a negative power") }
                    return .double(Foundation.pow(Double(a), Double(b)))
                }
                var result = 1
                var base = a
                var exponent = b
                while exponent > 0 {
                    if exponent & 1 == 1 { result = try checked(result.multipliedReportingOverflow(by: base)).integerPayload }
                    exponent >>= 1
                    if exponent > 0 { base = try checked(base.multipliedReportingOverflow(by: base)).integerPayload }
                }
                return .integer(result)
            default: break
            }
        }
        let a = left.doubleValue
        let b = right.doubleValue
        switch operation {
        case .add: return .double(a + b)
        case .subtract: return .double(a - b)
        case .multiply: return .double(a * b)
        case .divide:
            guard b != 0 else { throw .evaluation("float division by zero") }
            return .double(a / b)
        case .floorDivide:
            guard b != 0 else { throw .evaluation("float floor division by zero") }
            return .double(((a - pythonModulo(a, b)) / b).rounded())
        case .modulo:
            guard b != 0 else { throw .evaluation("float modulo") }
            return .double(pythonModulo(a, b))
        case .power:
            guard a != 0 || b >= 0 else { throw .evaluation("0.0 cannot be raised to a negative power") }
            return .double(Foundation.pow(a, b))
        default:
            throw .evaluation("unsupported operand for \(operation.rawValue)")
        }
    }

    /// Python's float `%`: the remainder takes the sign of the divisor.
    private static func pythonModulo(_ a: Double, _ b: Double) -> Double {
        var remainder = fmod(a, b)
        if remainder != 0, (remainder < 0) != (b < 0) { remainder += b }
        return remainder
    }

    /// Python's unary `-` and `+`.
    static func sign(_ value: JinjaValue, negated: Bool) throws(JinjaFailure) -> JinjaValue {
        try requireDefined(value)
        switch value.number {
        case .integer(let integer)?:
            guard negated else { return .integer(integer) }
            guard integer != .min else { throw .evaluation("integer overflow") }
            return .integer(-integer)
        case .double(let double)?:
            return .double(negated ? -double : double)
        case nil:
            throw .evaluation("bad operand type for unary \(negated ? "-" : "+"): '\(value.typeName)'")
        }
    }
}

extension JinjaValue {
    /// The integer of an `.integer`, else 0.
    fileprivate var integerPayload: Int {
        if case .integer(let value) = self { return value }
        return 0
    }
}
