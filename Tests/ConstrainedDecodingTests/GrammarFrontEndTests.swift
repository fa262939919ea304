import ConstrainedDecoding
import Testing

/// The grammars beyond JSON Schema: regular expressions, lists of choices and GBNF, compiled to
/// the same automaton and followed by the same matcher.
@Suite struct GrammarFrontEndTests {
    /// Whether `text` is a whole text of the grammar, read byte by byte (each byte must be
    /// allowed), and the same when read at once.
    static func accepts(_ grammar: CompiledGrammar, _ text: String) -> Bool {
        let matcher = GrammarMatcher(grammar: grammar)
        var readAll = true
        for byte in text.utf8 where !matcher.advance(bytes: [byte]) {
            readAll = false
            break
        }
        let accepted = readAll && matcher.isAccepting
        #expect(GrammarMatcher(grammar: grammar).accepts(document: Array(text.utf8)) == accepted, "\(text.debugDescription)")
        return accepted
    }

    static func expectLanguage(_ grammar: CompiledGrammar, accepts valid: [String], refuses invalid: [String]) {
        for text in valid { #expect(accepts(grammar, text), "should accept \(text.debugDescription)") }
        for text in invalid { #expect(!accepts(grammar, text), "should refuse \(text.debugDescription)") }
    }

    /// The error that `compile` throws.
    static func error(_ compile: () throws(GrammarError) -> CompiledGrammar) -> GrammarError? {
        do {
            _ = try compile()
            return nil
        } catch {
            return error
        }
    }

    // MARK: Regular expressions

    @Test func regularExpressionsMatchTheWholeText() throws {
        Self.expectLanguage(
            try CompiledGrammar(regex: #"[a-z]+@[a-z]+\.(com|org)"#),
            accepts: ["ada@example.com", "bob@lab.org"],
            refuses: ["ada@example.net", "Ada@example.com", "ada@example.com ", "xada@", "", "@example.com"])
        Self.expectLanguage(try CompiledGrammar(regex: #"\d{3}-\d{4}"#), accepts: ["555-1234"], refuses: ["555-123", "5551234", "555-12345"])
        // Anchors mean what the whole match already says.
        Self.expectLanguage(try CompiledGrammar(regex: "^ab$"), accepts: ["ab"], refuses: ["xab", "abx", "a"])
        // Characters beyond ASCII, as UTF-8; quotes and backslashes as they stand, not escaped.
        Self.expectLanguage(try CompiledGrammar(regex: "é+|中文"), accepts: ["é", "ééé", "中文"], refuses: ["e", "中", "é中文"])
        Self.expectLanguage(try CompiledGrammar(regex: #""[^"\\]*""#), accepts: [#""hi""#, #""""#], refuses: [#""h"i""#, #"\"hi\""#, "hi"])
        Self.expectLanguage(try CompiledGrammar(regex: "(yes|no)(, (yes|no)){0,2}"), accepts: ["yes", "no, yes", "yes, no, no"], refuses: ["yes, no, no, yes", "yes,no"])
    }

    @Test func regularExpressionsThatCannotBeEnforcedAreRefusedWithTheirPlace() {
        guard case .regex(let reason)? = Self.error({ () throws(GrammarError) in try CompiledGrammar(regex: "a(?=b)") }) else {
            Issue.record("a lookahead was not refused")
            return
        }
        #expect(reason.contains("lookahead") && reason.contains("at character 4"), "\(reason)")
        for pattern in [#"(a)\1"#, #"\bword"#, "[a-", "a{3,1}", "(ab", #"\p{L}"#] {
            guard case .regex? = Self.error({ () throws(GrammarError) in try CompiledGrammar(regex: pattern) }) else {
                Issue.record("\(pattern) was not refused")
                continue
            }
        }
        #expect(Self.error { () throws(GrammarError) in try CompiledGrammar(regex: #"[^\s\S]"#) } == .acceptsNothing("no text matches the regular expression"))
    }

    // MARK: Choices

    @Test func choicesAcceptOneOfTheirStringsExactly() throws {
        let grammar = try CompiledGrammar(choices: ["yes", "no", "maybe", "日本", "日本語"])
        Self.expectLanguage(grammar, accepts: ["yes", "no", "maybe", "日本", "日本語"], refuses: ["", "ye", "yesno", "Yes", "日", "日本語語"])
        Self.expectLanguage(try CompiledGrammar(choices: ["", "a", "a"]), accepts: ["", "a"], refuses: ["aa", "b"])
        // What the choices share is forced.
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(choices: ["Paris, France", "Paris, Texas"]))
        #expect(String(decoding: matcher.forcedBytes(), as: UTF8.self) == "Paris, ")
        #expect(matcher.advance(bytes: Array("Paris, T".utf8)))
        #expect(String(decoding: matcher.forcedBytes(), as: UTF8.self) == "exas")
        #expect(Self.error { () throws(GrammarError) in try CompiledGrammar(choices: []) } == .acceptsNothing("there are no choices"))
    }

    /// The masks of the new front ends are those of checking each token alone.
    @Test func masksAllowExactlyTheTokensThatCanBeRead() throws {
        let spellings = ["y", "yes", "es", "n", "no", "o", "maybe", "\"", "\\", "a", "ab", "b", "é", "中", "文", "中文", " ", "\n", "x y"]
        let vocabulary = Vocabulary(tokens: spellings.map { Array($0.utf8) } + [[]], specialTokens: [], endOfText: Int32(spellings.count))
        let grammars = [
            try CompiledGrammar(choices: ["yes", "no", "maybe"]),
            try CompiledGrammar(regex: #"(a|b|\\|")*(中文|é)?"#),
            try CompiledGrammar(gbnf: "root ::= (\"ab\" | [^a\\n])* \"\\n\""),
        ]
        let texts = ["yes", "ab\\\"中文", "xé \"b\n"]
        for (grammar, text) in zip(grammars, texts) {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
            var mask = TokenBitset(capacity: vocabulary.count)
            for byte in text.utf8 {
                matcher.allowedTokens(into: &mask)
                for token in 0..<Int32(vocabulary.count) {
                    #expect(mask.contains(token) == matcher.canAdvance(token: token), "\(text.debugDescription): token \(token)")
                }
                #expect(matcher.advance(bytes: [byte]))
            }
            matcher.allowedTokens(into: &mask)
            #expect(mask.contains(vocabulary.endOfText), "\(text.debugDescription) ends")
        }
    }

    /// A vocabulary with an end-of-turn token beside its end-of-text token (Llama 3's
    /// `<|eot_id|>`, Gemma's `<end_of_turn>`): a complete document may end with either, and an
    /// incomplete one with neither.
    @Test func everyEndTokenEndsACompleteDocument() throws {
        let spellings = ["a", "b", "\n", "", ""]
        let vocabulary = Vocabulary(tokens: spellings.map { Array($0.utf8) }, specialTokens: [], endOfText: 3, otherEndTokens: [4])
        #expect(vocabulary.endTokens == [3, 4] && vocabulary.specialTokens == [3, 4])
        let grammar = try CompiledGrammar(gbnf: #"root ::= ("a"+ "\n")+"#)
        var mask = TokenBitset(capacity: vocabulary.count)
        for end: Int32 in [3, 4] {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
            #expect(matcher.advance(token: 0))
            matcher.allowedTokens(into: &mask)
            #expect(!mask.contains(3) && !mask.contains(4) && !matcher.canAdvance(token: end))
            #expect(matcher.advance(token: 2))
            matcher.allowedTokens(into: &mask)
            #expect(mask.contains(0) && mask.contains(3) && mask.contains(4) && !mask.contains(1))
            #expect(matcher.advance(token: end))
            #expect(!matcher.canContinue && !matcher.advance(token: 0))
        }
    }

    // MARK: GBNF

    static let arithmetic = """
        # Sums of products, with parentheses.
        root   ::= expr
        expr   ::= term (("+" | "-") term)*
        term   ::= factor (("*" | "/") factor)*
        factor ::= number | "(" ws expr ws ")"
        number ::= [0-9]+
        ws     ::= [ ]*
        """

    @Test func gbnfRulesReferencesAndRecursion() throws {
        let grammar = try CompiledGrammar(gbnf: Self.arithmetic)
        Self.expectLanguage(grammar, accepts: ["1", "1+2*3", "( 1+2 )*3", "((4))", "10/(2-3)"], refuses: ["", "1+", "(1", "1)", "a", "1 + 2", "()"])
        // Recursion is followed as deep as references nest: three per parenthesis here.
        let nested = String(repeating: "(", count: 10) + "1" + String(repeating: ")", count: 10)
        #expect(Self.accepts(grammar, nested))
        let shallow = try CompiledGrammar(gbnf: Self.arithmetic, options: CompileOptions(maximumReferenceDepth: 8))
        #expect(Self.accepts(shallow, "(1)") && !Self.accepts(shallow, nested))
        // A rule that refers to itself last loops, at no depth.
        let list = try CompiledGrammar(gbnf: "root ::= item \",\" root | item\nitem ::= [a-z]+")
        Self.expectLanguage(list, accepts: ["a", "a,bc", Array(repeating: "x", count: 500).joined(separator: ",")], refuses: ["", "a,", ",a", "a,,b"])
        let nestedList = try CompiledGrammar(gbnf: "root ::= \"[\" (root (\",\" root)*)? \"]\" | \"x\"")
        Self.expectLanguage(nestedList, accepts: ["x", "[]", "[x,[x,[]]]", "[[[[x]]]]"], refuses: ["[", "[x,]", "[]]", "xx"])
    }

    @Test func gbnfLiteralsClassesAndRepetitions() throws {
        let escapes = try CompiledGrammar(gbnf: #"root ::= "\x41\u00e9\U0001F600\t\n\r\\\"" [\x30-\x39\]\-\[]"#)
        Self.expectLanguage(escapes, accepts: ["Aé😀\t\n\r\\\"5", "Aé😀\t\n\r\\\"]", "Aé😀\t\n\r\\\"-", "Aé😀\t\n\r\\\"["], refuses: ["Aé😀\t\n\r\\\"a", "Aé😀"])
        Self.expectLanguage(try CompiledGrammar(gbnf: #"root ::= [^a-z\n]+"#), accepts: ["ABC 123", "日本", "\""], refuses: ["abc", "A\nB", ""])
        Self.expectLanguage(try CompiledGrammar(gbnf: #"root ::= "<" .{2} ">""#), accepts: ["<ab>", "<日本>", "<\n\n>"], refuses: ["<a>", "<abc>"])
        Self.expectLanguage(
            try CompiledGrammar(gbnf: #"root ::= "x"{2} "y"{1,} "z"{0,2} "w"{ 1 , 2 } "v"?"#),
            accepts: ["xxyw", "xxyyyzzww", "xxyzwv"], refuses: ["xyw", "xxw", "xxyzzzw", "xxywww"])
        // Comments, names with hyphens, empty alternatives, newlines after '::=', after '|' and
        // inside parentheses.
        let layout = """
            root ::=
              greeting-word ws (  # a group over lines
                "world"
                | "there"
              ) "!"
            greeting-word ::= "hello" | "hi" # two of them
            ws ::= | " "
            """
        Self.expectLanguage(try CompiledGrammar(gbnf: layout), accepts: ["hello world!", "hithere!", "hi there!"], refuses: ["hello  world!", "hello world", "hey world!"])
    }

    @Test func gbnfErrorsNameTheRuleLineAndColumn() {
        func error(_ text: String) -> GrammarError? { Self.error { () throws(GrammarError) in try CompiledGrammar(gbnf: text) } }
        #expect(error("root ::= expr\nexpr ::= expr \"+\" \"1\" | \"1\"") == .leftRecursion(rule: "expr", line: 2, column: 1))
        // Through another rule, and after a rule that can be empty.
        #expect(error("root ::= a\na ::= b \"x\"\nb ::= ws a | \"y\"\nws ::= \" \"?") == .leftRecursion(rule: "a", line: 2, column: 1))
        #expect(error("root ::= \"a\" missing") == .undefinedRule(name: "missing", rule: "root", line: 1, column: 14))
        #expect(error("root ::= \"a\"\nroot ::= \"b\"") == .duplicateRule(name: "root", line: 2, column: 1))
        #expect(error("start ::= \"a\"") == .missingStart(rule: "root"))
        let syntax: [(String, String?, Int, Int, String)] = [
            ("root ::= \"abc", "root", 1, 10, "not closed"),
            ("root ::= x\nx ::= [a-", "x", 2, 7, "not closed"),
            ("root ::= \"a\"\nnext :: \"b\"", "next", 2, 6, "'::='"),
            ("root ::= (\"a\" \"b\"\n", "root", 2, 1, "')'"),
            ("root ::= \"\\q\"", "root", 1, 11, "unknown escape"),
            ("root ::= * \"a\"", "root", 1, 10, "nothing before it"),
            ("root ::= \"a\"{3,1}", "root", 1, 13, "maximum is below"),
            ("root ::= \"a\"{2001}", "root", 1, 14, "above 2000"),
            ("root ::= [z-a]", "root", 1, 11, "end comes before"),
            ("root ::= \"\\uD800\"", "root", 1, 11, "not a Unicode scalar"),
            ("root ::= <[12]>", "root", 1, 10, "token references"),
            ("root ::= \"a\"\n  | \"b\"", nil, 2, 3, "rule name"),
            ("root ::= \"a\" )", "root", 1, 14, "closes no group"),
        ]
        for (text, rule, line, column, words) in syntax {
            guard case .syntax(let foundRule, let foundLine, let foundColumn, let reason)? = error(text) else {
                Issue.record("\(text.debugDescription): no syntax error")
                continue
            }
            #expect(foundRule == rule && foundLine == line && foundColumn == column, "\(text.debugDescription): \(String(describing: error(text)))")
            #expect(reason.contains(words), "\(text.debugDescription): \(reason)")
        }
        #expect(error("root ::= \"a\"\nexpr ::= expr \"b\"")?.description.hasPrefix("line 2, column 1: rule 'expr' refers to itself") == true)
        #expect(error("root ::= \"abc")?.description == "line 1, column 10 (rule 'root'): a string that is not closed")
    }
}
