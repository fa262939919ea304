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

    /// Dispatches on the kind of expression. Each kind is evaluated by a function of its own, so
    /// that the frames of the functions that recurse stay small.
    private func value(of expression: JinjaExpression, in scope: Scope) throws(JinjaError) -> JinjaValue {
        switch expression.kind {
        case .literal(let value): value
        case .name(let name): lookup(name, in: scope)
        case .list(let items), .tuple(let items): try evaluateList(items, at: expression.location, in: scope)
        case .dictionary(let pairs): try evaluateDictionary(pairs, at: expression.location, in: scope)
        case .attribute(let base, let name): try evaluateAttribute(name, of: base, at: expression.location, in: scope)
        case .item(let base, let index): try evaluateItem(index, of: base, at: expression.location, in: scope)
        case .slice(let base, let start, let stop, let step):
            try evaluateSlice(base, bounds: [start, stop, step], at: expression.location, in: scope)
        case .call(let callee, let arguments): try evaluateCall(callee, arguments, at: expression.location, in: scope)
        case .filter(let base, let name, let arguments): try evaluateFilter(name, base, arguments, at: expression.location, in: scope)
        case .test(let base, let name, let arguments, let negated):
            try evaluateTest(name, base, arguments, negated: negated, at: expression.location, in: scope)
        case .not(let operand): .boolean(!(try evaluate(operand, in: scope)).isTruthy)
        case .negate(let operand): try evaluateSign(operand, negated: true, at: expression.location, in: scope)
        case .plus(let operand): try evaluateSign(operand, negated: false, at: expression.location, in: scope)
        case .binary(let first, let steps): try evaluateChain(first, steps, in: scope)
        case .comparison(let first, let rest): try evaluateComparison(first, rest, in: scope)
        case .conditional(let condition, let then, let otherwise):
            try evaluateConditional(condition, then, otherwise, at: expression.location, in: scope)
        }
    }

    private func evaluateList(_ items: [JinjaExpression], at location: JinjaSourceLocation, in scope: Scope) throws(JinjaError) -> JinjaValue {
        var values: [JinjaValue] = []
        for item in items { values.append(try evaluate(item, in: scope)) }
        return try checkedNesting(.array(values), at: location)
    }

    private func evaluateDictionary(_ pairs: [(key: JinjaExpression, value: JinjaExpression)], at location: JinjaSourceLocation, in scope: Scope)
        throws(JinjaError) -> JinjaValue
    {
        var dictionary = JinjaDictionary()
        for pair in pairs {
            let key = try evaluate(pair.key, in: scope)
            guard dictionary.setValue(try evaluate(pair.value, in: scope), for: key) else {
                throw .evaluation("unhashable type: '\(key.typeName)'", at: pair.key.location)
            }
        }
        return try checkedNesting(.dictionary(dictionary), at: location)
    }

    private func evaluateAttribute(_ name: String, of base: JinjaExpression, at location: JinjaSourceLocation, in scope: Scope)
        throws(JinjaError) -> JinjaValue
    {
        if case .name("loop") = base.kind, let loop = loopState(in: scope) {
            return loopAttribute(name, of: loop) ?? .undefined("'LoopContext object' has no attribute '\(name)'")
        }
        let value = try evaluate(base, in: scope)
        return try located(location) { () throws(JinjaFailure) in try attribute(name, of: value) }
    }

    private func evaluateItem(_ index: JinjaExpression, of base: JinjaExpression, at location: JinjaSourceLocation, in scope: Scope)
        throws(JinjaError) -> JinjaValue
    {
        let value = try evaluate(base, in: scope)
        let key = try evaluate(index, in: scope)
        return try located(location) { () throws(JinjaFailure) in try item(key, of: value) }
    }

    private func evaluateSlice(_ base: JinjaExpression, bounds: [JinjaExpression?], at location: JinjaSourceLocation, in scope: Scope)
        throws(JinjaError) -> JinjaValue
    {
        let value = try evaluate(base, in: scope)
        var values: [JinjaValue?] = []
        for bound in bounds { values.append(try bound.map { bound throws(JinjaError) in try evaluate(bound, in: scope) }) }
        return try located(location) { () throws(JinjaFailure) in try slice(value, start: values[0], stop: values[1], step: values[2]) }
    }

    private func evaluateCall(_ callee: JinjaExpression, _ arguments: JinjaExpression.Arguments, at location: JinjaSourceLocation, in scope: Scope)
        throws(JinjaError) -> JinjaValue
    {
        let function = try evaluate(callee, in: scope)
        return try call(function, with: try evaluate(arguments, in: scope), at: location)
    }

    private func evaluateFilter(
        _ name: String, _ base: JinjaExpression, _ arguments: JinjaExpression.Arguments, at location: JinjaSourceLocation, in scope: Scope
    ) throws(JinjaError) -> JinjaValue {
        let value = try evaluate(base, in: scope)
        return try filter(name, value, try evaluate(arguments, in: scope), at: location)
    }

    private func evaluateTest(
        _ name: String, _ base: JinjaExpression, _ arguments: JinjaExpression.Arguments, negated: Bool, at location: JinjaSourceLocation,
        in scope: Scope
    ) throws(JinjaError) -> JinjaValue {
        let value = try evaluate(base, in: scope)
        let passes = try test(name, value, try evaluate(arguments, in: scope), at: location)
        return .boolean(passes != negated)
    }

    private func evaluateSign(_ operand: JinjaExpression, negated: Bool, at location: JinjaSourceLocation, in scope: Scope) throws(JinjaError)
        -> JinjaValue
    {
        let value = try evaluate(operand, in: scope)
        return try located(location) { () throws(JinjaFailure) in try JinjaOperators.sign(value, negated: negated) }
    }

    /// A chain of comparisons, as Python chains them: `a < b < c` is `a < b and b < c`.
    private func evaluateComparison(_ first: JinjaExpression, _ rest: [(JinjaExpression.ComparisonOperator, JinjaExpression)], in scope: Scope)
        throws(JinjaError) -> JinjaValue
    {
        var left = try evaluate(first, in: scope)
        for (operation, operand) in rest {
            let right = try evaluate(operand, in: scope)
            let holds = try located(operand.location) { () throws(JinjaFailure) in try JinjaOperators.compare(left, operation, right) }
            guard holds else { return .boolean(false) }
            left = right
        }
        return .boolean(true)
    }

    private func evaluateConditional(
        _ condition: JinjaExpression, _ then: JinjaExpression, _ otherwise: JinjaExpression?, at location: JinjaSourceLocation, in scope: Scope
    ) throws(JinjaError) -> JinjaValue {
        if try evaluate(condition, in: scope).isTruthy { return try evaluate(then, in: scope) }
        guard let otherwise else {
            return .undefined("the inline if-expression on line \(location.line) evaluated to false and no else section was defined.")
        }
        return try evaluate(otherwise, in: scope)
    }

    /// Applies a chain of binary operators from the left; `and` and `or` short-circuit and
    /// give one of their operands, as in Python.
    private func evaluateChain(_ first: JinjaExpression, _ steps: [JinjaExpression.Step], in scope: Scope) throws(JinjaError) -> JinjaValue {
        var value = try evaluate(first, in: scope)
        for step in steps {
            switch step.operation {
            case .and:
                if value.isTruthy { value = try evaluate(step.operand, in: scope) }
            case .or:
                if !value.isTruthy { value = try evaluate(step.operand, in: scope) }
            case .concatenate:
                let right = try evaluate(step.operand, in: scope)
                let left = value
                let text = try located(step.location) { () throws(JinjaFailure) in try string(left) + string(right) }
                guard text.utf8.count <= limits.maximumLength else {
                    throw .limitExceeded("a string longer than \(limits.maximumLength) bytes", at: step.location)
                }
                value = .string(text)
            default:
                let right = try evaluate(step.operand, in: scope)
                let left = value
                value = try located(step.location) { () throws(JinjaFailure) in
                    try JinjaOperators.arithmetic(step.operation, left, right, maximumLength: limits.maximumLength)
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
                let (next, overflow) = index.addingReportingOverflow(stride)
                if overflow { break }
                index = next
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
