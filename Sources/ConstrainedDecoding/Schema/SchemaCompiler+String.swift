/// Strings: lengths in scalars, `pattern`, `format`.
extension SchemaCompiler {
    /// Whole-match regular expressions of the formats enforced while generating.
    static let formats: [String: String] = {
        let year = #"[0-9]{4}"#
        let leapDay = #"([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29"#
        let date = "(\(year)-(0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|\(year)-(0[469]|11)-(0[1-9]|[12][0-9]|30)|\(year)-02-(0[1-9]|1[0-9]|2[0-8])|\(leapDay))"
        let time = #"([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"#
        let atom = #"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"#
        let label = #"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"#
        let hex = "[0-9a-fA-F]"
        let uriCharacter = #"([A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})"#
        let octet = "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
        let ipv4 = "\(octet)(\\.\(octet)){3}"
        let h16 = "\(hex){1,4}"
        let ls32 = "(\(h16):\(h16)|\(ipv4))"
        let ipv6 = [
            "(\(h16):){6}\(ls32)", "::(\(h16):){5}\(ls32)", "(\(h16))?::(\(h16):){4}\(ls32)",
            "((\(h16):){0,1}\(h16))?::(\(h16):){3}\(ls32)", "((\(h16):){0,2}\(h16))?::(\(h16):){2}\(ls32)",
            "((\(h16):){0,3}\(h16))?::\(h16):\(ls32)", "((\(h16):){0,4}\(h16))?::\(ls32)", "((\(h16):){0,5}\(h16))?::\(h16)",
            "((\(h16):){0,6}\(h16))?::",
        ].map { "(\($0))" }.joined(separator: "|")
        // RFC 3986: a path character, one without ':' (a relative path's first segment), a query
        // or fragment character.
        let pathCharacter = #"([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"#
        let segmentCharacter = #"([A-Za-z0-9._~!$&'()*+,;=@-]|%[0-9A-Fa-f]{2})"#
        let queryCharacter = "(\(pathCharacter)|[/?])"
        let relativeReference = "(//(\(pathCharacter)|[\\[\\]])*(/\(pathCharacter)*)*|/(\(pathCharacter)+(/\(pathCharacter)*)*)?|\(segmentCharacter)+(/\(pathCharacter)*)*)?"
            + "(\\?\(queryCharacter)*)?(#\(queryCharacter)*)?"
        let uri = "[A-Za-z][A-Za-z0-9+.-]*:\(uriCharacter)*"
        let iri = "[A-Za-z][A-Za-z0-9+.-]*:(\(uriCharacter)|[^\\x00-\\x7F])*"
        let variable = "([A-Za-z0-9_]|%[0-9A-Fa-f]{2})(\\.?([A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(:[1-9][0-9]{0,3}|\\*)?"
        let durationTime = "T([0-9]+H([0-9]+M([0-9]+S)?)?|[0-9]+M([0-9]+S)?|[0-9]+S)"
        let durationDate = "([0-9]+D|[0-9]+M([0-9]+D)?|[0-9]+Y([0-9]+M([0-9]+D)?)?)"
        return [
            "hostname": "\(label)(\\.\(label))*",
            "ipv4": ipv4,
            "ipv6": ipv6,
            "uri-reference": "(\(uri))|(\(relativeReference))",
            "iri": iri,
            "iri-reference": "(\(iri))|(\(relativeReference))",
            "uri-template": "([^\\x00-\\x20\"'%<>\\\\^`{|}]|%[0-9A-Fa-f]{2}|\\{[+#./;?&=,!@|]?\(variable)(,\(variable))*\\})*",
            "json-pointer": "(/([^~/]|~[01])*)*",
            "relative-json-pointer": "(0|[1-9][0-9]*)(#|(/([^~/]|~[01])*)*)",
            "duration": "P(\(durationDate)(\(durationTime))?|\(durationTime)|[0-9]+W)",
            "date": date,
            "time": time,
            "date-time": "\(date)[Tt]\(time)",
            "email": "\(atom)(\\.\(atom))*@\(label)(\\.\(label))*",
            "uuid": "\(hex){8}-\(hex){4}-\(hex){4}-\(hex){4}-\(hex){12}",
            "uri": uri,
        ]
    }()

    /// The longest length count whose characters are built in place; longer ones call a shared
    /// character definition.
    static let inlineCharacterLimit = 32

    mutating func compileString(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        let minimumLength = try count("minLength", of: schema, at: pointer) ?? 0
        let maximumLength = try count("maxLength", of: schema, at: pointer)
        if let maximumLength, maximumLength < minimumLength { return nil }
        let quote = UInt8(ascii: "\"")
        let contents: Fragment
        if let automaton = try stringAutomaton(schema, at: pointer) {
            if automaton.isEmpty { return nil }
            let keywords = SchemaKeywords.byType["string", default: []].sorted().map { keyword in
                "\(keyword)=\(schema[keyword]?.jsonString ?? "")"
            }
            contents = try builder.call(stringContentsDefinition(automaton, key: keywords.joined(separator: "\u{0}"), at: pointer))
        } else {
            guard minimumLength <= 10_000 else { throw unsupported("minLength", at: pointer, "a minimum length above 10000 is not supported") }
            if max(minimumLength, maximumLength ?? 0) > Self.inlineCharacterLimit {
                if let maximumLength, (maximumLength - minimumLength) / Self.characterBlock > Self.blockLimit {
                    throw unsupported("maxLength", at: "", "a maximum length above \(Self.blockLimit * Self.characterBlock) is not supported")
                }
                // Long counts: contents shared by every string with the same counts, as those of
                // `pattern` strings are, so that their states have string interiors.
                contents = try builder.call(countedContentsDefinition(minimum: minimumLength, maximum: maximumLength, at: pointer))
            } else {
                contents = try builder.repeated(minimum: minimumLength, maximum: maximumLength) { (builder: inout NFABuilder) throws(SchemaError) in
                    let start = try builder.newState()
                    let end = try builder.newState()
                    try JSONStringSpelling.addCharacters(.all, from: start, to: end, in: &builder)
                    return Fragment(start: start, end: end)
                }
            }
        }
        return try builder.sequence([try builder.literal([quote]), contents, try builder.literal([quote])])
    }

    /// The definition of the contents of a string with `automaton`, between its quotes, shared by
    /// every string with the same `key` (its string keywords, or a member name's automaton): the
    /// automaton that their masks are computed on is then the same wherever the string stands
    /// (``LazyDFA/stringInterior(_:)``).
    mutating func stringContentsDefinition(_ automaton: CodePointAutomaton, key: String, at pointer: String) -> Int32 {
        let id = definition(pointer, schema: .bool(true), key: Self.stringContentsKey + key)
        stringContents[id] = automaton
        return id
    }

    /// The key prefix of the definitions of ``stringContentsDefinition(_:key:at:)``.
    static let stringContentsKey = "#string-contents\u{0}"

    /// The definition of the contents of a string of `minimum` to `maximum` characters of any
    /// kind, shared by every such string (built by ``countedCharacters(minimum:maximum:)``).
    mutating func countedContentsDefinition(minimum: Int, maximum: Int?, at pointer: String) -> Int32 {
        let key = Self.stringContentsKey + Self.countedContentsKey + "\(minimum)\u{0}\(maximum.map(String.init) ?? "")"
        let id = definition(pointer, schema: .bool(true), key: key)
        countedContents[id] = (minimum, maximum)
        return id
    }

    /// The key prefix, after ``stringContentsKey``, of the definitions of
    /// ``countedContentsDefinition(minimum:maximum:at:)``.
    static let countedContentsKey = "#counted\u{0}"

    /// `minimum` to `maximum` characters: calls of one shared character definition from each
    /// position, and blocks of characters for the optional ones.
    mutating func countedCharacters(minimum: Int, maximum: Int?) throws(SchemaError) -> Fragment {
        let character = definition(Self.characterPointer, schema: .bool(true))
        let required = try builder.repeated(minimum: minimum, maximum: minimum) { (builder: inout NFABuilder) throws(SchemaError) in
            try builder.call(character)
        }
        let optional: Fragment
        if let maximum {
            optional = try upToCharacters(maximum - minimum, character)
        } else {
            optional = try builder.star(try builder.call(character))
        }
        return try builder.sequence([required, optional])
    }

    /// The automaton of the strings a schema allows (its `pattern`, asserted `format`, lengths,
    /// and the exclusions that complements add), or `nil` when only lengths constrain them and a
    /// plain repetition of characters does.
    mutating func stringAutomaton(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> CodePointAutomaton? {
        let minimumLength = try count("minLength", of: schema, at: pointer) ?? 0
        let maximumLength = try count("maxLength", of: schema, at: pointer)
        var patterns: [(keyword: String, node: RegexNode)] = []
        if let value = schema["pattern"] {
            guard case .string(let text) = value else { throw invalid("pattern", at: pointer, "must be a string") }
            do {
                patterns.append(("pattern", try RegexParser.patternLanguage(text)))
            } catch {
                try refuse("pattern", at: pointer, error.reason)
            }
        }
        if let value = schema["format"] {
            guard case .string(let name) = value else { throw invalid("format", at: pointer, "must be a string") }
            if options.assertsFormats, let regex = Self.formats[name], let node = try? RegexParser.wholeMatchLanguage(regex) {
                patterns.append(("format", node))
            } else {
                // Formats are annotations unless asserted, and unknown ones always are.
                noteAnnotation("format", at: pointer)
            }
        }
        var excludedPatterns: [RegexNode] = []
        for value in schema[SchemaKeywords.notPatterns]?.arrayValue ?? [] {
            guard let text = value.stringValue, let node = try? RegexParser.patternLanguage(text) else {
                throw unsupported("not", at: pointer, "a pattern to exclude cannot be read")
            }
            excludedPatterns.append(node)
        }
        let excludedValues = (schema[SchemaKeywords.notValues]?.arrayValue ?? []).compactMap(\.stringValue)
        guard !patterns.isEmpty || !excludedPatterns.isEmpty || !excludedValues.isEmpty else { return nil }
        var keyword = patterns.first?.keyword ?? "not"
        do {
            var automaton = try regexAutomata.automaton(of: patterns.first?.node, minimumLength: minimumLength, maximumLength: maximumLength)
            for (name, node) in patterns.dropFirst() {
                keyword = name
                automaton = try automaton.intersection(try regexAutomata.automaton(of: node))
            }
            keyword = "not"
            for node in excludedPatterns { automaton = try automaton.subtracting(try regexAutomata.automaton(of: node)) }
            return automaton.subtractingNames(excludedValues)
        } catch {
            throw unsupported(keyword, at: pointer, error.reason)
        }
    }

    /// The number of characters in one block of ``upToCharacters(_:_:)``.
    static let characterBlock = 64

    /// The most blocks of ``upToCharacters(_:_:)``.
    static let blockLimit = 4096

    /// At most `count` characters: whole blocks (a shared definition of exactly
    /// ``characterBlock`` characters) and then single characters, so that the automaton grows
    /// with `count / 64` rather than `count`.
    private mutating func upToCharacters(_ count: Int, _ character: Int32) throws(SchemaError) -> Fragment {
        let block = Self.characterBlock
        func characters(_ maximum: Int, _ compiler: inout SchemaCompiler) throws(SchemaError) -> Fragment {
            try compiler.builder.repeated(minimum: 0, maximum: maximum) { (builder: inout NFABuilder) throws(SchemaError) in try builder.call(character) }
        }
        let (blocks, rest) = count.quotientAndRemainder(dividingBy: block)
        guard blocks > 0 else { return try characters(rest, &self) }
        guard blocks <= Self.blockLimit else { throw unsupported("maxLength", at: "", "a maximum length above \(Self.blockLimit * block) is not supported") }
        let blockID = definition(Self.blockPointer, schema: .bool(true))
        func blockRun(_ minimum: Int, _ maximum: Int, _ compiler: inout SchemaCompiler) throws(SchemaError) -> Fragment {
            try compiler.builder.repeated(minimum: minimum, maximum: maximum) { (builder: inout NFABuilder) throws(SchemaError) in try builder.call(blockID) }
        }
        // Fewer than all blocks, then up to a block less one; or all blocks, then the rest.
        let short = try builder.sequence([try blockRun(0, blocks - 1, &self), try characters(block - 1, &self)])
        let full = try builder.sequence([try blockRun(blocks, blocks, &self), try characters(rest, &self)])
        return try builder.alternation([short, full])
    }
}
