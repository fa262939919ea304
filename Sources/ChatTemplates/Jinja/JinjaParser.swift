/// Builds the statements of a template from its tokens, with jinja2's grammar and operator
/// precedence. Filters and tests are checked by name here, as jinja2 checks them when it compiles,
/// so that a template using one this interpreter lacks fails when it is loaded.
struct JinjaParser {
    private let tokens: [JinjaToken]
    private var index = 0
    /// How many blocks and expressions the parser is inside, capped so that hostile input
    /// cannot exhaust the stack.
    private var nesting = 0
    private let maximumNesting: Int

    /// The statements of the template `tokens` hold.
    static func parse(_ tokens: [JinjaToken], maximumNesting: Int) throws(JinjaError) -> [JinjaNode] {
        var parser = JinjaParser(tokens: tokens, maximumNesting: maximumNesting)
        let (body, _) = try parser.parseBody(until: [])
        return body
    }

    private init(tokens: [JinjaToken], maximumNesting: Int) {
        self.tokens = tokens
        self.maximumNesting = maximumNesting
    }

    // MARK: Tokens

    private var current: JinjaToken { tokens[min(index, tokens.count - 1)] }

    private func peek(_ offset: Int = 1) -> JinjaToken {
        tokens[min(index + offset, tokens.count - 1)]
    }

    @discardableResult
    private mutating func advance() -> JinjaToken {
        let token = current
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private mutating func skip(symbol: String) -> Bool {
        guard current.isSymbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func skip(name: String) -> Bool {
        guard current.isName(name) else { return false }
        advance()
        return true
    }

    private mutating func expect(symbol: String) throws(JinjaError) {
        guard skip(symbol: symbol) else { throw unexpected(expecting: "'\(symbol)'") }
    }

    private mutating func expect(name: String) throws(JinjaError) {
        guard skip(name: name) else { throw unexpected(expecting: "'\(name)'") }
    }

    private mutating func expectName() throws(JinjaError) -> String {
        guard case .name(let name) = current.kind else { throw unexpected(expecting: "a name") }
        advance()
        return name
    }

    private mutating func expectBlockEnd() throws(JinjaError) {
        guard current.kind == .blockEnd else { throw unexpected(expecting: "'%}'") }
        advance()
    }

    private func unexpected(expecting expected: String) -> JinjaError {
        .syntax("expected \(expected), got \(current.display)", at: current.location)
    }

    private mutating func enter() throws(JinjaError) {
        nesting += 1
        if nesting > maximumNesting {
            throw .limitExceeded("the template nests deeper than \(maximumNesting) levels", at: current.location)
        }
    }

    private mutating func leave() {
        nesting -= 1
    }

    // MARK: Statements

    /// Parses statements up to a block tag named in `endTags`, returning them and that tag's name
    /// (the parser then stands on the name); at the top level, up to the end of the source.
    private mutating func parseBody(until endTags: Set<String>) throws(JinjaError) -> ([JinjaNode], String?) {
        try enter()
        defer { leave() }
        var body: [JinjaNode] = []
        while true {
            let token = current
            switch token.kind {
            case .text(let text):
                advance()
                body.append(JinjaNode(kind: .text(text), location: token.location))
            case .variableBegin:
                advance()
                let expression = try parseTuple()
                guard current.kind == .variableEnd else { throw unexpected(expecting: "'}}'") }
                advance()
                body.append(JinjaNode(kind: .output(expression), location: expression.location))
            case .blockBegin:
                advance()
                if case .name(let name) = current.kind, endTags.contains(name) { return (body, name) }
                if let node = try parseStatement() { body.append(node) }
            case .endOfSource:
                if !endTags.isEmpty {
                    let expected = endTags.sorted().map { "'\($0)'" }.joined(separator: " or ")
                    throw .syntax("unexpected end of template, expected \(expected)", at: token.location)
                }
                return (body, nil)
            default:
                throw unexpected(expecting: "text or a tag")
            }
        }
    }

    /// Parses the body of a block through its end tag and the `%}` after it.
    private mutating func parseBlockBody(until endTags: Set<String>) throws(JinjaError) -> ([JinjaNode], String) {
        let (body, tag) = try parseBody(until: endTags)
        advance()
        return (body, tag ?? "")
    }

    /// Parses a statement after its `{%`, through its `%}`; `nil` for one that writes nothing.
    private mutating func parseStatement() throws(JinjaError) -> JinjaNode? {
        let token = current
        guard case .name(let tag) = token.kind else { throw unexpected(expecting: "a statement name") }
        advance()
        let location = token.location
        switch tag {
        case "for":
            return JinjaNode(kind: .loop(try parseLoop()), location: location)
        case "if":
            return JinjaNode(kind: try parseConditional(), location: location)
        case "set":
            return JinjaNode(kind: try parseSet(), location: location)
        case "macro":
            return JinjaNode(kind: .macro(try parseMacro()), location: location)
        case "filter":
            let filters = try parseFilterChain(required: true)
            try expectBlockEnd()
            let (body, _) = try parseBlockBody(until: ["endfilter"])
            try expectBlockEnd()
            return JinjaNode(kind: .filterBlock(filters, body: body), location: location)
        case "with":
            var assignments: [(JinjaNode.Target, JinjaExpression)] = []
            while current.kind != .blockEnd {
                if !assignments.isEmpty { try expect(symbol: ",") }
                let target = try parseTarget(allowsTuple: false, allowsNamespace: false)
                try expect(symbol: "=")
                assignments.append((target, try parseExpression()))
            }
            try expectBlockEnd()
            let (body, _) = try parseBlockBody(until: ["endwith"])
            try expectBlockEnd()
            return JinjaNode(kind: .scope(assignments, body: body), location: location)
        case "generation":
            // Hugging Face's marker of the assistant's text, which renders its body.
            try expectBlockEnd()
            let (body, _) = try parseBlockBody(until: ["endgeneration"])
            try expectBlockEnd()
            return JinjaNode(kind: .scope([], body: body), location: location)
        case "print":
            var values: [JinjaExpression] = []
            while current.kind != .blockEnd {
                if !values.isEmpty { try expect(symbol: ",") }
                values.append(try parseExpression())
            }
            try expectBlockEnd()
            let value = values.count == 1 ? values[0] : JinjaExpression(.tuple(values), at: location)
            return JinjaNode(kind: .output(value), location: location)
        case "break", "continue":
            try expectBlockEnd()
            return JinjaNode(kind: tag == "break" ? .breakLoop : .continueLoop, location: location)
        case "elif", "else", "endif", "endfor", "endset", "endmacro", "endfilter", "endwith", "endgeneration", "endcall",
            "endblock", "endraw":
            throw .syntax("unexpected '\(tag)'", at: location)
        default:
            throw .unsupported("statement '\(tag)'", at: location)
        }
    }

    private mutating func parseLoop() throws(JinjaError) -> JinjaNode.Loop {
        let target = try parseTarget(allowsTuple: true, allowsNamespace: false, endNames: ["in"])
        try expect(name: "in")
        let iterable = try parseTuple(allowsConditional: false, endNames: ["recursive"])
        var condition: JinjaExpression?
        if skip(name: "if") { condition = try parseExpression() }
        if current.isName("recursive") { throw .unsupported("recursive loop", at: current.location) }
        try expectBlockEnd()
        let (body, tag) = try parseBlockBody(until: ["endfor", "else"])
        var otherwise: [JinjaNode] = []
        if tag == "else" {
            try expectBlockEnd()
            (otherwise, _) = try parseBlockBody(until: ["endfor"])
        }
        try expectBlockEnd()
        return JinjaNode.Loop(target: target, iterable: iterable, condition: condition, body: body, otherwise: otherwise)
    }

    private mutating func parseConditional() throws(JinjaError) -> JinjaNode.Kind {
        var branches: [(condition: JinjaExpression, body: [JinjaNode])] = []
        var otherwise: [JinjaNode] = []
        while true {
            let condition = try parseTuple(allowsConditional: false)
            try expectBlockEnd()
            let (body, tag) = try parseBlockBody(until: ["elif", "else", "endif"])
            branches.append((condition, body))
            if tag == "elif" { continue }
            if tag == "else" {
                try expectBlockEnd()
                (otherwise, _) = try parseBlockBody(until: ["endif"])
            }
            try expectBlockEnd()
            return .conditional(branches, otherwise: otherwise)
        }
    }

    private mutating func parseSet() throws(JinjaError) -> JinjaNode.Kind {
        let target = try parseTarget(allowsTuple: true, allowsNamespace: true)
        if skip(symbol: "=") {
            let value = try parseTuple()
            try expectBlockEnd()
            return .assignment(target, value)
        }
        let filters = try parseFilterChain(required: false)
        try expectBlockEnd()
        let (body, _) = try parseBlockBody(until: ["endset"])
        try expectBlockEnd()
        return .blockAssignment(target, filters: filters, body: body)
    }

    private mutating func parseMacro() throws(JinjaError) -> JinjaNode.Macro {
        let name = try expectName()
        try expect(symbol: "(")
        var parameters: [(name: String, defaultValue: JinjaExpression?)] = []
        while !current.isSymbol(")") {
            if !parameters.isEmpty { try expect(symbol: ",") }
            let parameter = try expectName()
            if skip(symbol: "=") {
                parameters.append((parameter, try parseExpression()))
            } else if parameters.contains(where: { $0.defaultValue != nil }) {
                throw .syntax("non-default argument follows default argument", at: current.location)
            } else {
                parameters.append((parameter, nil))
            }
        }
        try expect(symbol: ")")
        try expectBlockEnd()
        let (body, _) = try parseBlockBody(until: ["endmacro"])
        if case .name(let closing) = current.kind, closing == name { advance() }
        try expectBlockEnd()
        return JinjaNode.Macro(name: name, parameters: parameters, body: body)
    }

    /// Parses what `for` and `set` assign to: a name, names separated by commas, or (for `set`)
    /// a namespace's attribute.
    private mutating func parseTarget(allowsTuple: Bool, allowsNamespace: Bool, endNames: Set<String> = []) throws(JinjaError)
        -> JinjaNode.Target
    {
        var targets: [JinjaNode.Target] = []
        var isTuple = false
        repeat {
            if case .name(let name) = current.kind, endNames.contains(name), !targets.isEmpty { break }
            let location = current.location
            let name = try expectName()
            if ["true", "false", "none", "True", "False", "None"].contains(name) {
                throw .syntax("can't assign to the constant '\(name)'", at: location)
            }
            if allowsNamespace, skip(symbol: ".") {
                targets.append(.namespaceAttribute(name, try expectName()))
            } else {
                targets.append(.name(name))
            }
            guard allowsTuple, skip(symbol: ",") else { break }
            isTuple = true
        } while true
        return isTuple ? .tuple(targets) : targets[0]
    }

    /// Parses filters after `filter` or `set name`: `name(arguments) | name ...`.
    private mutating func parseFilterChain(required: Bool) throws(JinjaError) -> [JinjaNode.Filter] {
        var filters: [JinjaNode.Filter] = []
        var first = required
        while first || skip(symbol: "|") {
            first = false
            let location = current.location
            let name = try parseFilterName()
            let arguments = current.isSymbol("(") ? try parseArguments() : JinjaExpression.Arguments()
            filters.append(JinjaNode.Filter(name: name, arguments: arguments, location: location))
        }
        return filters
    }

    private mutating func parseFilterName() throws(JinjaError) -> String {
        let location = current.location
        var name = try expectName()
        while skip(symbol: ".") { name += "." + (try expectName()) }
        guard JinjaFilters.names.contains(name) else { throw .unsupported("filter '\(name)'", at: location) }
        return name
    }

    // MARK: Expressions

    /// Parses an expression, or several separated by commas as a tuple.
    private mutating func parseTuple(allowsConditional: Bool = true, endNames: Set<String> = [], explicitParentheses: Bool = false)
        throws(JinjaError) -> JinjaExpression
    {
        let location = current.location
        var items: [JinjaExpression] = []
        var isTuple = false
        while true {
            if !items.isEmpty { try expect(symbol: ",") }
            if isTupleEnd(endNames) { break }
            items.append(allowsConditional ? try parseExpression() : try parseOr())
            guard current.isSymbol(",") else { break }
            isTuple = true
        }
        if !isTuple, let item = items.first { return item }
        if items.isEmpty, !explicitParentheses { throw unexpected(expecting: "an expression") }
        return try checked(JinjaExpression(.tuple(items), at: location))
    }

    private func isTupleEnd(_ endNames: Set<String>) -> Bool {
        switch current.kind {
        case .variableEnd, .blockEnd: return true
        case .symbol(")"): return true
        case .name(let name): return endNames.contains(name)
        default: return false
        }
    }

    /// An expression, checked against the depth evaluation may recurse to.
    private func checked(_ expression: JinjaExpression) throws(JinjaError) -> JinjaExpression {
        guard expression.depth <= maximumNesting * 2 else {
            throw .limitExceeded("an expression nests deeper than \(maximumNesting * 2) levels", at: expression.location)
        }
        return expression
    }

    private mutating func parseExpression() throws(JinjaError) -> JinjaExpression {
        var value = try parseOr()
        while current.isName("if") {
            let location = current.location
            advance()
            let condition = try parseOr()
            var otherwise: JinjaExpression?
            if skip(name: "else") {
                try enter()
                otherwise = try parseExpression()
                leave()
            }
            value = try checked(JinjaExpression(.conditional(condition: condition, then: value, otherwise: otherwise), at: location))
        }
        return value
    }

    /// Parses operands separated by operators of one precedence (`operators` maps each token to
    /// its operator), with `operand` parsing each, into one flat chain.
    private mutating func parseChain(
        _ operators: (JinjaToken) -> JinjaExpression.BinaryOperator?, operand: (inout JinjaParser) throws(JinjaError) -> JinjaExpression
    ) throws(JinjaError) -> JinjaExpression {
        let first = try operand(&self)
        var steps: [JinjaExpression.Step] = []
        while let operation = operators(current) {
            let location = advance().location
            steps.append(JinjaExpression.Step(operation: operation, operand: try operand(&self), location: location))
        }
        guard !steps.isEmpty else { return first }
        return try checked(JinjaExpression(.binary(first, steps), at: first.location))
    }

    private mutating func parseOr() throws(JinjaError) -> JinjaExpression {
        try parseChain({ $0.isName("or") ? .or : nil }) { parser throws(JinjaError) in try parser.parseAnd() }
    }

    private mutating func parseAnd() throws(JinjaError) -> JinjaExpression {
        try parseChain({ $0.isName("and") ? .and : nil }) { parser throws(JinjaError) in try parser.parseNot() }
    }

    private mutating func parseNot() throws(JinjaError) -> JinjaExpression {
        guard current.isName("not") else { return try parseComparison() }
        let location = advance().location
        try enter()
        defer { leave() }
        return try checked(JinjaExpression(.not(try parseNot()), at: location))
    }

    private mutating func parseComparison() throws(JinjaError) -> JinjaExpression {
        let first = try parseAdditive()
        var rest: [(JinjaExpression.ComparisonOperator, JinjaExpression)] = []
        while true {
            if case .symbol(let symbol) = current.kind, let comparison = JinjaExpression.ComparisonOperator(rawValue: symbol),
                comparison != .contained, comparison != .notContained
            {
                advance()
                rest.append((comparison, try parseAdditive()))
            } else if skip(name: "in") {
                rest.append((.contained, try parseAdditive()))
            } else if current.isName("not"), peek().isName("in") {
                advance()
                advance()
                rest.append((.notContained, try parseAdditive()))
            } else {
                guard !rest.isEmpty else { return first }
                return try checked(JinjaExpression(.comparison(first, rest), at: first.location))
            }
        }
    }

    private mutating func parseAdditive() throws(JinjaError) -> JinjaExpression {
        try parseChain({ $0.isSymbol("+") ? .add : $0.isSymbol("-") ? .subtract : nil }) { parser throws(JinjaError) in
            try parser.parseConcatenation()
        }
    }

    private mutating func parseConcatenation() throws(JinjaError) -> JinjaExpression {
        try parseChain({ $0.isSymbol("~") ? .concatenate : nil }) { parser throws(JinjaError) in try parser.parseMultiplicative() }
    }

    private mutating func parseMultiplicative() throws(JinjaError) -> JinjaExpression {
        try parseChain({ token in
            guard case .symbol(let symbol) = token.kind, ["*", "/", "//", "%"].contains(symbol) else { return nil }
            return JinjaExpression.BinaryOperator(rawValue: symbol)
        }) { parser throws(JinjaError) in try parser.parsePower() }
    }

    private mutating func parsePower() throws(JinjaError) -> JinjaExpression {
        try parseChain({ $0.isSymbol("**") ? .power : nil }) { parser throws(JinjaError) in try parser.parseUnary(withFilters: true) }
    }

    private mutating func parseUnary(withFilters: Bool) throws(JinjaError) -> JinjaExpression {
        try enter()
        defer { leave() }
        let location = current.location
        var value: JinjaExpression
        if skip(symbol: "-") {
            value = try checked(JinjaExpression(.negate(try parseUnary(withFilters: false)), at: location))
        } else if skip(symbol: "+") {
            value = try checked(JinjaExpression(.plus(try parseUnary(withFilters: false)), at: location))
        } else {
            value = try parsePrimary()
        }
        value = try parsePostfix(value)
        if withFilters { value = try parseFiltersAndTests(value) }
        return value
    }

    private mutating func parsePrimary() throws(JinjaError) -> JinjaExpression {
        let token = current
        let location = token.location
        switch token.kind {
        case .name(let name):
            advance()
            switch name {
            case "true", "True": return JinjaExpression(.literal(.boolean(true)), at: location)
            case "false", "False": return JinjaExpression(.literal(.boolean(false)), at: location)
            case "none", "None": return JinjaExpression(.literal(.none), at: location)
            default: return JinjaExpression(.name(name), at: location)
            }
        case .string(var text):
            advance()
            while case .string(let next) = current.kind {
                text += next
                advance()
            }
            return JinjaExpression(.literal(.string(text)), at: location)
        case .integer(let value):
            advance()
            return JinjaExpression(.literal(.integer(value)), at: location)
        case .float(let value):
            advance()
            return JinjaExpression(.literal(.double(value)), at: location)
        case .symbol("("):
            advance()
            let value = try parseTuple(explicitParentheses: true)
            try expect(symbol: ")")
            return value
        case .symbol("["):
            advance()
            var items: [JinjaExpression] = []
            while !current.isSymbol("]") {
                if !items.isEmpty { try expect(symbol: ",") }
                if current.isSymbol("]") { break }
                items.append(try parseExpression())
            }
            try expect(symbol: "]")
            return try checked(JinjaExpression(.list(items), at: location))
        case .symbol("{"):
            advance()
            var pairs: [(key: JinjaExpression, value: JinjaExpression)] = []
            while !current.isSymbol("}") {
                if !pairs.isEmpty { try expect(symbol: ",") }
                if current.isSymbol("}") { break }
                let key = try parseExpression()
                try expect(symbol: ":")
                pairs.append((key, try parseExpression()))
            }
            try expect(symbol: "}")
            return try checked(JinjaExpression(.dictionary(pairs), at: location))
        default:
            throw .syntax("unexpected \(token.display)", at: location)
        }
    }

    private mutating func parsePostfix(_ base: JinjaExpression) throws(JinjaError) -> JinjaExpression {
        var value = base
        while true {
            if current.isSymbol(".") || current.isSymbol("[") {
                value = try parseSubscript(value)
            } else if current.isSymbol("(") {
                value = try parseCall(value)
            } else {
                return value
            }
        }
    }

    private mutating func parseFiltersAndTests(_ base: JinjaExpression) throws(JinjaError) -> JinjaExpression {
        var value = base
        while true {
            if skip(symbol: "|") {
                let location = current.location
                let name = try parseFilterName()
                let arguments = current.isSymbol("(") ? try parseArguments() : JinjaExpression.Arguments()
                value = try checked(JinjaExpression(.filter(value, name: name, arguments), at: location))
            } else if current.isName("is") {
                value = try parseTest(value)
            } else if current.isSymbol("(") {
                value = try parseCall(value)
            } else {
                return value
            }
        }
    }

    private mutating func parseCall(_ callee: JinjaExpression) throws(JinjaError) -> JinjaExpression {
        try checked(JinjaExpression(.call(callee, try parseArguments()), at: callee.location))
    }

    private mutating func parseTest(_ value: JinjaExpression) throws(JinjaError) -> JinjaExpression {
        advance()
        let negated = skip(name: "not")
        let location = current.location
        var name = try expectName()
        while skip(symbol: ".") { name += "." + (try expectName()) }
        guard JinjaTests.names.contains(name) else { throw .unsupported("test '\(name)'", at: location) }
        var arguments = JinjaExpression.Arguments()
        switch current.kind {
        case .symbol("("):
            arguments = try parseArguments()
        case .name("else"), .name("or"), .name("and"):
            break
        case .name("is"):
            throw .syntax("you cannot chain multiple tests with is", at: current.location)
        case .name, .string, .integer, .float, .symbol("["), .symbol("{"):
            arguments.positional = [try parsePostfix(try parsePrimary())]
        default:
            break
        }
        return try checked(JinjaExpression(.test(value, name: name, arguments, negated: negated), at: location))
    }

    private mutating func parseSubscript(_ value: JinjaExpression) throws(JinjaError) -> JinjaExpression {
        let token = advance()
        if token.isSymbol(".") {
            let attribute = current
            advance()
            switch attribute.kind {
            case .name(let name): return try checked(JinjaExpression(.attribute(value, name), at: value.location))
            case .integer(let index):
                return try checked(JinjaExpression(.item(value, JinjaExpression(.literal(.integer(index)), at: attribute.location)), at: value.location))
            default: throw .syntax("expected a name or a number after '.'", at: attribute.location)
            }
        }
        var arguments: [JinjaExpression] = []
        while !current.isSymbol("]") {
            if !arguments.isEmpty { try expect(symbol: ",") }
            arguments.append(try parseSubscribed(value))
        }
        try expect(symbol: "]")
        guard arguments.count == 1 else {
            throw .unsupported("subscript with several indices", at: token.location)
        }
        if case .slice = arguments[0].kind { return arguments[0] }
        return try checked(JinjaExpression(.item(value, arguments[0]), at: value.location))
    }

    /// Parses an index, or a slice of `value` (`start:stop:step`, each part optional).
    private mutating func parseSubscribed(_ value: JinjaExpression) throws(JinjaError) -> JinjaExpression {
        let location = value.location
        var start: JinjaExpression?
        if !current.isSymbol(":") {
            let index = try parseExpression()
            guard current.isSymbol(":") else { return index }
            start = index
        }
        advance()
        var stop: JinjaExpression?
        var step: JinjaExpression?
        if !current.isSymbol(":"), !current.isSymbol("]"), !current.isSymbol(",") { stop = try parseExpression() }
        if skip(symbol: ":"), !current.isSymbol("]"), !current.isSymbol(",") { step = try parseExpression() }
        return try checked(JinjaExpression(.slice(value, start: start, stop: stop, step: step), at: location))
    }

    private mutating func parseArguments() throws(JinjaError) -> JinjaExpression.Arguments {
        let location = current.location
        try expect(symbol: "(")
        var arguments = JinjaExpression.Arguments()
        while !current.isSymbol(")") {
            if !arguments.positional.isEmpty || !arguments.keywords.isEmpty {
                try expect(symbol: ",")
                if current.isSymbol(")") { break }
            }
            if current.isSymbol("*") || current.isSymbol("**") {
                throw .unsupported("argument unpacking ('\(current.isSymbol("*") ? "*" : "**")')", at: current.location)
            }
            if case .name(let name) = current.kind, peek().isSymbol("=") {
                advance()
                advance()
                arguments.keywords.append((name, try parseExpression()))
            } else {
                guard arguments.keywords.isEmpty else {
                    throw .syntax("invalid syntax for function call expression", at: location)
                }
                arguments.positional.append(try parseExpression())
            }
        }
        try expect(symbol: ")")
        return arguments
    }
}
