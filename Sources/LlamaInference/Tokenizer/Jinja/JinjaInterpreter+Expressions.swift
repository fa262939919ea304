extension JinjaInterpreter {
    /// The value of `expression` in `scope`.
    func evaluate(_ expression: JinjaExpression, in scope: Scope) throws(JinjaError) -> JinjaValue {
        try enter(at: expression.location)
        defer { leave() }
        let value = try value(of: expression, in: scope)
        switch value {
        case .string(let text) where text.utf8.count > limits.maximumLength:
            throw .limitExceeded("a string longer than \(limits.maximumLength) bytes", at: expression.location)
        case .array(let items) where items.count > limits.maximumLength:
            throw .limitExceeded("a list longer than \(limits.maximumLength) items", at: expression.location)
        default:
            return value
        }
    }

    private func value(of expression: JinjaExpression, in scope: Scope) throws(JinjaError) -> JinjaValue {
        let location = expression.location
        switch expression.kind {
        case .literal(let value):
            return value
        case .name(let name):
            return lookup(name, in: scope)
        case .list(let items), .tuple(let items):
            var values: [JinjaValue] = []
            for item in items { values.append(try evaluate(item, in: scope)) }
            return try checkedNesting(.array(values), at: location)
        case .dictionary(let pairs):
            var dictionary = JinjaDictionary()
            for pair in pairs {
                let key = try evaluate(pair.key, in: scope)
                guard dictionary.setValue(try evaluate(pair.value, in: scope), for: key) else {
                    throw .evaluation("unhashable type: '\(key.typeName)'", at: pair.key.location)
                }
            }
            return try checkedNesting(.dictionary(dictionary), at: location)
        case .attribute(let base, let name):
            if case .name("loop") = base.kind, let loop = loopState(in: scope) {
                return loopAttribute(name, of: loop) ?? .undefined("'LoopContext object' has no attribute '\(name)'")
            }
            let value = try evaluate(base, in: scope)
            return try located(location) { () throws(JinjaFailure) in try attribute(name, of: value) }
        case .item(let base, let index):
            let value = try evaluate(base, in: scope)
            let key = try evaluate(index, in: scope)
            return try located(location) { () throws(JinjaFailure) in try item(key, of: value) }
        case .slice(let base, let start, let stop, let step):
            let value = try evaluate(base, in: scope)
            let bounds = (try start.map { e throws(JinjaError) in try evaluate(e, in: scope) },
                try stop.map { e throws(JinjaError) in try evaluate(e, in: scope) },
                try step.map { e throws(JinjaError) in try evaluate(e, in: scope) })
            return try located(location) { () throws(JinjaFailure) in try slice(value, start: bounds.0, stop: bounds.1, step: bounds.2) }
        case .call(let callee, let arguments):
            let function = try evaluate(callee, in: scope)
            return try call(function, with: try evaluate(arguments, in: scope), at: location)
        case .filter(let base, let name, let arguments):
            let value = try evaluate(base, in: scope)
            return try filter(name, value, try evaluate(arguments, in: scope), at: location)
        case .test(let base, let name, let arguments, let negated):
            let value = try evaluate(base, in: scope)
            let passes = try test(name, value, try evaluate(arguments, in: scope), at: location)
            return .boolean(passes != negated)
        case .not(let operand):
            return .boolean(!(try evaluate(operand, in: scope)).isTruthy)
        case .negate(let operand), .plus(let operand):
            let value = try evaluate(operand, in: scope)
            let negated = if case .negate = expression.kind { true } else { false }
            return try located(location) { () throws(JinjaFailure) in try JinjaOperators.sign(value, negated: negated) }
        case .binary:
            return try evaluateChain(expression, in: scope)
        case .comparison(let first, let rest):
            var left = try evaluate(first, in: scope)
            for (operation, operand) in rest {
                let right = try evaluate(operand, in: scope)
                let holds = try located(operand.location) { () throws(JinjaFailure) in try JinjaOperators.compare(left, operation, right) }
                guard holds else { return .boolean(false) }
                left = right
            }
            return .boolean(true)
        case .conditional(let condition, let then, let otherwise):
            if try evaluate(condition, in: scope).isTruthy { return try evaluate(then, in: scope) }
            guard let otherwise else {
                return .undefined("the inline if-expression on line \(location.line) evaluated to false and no else section was defined.")
            }
            return try evaluate(otherwise, in: scope)
        }
    }

    /// Evaluates a chain of binary operators down its left side in a loop, so that a long
    /// `a + b + c + ...` does not recurse; `and` and `or` short-circuit as in Python.
    private func evaluateChain(_ expression: JinjaExpression, in scope: Scope) throws(JinjaError) -> JinjaValue {
        var operations: [(JinjaExpression.BinaryOperator, JinjaExpression, JinjaSourceLocation)] = []
        var leftmost = expression
        while case .binary(let operation, let left, let right) = leftmost.kind {
            operations.append((operation, right, leftmost.location))
            leftmost = left
        }
        var value = try evaluate(leftmost, in: scope)
        for (operation, operand, location) in operations.reversed() {
            switch operation {
            case .and:
                if value.isTruthy { value = try evaluate(operand, in: scope) }
            case .or:
                if !value.isTruthy { value = try evaluate(operand, in: scope) }
            case .concatenate:
                let right = try evaluate(operand, in: scope)
                let left = value
                let text = try located(location) { () throws(JinjaFailure) in try string(left) + string(right) }
                guard text.utf8.count <= limits.maximumLength else {
                    throw .limitExceeded("a string longer than \(limits.maximumLength) bytes", at: location)
                }
                value = .string(text)
            default:
                let right = try evaluate(operand, in: scope)
                let left = value
                value = try located(location) { () throws(JinjaFailure) in
                    try JinjaOperators.arithmetic(operation, left, right, maximumLength: limits.maximumLength)
                }
            }
        }
        return value
    }

    func evaluate(_ arguments: JinjaExpression.Arguments, in scope: Scope) throws(JinjaError) -> JinjaArguments {
        var evaluated = JinjaArguments()
        for argument in arguments.positional { evaluated.positional.append(try evaluate(argument, in: scope)) }
        for (name, argument) in arguments.keywords { evaluated.keywords.append((name, try evaluate(argument, in: scope))) }
        return evaluated
    }

    /// `value`, unless it nests deeper than a render allows (which would also make it too deep
    /// to print or to free without exhausting the stack).
    private func checkedNesting(_ value: JinjaValue, at location: JinjaSourceLocation) throws(JinjaError) -> JinjaValue {
        let limit = JinjaJSON.maximumNesting - 1
        guard value.nesting(upTo: limit) <= limit else {
            throw .limitExceeded("a value nests deeper than \(limit) levels", at: location)
        }
        return value
    }

    // MARK: Attributes and items

    /// `value.name`: a method of the value first, then its item `name`, as jinja2's sandbox
    /// looks attributes up; undefined when it has neither.
    func attribute(_ name: String, of value: JinjaValue) throws(JinjaFailure) -> JinjaValue {
        try JinjaOperators.requireDefined(value)
        if let method = JinjaMethods.lookup(name, on: value) { return method }
        switch value {
        case .dictionary(let dictionary):
            if let item = dictionary[name] { return item }
        case .namespace(let namespace):
            if let item = namespaces[namespace.index][name] { return item }
        default:
            break
        }
        return .undefined("\(Self.objectDescription(value)) has no attribute '\(name)'")
    }

    /// `value[key]`: the item first, then a method of the value named `key`; undefined when it
    /// has neither.
    func item(_ key: JinjaValue, of value: JinjaValue) throws(JinjaFailure) -> JinjaValue {
        try JinjaOperators.requireDefined(value)
        switch value {
        case .dictionary(let dictionary):
            if let item = dictionary.value(for: key) { return item }
        case .array(let items):
            if let index = Self.index(key, count: items.count) { return items[index] }
        case .string(let text):
            let scalars = text.scalars
            if let index = Self.index(key, count: scalars.count) { return .string(String(scalars[index])) }
        default:
            break
        }
        if case .string(let name) = key {
            if let method = JinjaMethods.lookup(name, on: value) { return method }
            if case .namespace(let namespace) = value, let item = namespaces[namespace.index][name] { return item }
            return .undefined("\(Self.objectDescription(value)) has no attribute '\(name)'")
        }
        return .undefined("\(Self.objectDescription(value)) has no element \(try representation(key, level: 0))")
    }

    /// How jinja2's messages about missing attributes name the value.
    static func objectDescription(_ value: JinjaValue) -> String {
        if case .none = value { return "'None'" }
        return "'\(value.typeName) object'"
    }

    /// The position `key` indexes in a sequence of `count` (negative from the end), when it is
    /// an integer in range.
    private static func index(_ key: JinjaValue, count: Int) -> Int? {
        guard case .integer(var index)? = key.number else { return nil }
        if index < 0 { index += count }
        return (0..<count).contains(index) ? index : nil
    }

    /// `value[start:stop:step]` of a list or a string, with Python's bounds.
    func slice(_ value: JinjaValue, start: JinjaValue?, stop: JinjaValue?, step: JinjaValue?) throws(JinjaFailure) -> JinjaValue {
        try JinjaOperators.requireDefined(value)
        func bound(_ value: JinjaValue?) throws(JinjaFailure) -> Int? {
            guard let value, value != .none else { return nil }
            guard case .integer(let integer)? = value.number else {
                throw .evaluation("slice indices must be integers or None or have an __index__ method")
            }
            return integer
        }
        let positions: (Int) throws(JinjaFailure) -> [Int] = { count throws(JinjaFailure) in
            let stride = try bound(step) ?? 1
            guard stride != 0 else { throw .evaluation("slice step cannot be zero") }
            let lower = stride > 0 ? 0 : -1
            let upper = stride > 0 ? count : count - 1
            func clamp(_ bound: Int?, _ fallback: Int) -> Int {
                guard var index = bound else { return fallback }
                if index < 0 { index += count }
                return Swift.min(Swift.max(index, lower), upper)
            }
            var index = clamp(try bound(start), stride > 0 ? lower : upper)
            let end = clamp(try bound(stop), stride > 0 ? upper : lower)
            var result: [Int] = []
            while stride > 0 ? index < end : index > end {
                result.append(index)
                index += stride
            }
            return result
        }
        switch value {
        case .array(let items): return .array(try positions(items.count).map { items[$0] })
        case .string(let text):
            let scalars = text.scalars
            return .string(String(scalars: try positions(scalars.count).map { scalars[$0] }))
        default:
            return .undefined("\(Self.objectDescription(value)) cannot be sliced")
        }
    }

    // MARK: Calls

    /// Calls a macro, a global function or a method.
    func call(_ callee: JinjaValue, with arguments: JinjaArguments, at location: JinjaSourceLocation) throws(JinjaError) -> JinjaValue {
        guard case .callable(let callable) = callee else {
            if case .undefined(let hint) = callee { throw .evaluation(hint, at: location) }
            throw .evaluation("'\(callee.typeName)' object is not callable", at: location)
        }
        switch callable.kind {
        case .macro(let index):
            return try callMacro(macros[index], with: arguments, at: location)
        case .global(let name):
            return try callGlobal(name, with: arguments, at: location)
        case .method(let receiver, let name):
            return try located(location) { () throws(JinjaFailure) in try callMethod(name, on: receiver, with: arguments) }
        case .cycle(let index):
            guard !arguments.positional.isEmpty else { throw .evaluation("no items for cycling given", at: location) }
            return arguments.positional[index % arguments.positional.count]
        }
    }

    /// Runs a macro's body in a scope of its own, its parameters bound to the arguments (or
    /// their defaults), and returns what it writes.
    private func callMacro(_ macro: MacroInstance, with arguments: JinjaArguments, at location: JinjaSourceLocation) throws(JinjaError)
        -> JinjaValue
    {
        let definition = macro.definition
        let parameters = definition.parameters
        guard arguments.positional.count <= parameters.count else {
            throw .evaluation("macro '\(definition.name)' takes not more than \(parameters.count) argument(s)", at: location)
        }
        for (name, _) in arguments.keywords {
            guard let index = parameters.firstIndex(where: { $0.name == name }) else {
                throw .evaluation("macro '\(definition.name)' takes no keyword argument '\(name)'", at: location)
            }
            guard index >= arguments.positional.count else {
                throw .evaluation("macro '\(definition.name)' got multiple values for argument '\(name)'", at: location)
            }
        }
        try enter(at: location)
        defer { leave() }
        let scope = Scope(parent: macro.closure)
        for (index, parameter) in parameters.enumerated() {
            if index < arguments.positional.count {
                scope.variables[parameter.name] = arguments.positional[index]
            } else if let keyword = arguments.keywords.last(where: { $0.name == parameter.name }) {
                scope.variables[parameter.name] = keyword.value
            } else if let defaultValue = parameter.defaultValue {
                scope.variables[parameter.name] = try evaluate(defaultValue, in: scope)
            } else {
                scope.variables[parameter.name] = .undefined("parameter '\(parameter.name)' was not provided")
            }
        }
        var output = ""
        _ = try execute(definition.body, in: scope, into: &output)
        return .string(output)
    }
}
