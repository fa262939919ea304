import Foundation

/// Renders a parsed template once: runs its statements in scopes as jinja2 does (a `for` body and
/// a macro have scopes of their own, `if` does not), and holds what the render makes (namespaces,
/// macros) and what it counts against the limits.
final class JinjaInterpreter {
    /// The variables of a block of the template; reads go up to the enclosing scopes.
    final class Scope {
        var variables: [String: JinjaValue] = [:]
        let parent: Scope?
        /// The loop this scope is an iteration of, which `loop` describes.
        var loop: LoopState?

        init(parent: Scope?) {
            self.parent = parent
        }
    }

    /// Where an iteration of a loop is, for `loop.index` and the others.
    struct LoopState {
        let items: [JinjaValue]
        let index: Int
    }

    /// A macro defined during the render, with the scope it was defined in.
    struct MacroInstance {
        let definition: JinjaNode.Macro
        let closure: Scope
    }

    /// How a block ended: normally, or by `break` or `continue`.
    enum Flow {
        case normal, breakLoop, continueLoop
    }

    let limits: JinjaTemplate.Limits
    let now: Date
    /// The attributes of each namespace made during the render.
    var namespaces: [JinjaDictionary] = []
    var macros: [MacroInstance] = []
    private var iterations = 0
    private var written = 0
    private var depth = 0
    private var callDepth = 0

    init(limits: JinjaTemplate.Limits, now: Date) {
        self.limits = limits
        self.now = now
    }

    /// The text of `nodes` rendered with `variables`.
    func render(_ nodes: [JinjaNode], variables: [String: JinjaValue]) throws(JinjaError) -> String {
        let scope = Scope(parent: nil)
        scope.variables = variables
        var output = ""
        _ = try execute(nodes, in: scope, into: &output)
        return output
    }

    // MARK: Limits

    /// Counts one more level of evaluation, failing past the limit before the stack runs out.
    func enter(at location: JinjaSourceLocation) throws(JinjaError) {
        depth += 1
        guard depth <= limits.maximumDepth else {
            throw .limitExceeded("evaluation nests deeper than \(limits.maximumDepth) levels", at: location)
        }
    }

    func leave() {
        depth -= 1
    }

    /// Counts one more loop iteration.
    func countIteration(at location: JinjaSourceLocation) throws(JinjaError) {
        iterations += 1
        guard iterations <= limits.maximumIterations else {
            throw .limitExceeded("the template loops more than \(limits.maximumIterations) times", at: location)
        }
    }

    /// Appends `text` to `output`, counting what the render writes in all.
    func write(_ text: String, into output: inout String, at location: JinjaSourceLocation) throws(JinjaError) {
        written += text.utf8.count
        guard written <= limits.maximumLength else {
            throw .limitExceeded("the template writes more than \(limits.maximumLength) bytes", at: location)
        }
        output += text
    }

    // MARK: Statements

    func execute(_ nodes: [JinjaNode], in scope: Scope, into output: inout String) throws(JinjaError) -> Flow {
        for node in nodes {
            let flow = try execute(node, in: scope, into: &output)
            if flow != .normal { return flow }
        }
        return .normal
    }

    /// Dispatches on the kind of statement; each kind runs in a function of its own, so that the
    /// frames of the functions that recurse stay small.
    private func execute(_ node: JinjaNode, in scope: Scope, into output: inout String) throws(JinjaError) -> Flow {
        try enter(at: node.location)
        defer { leave() }
        switch node.kind {
        case .text(let text):
            try write(text, into: &output, at: node.location)
        case .output(let expression):
            try executeOutput(expression, in: scope, into: &output)
        case .conditional(let branches, let otherwise):
            return try executeConditional(branches, otherwise, in: scope, into: &output)
        case .loop(let loop):
            return try executeLoop(loop, at: node.location, in: scope, into: &output)
        case .assignment(let target, let expression):
            try assign(try evaluate(expression, in: scope), to: target, in: scope, at: node.location)
        case .blockAssignment(let target, let filters, let body):
            try executeBlockAssignment(target, filters, body, at: node.location, in: scope)
        case .macro(let definition):
            macros.append(MacroInstance(definition: definition, closure: scope))
            scope.variables[definition.name] = .callable(JinjaCallable(kind: .macro(macros.count - 1)))
        case .filterBlock(let filters, let body):
            try executeFilterBlock(filters, body, at: node.location, in: scope, into: &output)
        case .scope(let assignments, let body):
            return try executeScope(assignments, body, at: node.location, in: scope, into: &output)
        case .breakLoop:
            return .breakLoop
        case .continueLoop:
            return .continueLoop
        }
        return .normal
    }

    private func executeOutput(_ expression: JinjaExpression, in scope: Scope, into output: inout String) throws(JinjaError) {
        let value = try evaluate(expression, in: scope)
        try write(try located(expression.location) { () throws(JinjaFailure) in try string(value) }, into: &output, at: expression.location)
    }

    private func executeConditional(
        _ branches: [(condition: JinjaExpression, body: [JinjaNode])], _ otherwise: [JinjaNode], in scope: Scope, into output: inout String
    ) throws(JinjaError) -> Flow {
        for branch in branches where try evaluate(branch.condition, in: scope).isTruthy {
            return try execute(branch.body, in: scope, into: &output)
        }
        return try execute(otherwise, in: scope, into: &output)
    }

    private func executeBlockAssignment(
        _ target: JinjaNode.Target, _ filters: [JinjaNode.Filter], _ body: [JinjaNode], at location: JinjaSourceLocation, in scope: Scope
    ) throws(JinjaError) {
        var text = ""
        _ = try execute(body, in: Scope(parent: scope), into: &text)
        try assign(try applyFilters(filters, to: .string(text), in: scope), to: target, in: scope, at: location)
    }

    private func executeFilterBlock(
        _ filters: [JinjaNode.Filter], _ body: [JinjaNode], at location: JinjaSourceLocation, in scope: Scope, into output: inout String
    ) throws(JinjaError) {
        var text = ""
        _ = try execute(body, in: Scope(parent: scope), into: &text)
        let value = try applyFilters(filters, to: .string(text), in: scope)
        try write(try located(location) { () throws(JinjaFailure) in try string(value) }, into: &output, at: location)
    }

    private func executeScope(
        _ assignments: [(JinjaNode.Target, JinjaExpression)], _ body: [JinjaNode], at location: JinjaSourceLocation, in scope: Scope,
        into output: inout String
    ) throws(JinjaError) -> Flow {
        let inner = Scope(parent: scope)
        for (target, expression) in assignments {
            try assign(try evaluate(expression, in: scope), to: target, in: inner, at: location)
        }
        return try execute(body, in: inner, into: &output)
    }

    private func executeLoop(_ loop: JinjaNode.Loop, at location: JinjaSourceLocation, in scope: Scope, into output: inout String)
        throws(JinjaError) -> Flow
    {
        let iterable = try evaluate(loop.iterable, in: scope)
        var items = try located(loop.iterable.location) { () throws(JinjaFailure) in try iterate(iterable) }
        if let condition = loop.condition {
            var kept: [JinjaValue] = []
            for item in items {
                try countIteration(at: location)
                let iteration = Scope(parent: scope)
                try assign(item, to: loop.target, in: iteration, at: location)
                if try evaluate(condition, in: iteration).isTruthy { kept.append(item) }
            }
            items = kept
        }
        if items.isEmpty { return try execute(loop.otherwise, in: scope, into: &output) }
        for (index, item) in items.enumerated() {
            try countIteration(at: location)
            let iteration = Scope(parent: scope)
            iteration.loop = LoopState(items: items, index: index)
            try assign(item, to: loop.target, in: iteration, at: location)
            if try execute(loop.body, in: iteration, into: &output) == .breakLoop { break }
        }
        return .normal
    }

    /// Assigns `value` to `target`: a variable of `scope`, names unpacked from a sequence, or a
    /// namespace's attribute.
    func assign(_ value: JinjaValue, to target: JinjaNode.Target, in scope: Scope, at location: JinjaSourceLocation) throws(JinjaError) {
        switch target {
        case .name(let name):
            scope.variables[name] = value
        case .tuple(let targets):
            let items = try located(location) { () throws(JinjaFailure) in try iterate(value, unpacking: true) }
            guard items.count == targets.count else {
                let message = items.count > targets.count
                    ? "too many values to unpack (expected \(targets.count))"
                    : "not enough values to unpack (expected \(targets.count), got \(items.count))"
                throw .evaluation(message, at: location)
            }
            for (item, target) in zip(items, targets) { try assign(item, to: target, in: scope, at: location) }
        case .namespaceAttribute(let name, let attribute):
            guard case .namespace(let namespace) = lookup(name, in: scope) else {
                throw .evaluation("cannot assign attribute on non-namespace object", at: location)
            }
            namespaces[namespace.index][attribute] = value
        }
    }

    /// The value of the variable `name`: from the innermost scope that has it, then the globals.
    func lookup(_ name: String, in scope: Scope) -> JinjaValue {
        var current: Scope? = scope
        while let block = current {
            if let value = block.variables[name] { return value }
            if name == "loop", let loop = block.loop { return loopValue(loop) }
            current = block.parent
        }
        if JinjaGlobals.names.contains(name) { return .callable(JinjaCallable(kind: .global(name))) }
        return .undefined("'\(name)' is undefined")
    }

    /// The loop `loop` refers to in `scope`, when `loop` is not a variable there.
    func loopState(in scope: Scope) -> LoopState? {
        var current: Scope? = scope
        while let block = current {
            if block.variables["loop"] != nil { return nil }
            if let loop = block.loop { return loop }
            current = block.parent
        }
        return nil
    }

    /// An attribute of `loop`.
    func loopAttribute(_ name: String, of loop: LoopState) -> JinjaValue? {
        let count = loop.items.count
        switch name {
        case "index": return .integer(loop.index + 1)
        case "index0": return .integer(loop.index)
        case "revindex": return .integer(count - loop.index)
        case "revindex0": return .integer(count - loop.index - 1)
        case "first": return .boolean(loop.index == 0)
        case "last": return .boolean(loop.index == count - 1)
        case "length": return .integer(count)
        case "depth": return .integer(1)
        case "depth0": return .integer(0)
        case "previtem": return loop.index > 0 ? loop.items[loop.index - 1] : .undefined("there is no previous item")
        case "nextitem": return loop.index < count - 1 ? loop.items[loop.index + 1] : .undefined("there is no next item")
        case "cycle": return .callable(JinjaCallable(kind: .cycle(index: loop.index)))
        default: return nil
        }
    }

    /// `loop` as a value, when it is used other than by its attributes.
    private func loopValue(_ loop: LoopState) -> JinjaValue {
        var dictionary = JinjaDictionary()
        for name in ["index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "depth0", "previtem", "nextitem", "cycle"] {
            if let value = loopAttribute(name, of: loop), !value.isUndefined { dictionary[name] = value }
        }
        return .dictionary(dictionary)
    }

    /// The items a `for` loop goes through: a list's items, a string's characters, a
    /// dictionary's keys; none for an undefined value.
    func iterate(_ value: JinjaValue, unpacking: Bool = false) throws(JinjaFailure) -> [JinjaValue] {
        switch value {
        case .array(let items): return items
        case .string(let text): return text.unicodeScalars.map { .string(String($0)) }
        case .dictionary(let dictionary): return dictionary.keys
        case .undefined: return []
        default:
            throw .evaluation(unpacking ? "cannot unpack non-iterable \(value.typeName) object" : "'\(value.typeName)' object is not iterable")
        }
    }

    /// Runs `body`, placing a failure of its values at `location`.
    func located<T>(_ location: JinjaSourceLocation, _ body: () throws(JinjaFailure) -> T) throws(JinjaError) -> T {
        do {
            return try body()
        } catch {
            throw error.error(at: location)
        }
    }

    // MARK: Text of values

    /// Python's `str` of a value, as `{{ }}` prints it; empty for an undefined value.
    func string(_ value: JinjaValue) throws(JinjaFailure) -> String {
        switch value {
        case .undefined: ""
        case .string(let text): text
        default: try representation(value, level: 0)
        }
    }

    /// Python's `repr` of a value, as lists and dictionaries print their items.
    func representation(_ value: JinjaValue, level: Int) throws(JinjaFailure) -> String {
        guard level < JinjaJSON.maximumNesting else {
            throw .limitExceeded("a value nests deeper than \(JinjaJSON.maximumNesting) levels")
        }
        switch value {
        case .undefined: return "Undefined"
        case .none: return "None"
        case .boolean(let flag): return flag ? "True" : "False"
        case .integer(let integer): return String(integer)
        case .double(let double): return double.pythonRepr
        case .string(let text): return text.pythonRepr
        case .array(let items):
            var parts: [String] = []
            for item in items { parts.append(try representation(item, level: level + 1)) }
            return "[" + parts.joined(separator: ", ") + "]"
        case .dictionary(let dictionary):
            return try representation(of: dictionary, level: level)
        case .namespace(let namespace):
            return "<Namespace " + (try representation(of: namespaces[namespace.index], level: level)) + ">"
        case .callable(let callable):
            switch callable.kind {
            case .macro(let index): return "<Macro '\(macros[index].definition.name)'>"
            case .global(let name): return "<function \(name)>"
            case .method(let receiver, let name): return "<built-in method \(name) of \(receiver.typeName) object>"
            case .cycle: return "<bound method LoopContext.cycle>"
            }
        }
    }

    private func representation(of dictionary: JinjaDictionary, level: Int) throws(JinjaFailure) -> String {
        var parts: [String] = []
        for (key, item) in dictionary.pairs {
            parts.append((try representation(key, level: level + 1)) + ": " + (try representation(item, level: level + 1)))
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}
