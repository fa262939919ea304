/// A value a template reads or computes, with the Python types jinja2 gives it: what a caller
/// passes in (messages, tools: JSON-like values) and what a render makes (namespaces, macros,
/// methods).
///
/// `Equatable` compares structure (`1` differs from `1.0`); templates compare with Python's
/// rules.
public enum JinjaValue: Sendable, Equatable {
    /// A variable or attribute that does not exist, with what was looked up, for error messages.
    /// Printed, it is empty; tested, it is false; most other uses are errors, as in jinja2.
    case undefined(String)
    /// Python's `None`.
    case none
    /// A boolean.
    case boolean(Bool)
    /// An integer.
    case integer(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// A list (or tuple).
    case array([JinjaValue])
    /// A dictionary, in insertion order.
    case dictionary(JinjaDictionary)
    /// A `namespace()` made during a render.
    case namespace(JinjaNamespace)
    /// A macro, a global function or a bound method, made during a render.
    case callable(JinjaCallable)

    /// A dictionary of `pairs`, in their order.
    public static func dictionary(_ pairs: KeyValuePairs<String, JinjaValue>) -> JinjaValue {
        .dictionary(JinjaDictionary(pairs.map { ($0.key, $0.value) }))
    }
}

/// A namespace made by `namespace()` during a render, whose attributes `set` can change from
/// inside loops; it refers to the render's storage.
public struct JinjaNamespace: Sendable, Hashable {
    let index: Int
}

/// A value that can be called: a macro, a global function or a method bound to its receiver.
public struct JinjaCallable: Sendable, Equatable {
    indirect enum Kind: Sendable, Equatable {
        /// A macro, by its index in the render's macros.
        case macro(Int)
        /// A global function (`range`, `namespace`, `raise_exception`).
        case global(String)
        /// `receiver.name`, a method of a string, a list or a dictionary.
        case method(JinjaValue, String)
        /// `loop.cycle` of the iteration at `index`.
        case cycle(index: Int)
    }

    let kind: Kind
}

extension JinjaValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A floating-point number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// A list.
    public init(arrayLiteral elements: JinjaValue...) { self = .array(elements) }
    /// A dictionary with string keys, in the literal's order.
    public init(dictionaryLiteral elements: (String, JinjaValue)...) { self = .dictionary(JinjaDictionary(elements)) }
}

extension JinjaValue {
    /// Python's truth value: empty, zero, `None` and undefined are false.
    var isTruthy: Bool {
        switch self {
        case .undefined, .none: false
        case .boolean(let value): value
        case .integer(let value): value != 0
        case .double(let value): value != 0
        case .string(let value): !value.isEmpty
        case .array(let items): !items.isEmpty
        case .dictionary(let dictionary): dictionary.count > 0
        case .namespace, .callable: true
        }
    }

    var isDouble: Bool {
        if case .double = self { return true }
        return false
    }

    var isUndefined: Bool {
        if case .undefined = self { return true }
        return false
    }

    /// The name of the value's Python type, for error messages.
    var typeName: String {
        switch self {
        case .undefined: "Undefined"
        case .none: "NoneType"
        case .boolean: "bool"
        case .integer: "int"
        case .double: "float"
        case .string: "str"
        case .array: "list"
        case .dictionary: "dict"
        case .namespace: "Namespace"
        case .callable(let callable):
            switch callable.kind {
            case .macro: "Macro"
            case .global: "function"
            case .method, .cycle: "builtin_function_or_method"
            }
        }
    }

    /// The value as a number, when it is one (booleans are integers, as in Python).
    var number: JinjaNumber? {
        switch self {
        case .boolean(let value): .integer(value ? 1 : 0)
        case .integer(let value): .integer(value)
        case .double(let value): .double(value)
        default: nil
        }
    }

    /// How many levels of lists and dictionaries the value nests, counted up to `limit + 1`.
    func nesting(upTo limit: Int) -> Int {
        guard limit >= 0 else { return 1 }
        switch self {
        case .array(let items): return 1 + (items.lazy.map { $0.nesting(upTo: limit - 1) }.max() ?? 0)
        case .dictionary(let dictionary): return 1 + (dictionary.values.lazy.map { $0.nesting(upTo: limit - 1) }.max() ?? 0)
        default: return 0
        }
    }
}

/// A number, for arithmetic with Python's rules.
enum JinjaNumber {
    case integer(Int)
    case double(Double)

    var doubleValue: Double {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        }
    }
}
