import ConstrainedDecoding
import Testing

/// Lark grammars, as llguidance reads them, compiled to the same automaton as the other front
/// ends.
@Suite struct LarkGrammarTests {
    private static func expectLanguage(_ lark: String, accepts valid: [String], refuses invalid: [String]) throws {
        GrammarFrontEndTests.expectLanguage(try CompiledGrammar(lark: lark), accepts: valid, refuses: invalid)
    }

    private static func error(_ lark: String) -> GrammarError? {
        GrammarFrontEndTests.error { () throws(GrammarError) in try CompiledGrammar(lark: lark) }
    }

    @Test func rulesTerminalsAndRepetitions() throws {
        try Self.expectLanguage(
            """
            // a list of words
            start: word ("," word)*
            word: LETTER+ | "<" NUMBER ">"
            LETTER: "a".."z"
            NUMBER: /[0-9]+/
            """,
            accepts: ["a", "ab,c", "ab,<12>,x"], refuses: ["", "ab,", "AB", "<>", "a ,b"])
        try Self.expectLanguage(
            """
            start: item~2..3 [SUFFIX] "!"{1,2}
            item: "x" | "y"
            SUFFIX: "?"
            """,
            accepts: ["xy!", "xyx?!!", "yy!!"], refuses: ["x!", "xyxy!", "xy?", "xy!!!"])
        // A line that starts with '|' continues the alternatives; aliases, modifiers and
        // priorities do not change the language.
        try Self.expectLanguage(
            """
            ?start: greeting
                  | farewell -> bye
            greeting.2: "hello"
            !farewell: "bye" # a comment
            """,
            accepts: ["hello", "bye"], refuses: ["hellobye", ""])
    }

    @Test func stringsRegularExpressionsAndTheirFlags() throws {
        try Self.expectLanguage(
            #"start: "select"i " " /[a-z_]+/ " " "\"\t\u00e9" "\d""#,
            accepts: ["SELECT name \"\té\\d", "sElEcT a_b \"\té\\d"], refuses: ["select Name \"\té\\d", "selec name \"\té\\d"])
        // '.' matches anything but a line feed, as in Python; the flag 's' makes it match that too.
        try Self.expectLanguage(#"start: /a.c/"#, accepts: ["abc", "a\rc", "a中c"], refuses: ["a\nc", "ac"])
        try Self.expectLanguage(#"start: /a.c/s"#, accepts: ["a\nc"], refuses: ["ac"])
        try Self.expectLanguage(#"start: /[a-c]+x/i"#, accepts: ["AbCx", "aX"], refuses: ["dx", "a"])
        // A slash inside the expression is escaped.
        try Self.expectLanguage(#"start: /a\/b/ | /c/"#, accepts: ["a/b", "c"], refuses: ["a\\/b", "ab"])
    }

    @Test func importsFromCommonAndIgnoredText() throws {
        try Self.expectLanguage(
            """
            start: pair ("," pair)*
            pair: CNAME "=" value
            value: SIGNED_NUMBER | ESCAPED_STRING
            %import common.CNAME
            %import common (SIGNED_NUMBER, ESCAPED_STRING)
            %import common.WS -> SPACE
            %ignore SPACE
            """,
            accepts: [#"a=1"#, #" a = -1.5e3 , b_2="x \"y\"" "#, "a=1,\n\tb=2"],
            refuses: ["a b=1", "a=1,", #"a="x"#, "2a=1"])
    }

    @Test func leftRecursionIsReadAsRepetition() throws {
        // The calculator of OpenAI's custom-tool grammars, with left recursion and aliases.
        try Self.expectLanguage(
            """
            start: expr
            expr: expr SP ADD SP term -> add
                | term
            term: term SP MUL SP factor -> mul
                | factor
            factor: INT | "(" expr ")"
            SP: " "
            ADD: "+"
            MUL: "*"
            %import common.INT
            """,
            accepts: ["1", "1 + 2", "1 + 2 * 3", "(1 + 2) * 3 + 4"], refuses: ["1+2", "+ 1", "1 +", "(1 + 2"])
        guard case .leftRecursion(let rule, let line, _)? = Self.error("start: a\na: b \"x\"\nb: a \"y\" | \"z\"") else {
            Issue.record("left recursion through another rule was not refused")
            return
        }
        #expect(rule == "a" && line == 2)
    }

    @Test func embeddedJSONSchemas() throws {
        let grammar = """
            start: TEXT | fun_call
            TEXT: /[^{](.|\\n)*/
            fun_call: %json {
              "type": "object",
              "properties": {"name": {"const": "get_weather"}, "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
              "required": ["name", "parameters"]
            }
            """
        try Self.expectLanguage(
            grammar,
            accepts: ["There is no function I can call", #"{"name":"get_weather","parameters":{"city":"Seattle"}}"#],
            refuses: [#"{"name":"get_time","parameters":{"city":"Seattle"}}"#, #"{"name":"get_weather"}"#, ""])
        // The same schema twice is compiled once; two schemas in one rule each hold.
        try Self.expectLanguage(
            #"start: %json {"type": "integer"} " " %json {"type": "boolean"} (" " %json {"type": "integer"})?"#,
            accepts: ["1 true", "-3 false 7"], refuses: ["1 1", "true 1", "1 true x"])
        guard case .embeddedSchema(let rule, let line, _, let reason)? = Self.error("start: \"a\" b\nb: %json {\"type\": \"string\", \"format\": \"email\", \"pattern\": \"(?=a)\"}") else {
            Issue.record("an embedded schema that cannot be enforced was not refused")
            return
        }
        #expect(rule == "b" && line == 2 && reason.contains("pattern"), "\(reason)")
    }

    @Test func errorsNameTheRuleLineAndColumn() {
        #expect(Self.error("item: \"a\"") == .missingStart(rule: "start"))
        #expect(Self.error("start: a") == .undefinedRule(name: "a", rule: "start", line: 1, column: 8))
        #expect(Self.error("start: A\nA: \"x\" A?") == .recursiveTerminal(name: "A", line: 2, column: 1))
        #expect(Self.error("start: A\nA: \"x\" b\nb: \"y\"") == .ruleInTerminal(terminal: "A", rule: "b", line: 2, column: 8))
        for (text, line, column, words) in [
            ("start: <|python_tag|> \"a\"", 1, 8, "special tokens"),
            ("start: \"a\"\nb[lazy]: /.*/", 2, 2, "rule options"),
            ("start: /a/m", 1, 11, "flag 'm'"),
            ("start: /(?<=a)b/", 1, 8, "lookbehind"),
            ("start: \"a\n", 1, 8, "not closed"),
            ("%import other.X\nstart: X", 1, 9, "'common'"),
            ("%import common.NOPE\nstart: \"a\"", 1, 16, "no terminal 'NOPE'"),
            ("start: A\nA: %json {}", 2, 4, "%json"),
            ("start: (\"a\" | \"b\"", 1, 18, "opened at line 1, column 8"),
            ("%declare X\nstart: \"a\"", 1, 1, "%declare"),
        ] {
            guard case .syntax(_, let foundLine, let foundColumn, let reason)? = Self.error(text) else {
                Issue.record("\(text.debugDescription) was not refused as a syntax error: \(String(describing: Self.error(text)))")
                continue
            }
            #expect(foundLine == line && foundColumn == column && reason.contains(words), "\(text.debugDescription): \(foundLine):\(foundColumn) \(reason)")
        }
    }
}
