import Foundation
import ChatTemplates
import Testing

/// The Jinja interpreter: real chat templates rendered as jinja2 renders them (the fixture made
/// by Tests/scripts/make-chat-template-fixture.py), the constructs one by one, and errors that
/// name what failed and where.
@Suite struct JinjaTemplateTests {
    /// The time the fixture's `strftime_now` wrote: 26 July 2024, noon, local time.
    static let fixtureNow: Date = {
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour) = (2024, 7, 26, 12)
        return Calendar(identifier: .gregorian).date(from: components) ?? Date()
    }()

    static func render(_ source: String, _ variables: [String: JinjaValue] = [:]) throws -> String {
        try JinjaTemplate(source: source).render(variables, now: fixtureNow)
    }

    // MARK: The fixture

    @Test func everyFixtureCaseRendersAsJinja2Does() throws {
        let text = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/chat-templates.json"), encoding: .utf8)
        guard case .dictionary(let fixture) = try JinjaValue(json: text), case .array(let templates)? = fixture["templates"],
            case .array(let cases)? = fixture["cases"]
        else {
            Issue.record("chat-templates.json has no templates and cases")
            return
        }
        var parsed: [String: JinjaTemplate] = [:]
        for case .dictionary(let entry) in templates {
            guard case .string(let name)? = entry["name"], case .string(let source)? = entry["source"] else { continue }
            do {
                parsed[name] = try JinjaTemplate(source: source)
            } catch {
                Issue.record("template \(name) does not parse: \(error)")
            }
        }
        #expect(parsed.count == templates.count)
        var rendered = 0
        for case .dictionary(let entry) in cases {
            guard case .string(let name)? = entry["template"], let template = parsed[name] else { continue }
            let label = "template \(name), conversation \(entry["conversation"].map { "\($0)" } ?? "?"), "
                + "add_generation_prompt \(entry["add_generation_prompt"] == .boolean(true))"
            let variables: [String: JinjaValue] = [
                "messages": entry["messages"] ?? [], "tools": entry["tools"] ?? .none, "documents": .none,
                "add_generation_prompt": entry["add_generation_prompt"] ?? false, "bos_token": entry["bos_token"] ?? "",
                "eos_token": entry["eos_token"] ?? "",
            ]
            let result = Result { () throws(JinjaError) in try template.render(variables, now: Self.fixtureNow) }
            switch (result, entry["expected"], entry["error"]) {
            case (.success(let text), .string(let expected)?, _):
                #expect(text == expected, "\(label)")
                if text == expected { rendered += 1 }
            case (.failure(let error), .string?, _):
                Issue.record("\(label): \(error)")
            case (.success(let text), _, .dictionary(let expected)?):
                Issue.record("\(label): rendered \(text.debugDescription) where jinja2 fails with \(expected["message"] ?? "?")")
            case (.failure(let error), _, .dictionary(let expected)?):
                if expected["kind"] == "raise_exception" {
                    #expect(error == .raised(expected["message"].map { if case .string(let m) = $0 { m } else { "" } } ?? "", at: error.location),
                        "\(label): \(error)")
                } else {
                    rendered += 1
                }
            default:
                Issue.record("\(label): the fixture has neither expected text nor an error")
            }
        }
        #expect(rendered > 0)
    }

    // MARK: Constructs

    @Test func whitespaceControlIsJinja2sWithTrimAndLstripBlocks() throws {
        #expect(try Self.render("a\n  {% if true %}\n  b\n  {% endif %}\nc") == "a\n  b\nc")
        #expect(try Self.render("{% for i in [1, 2] -%}\n  {{ i }}\n{%- endfor %}|{{- '  x  ' -}}  |  {{ 'y' }}") == "12|  x  |  y")
        #expect(try Self.render("  {%+ if true %}p{% endif +%}\nq{# note #}\nr  {#- c -#}  s") == "  p\nqrs")
        #expect(try Self.render("{% raw %}{{ kept }}{% endraw %}\r\nline\r\n") == "{{ kept }}line")
        #expect(try Self.render("{% raw -%}  {{ kept }}  {%- endraw %}\r\nline\r\n\r\n") == "{{ kept }}line\n")
    }

    @Test func loopsAssignmentsAndMacrosHaveJinja2sScopes() throws {
        #expect(
            try Self.render("{% for x in [] %}a{% else %}empty{% endfor %} {% for x in 'ab' %}{{ loop.index }}{{ x }}{{ '' if loop.last else ',' }}{% endfor %}")
                == "empty 1a,2b")
        // A `for` body has a scope of its own; `if` has not.
        #expect(try Self.render("{% set x = 1 %}{% for i in [1] %}{% set x = 2 %}{{ x }}{% endfor %}{{ x }} {% if true %}{% set y = 3 %}{% endif %}{{ y }}") == "21 3")
        #expect(
            try Self.render("{% set ns = namespace(n=0) %}{% for i in range(5) %}{% if i == 3 %}{% break %}{% endif %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}")
                == "3")
        #expect(
            try Self.render("{% macro m(a, b='B', c=none) %}[{{ a }}{{ b }}{{ c }}]{% endmacro %}{{ m(1) }}{{ m(1, 2) }}{{ m(1, c=3) }}")
                == "[1BNone][12None][1B3]")
        #expect(
            try Self.render("{% set block %}  x {{ 1 + 1 }}  {% endset %}[{{ block }}]{% set t | trim %}  y  {% endset %}[{{ t }}]{% filter upper %}up{% endfilter %}")
                == "[  x 2  ][y]UP")
    }

    @Test func expressionsComputeAndPrintAsPython() throws {
        #expect(
            try Self.render("{{ 7 // 2 }} {{ -7 // 2 }} {{ -7 % 3 }} {{ 7 / 2 }} {{ 2 ** 10 }} {{ 1.0 }} {{ 1e20 }} {{ 0.1 + 0.2 }} {{ none }} {{ true }} {{ [1, 'a', none] }} {{ {'k': 1.5} }}")
                == "3 -4 2 3.5 1024 1.0 1e+20 0.30000000000000004 None True [1, 'a', None] {'k': 1.5}")
        #expect(
            try Self.render("{{ ' a b '.strip() }}|{{ 'a,b'.split(',') }}|{{ 'abc'[::-1] }}|{{ 'abc'[1:] }}|{{ [1,2,3][-1] }}|{{ 'x'.upper() ~ 'Y'.lower() }}|{{ 'hi'.startswith('h') }}")
                == "a b|['a', 'b']|cba|bc|3|Xy|True")
        #expect(
            try Self.render("{{ missing }}|{{ missing | length }}|{{ missing is defined }}|{{ missing | default('d') }}|{% if missing %}t{% else %}f{% endif %}|{{ {}.nope is defined }}")
                == "|0|False|d|f|False")
    }

    @Test func toolsKeepTheirOrderThroughJSONAndTojson() throws {
        let tools = try JinjaValue(json: #"[{"name": "f", "parameters": {"b": 1, "a": [true, null, 1.5, "<é>"]}}]"#)
        #expect(try Self.render("{{ tools | tojson }}", ["tools": tools]) == #"[{"name": "f", "parameters": {"b": 1, "a": [true, null, 1.5, "<é>"]}}]"#)
        #expect(
            try Self.render("{{ tools | tojson(indent=2) }}", ["tools": [["name": "f", "parameters": .dictionary(JinjaDictionary())]]])
                == "[\n  {\n    \"name\": \"f\",\n    \"parameters\": {}\n  }\n]")
        #expect(throws: JinjaError.self) { try JinjaValue(json: #"{"a": }"#) }
    }

    @Test func strftimeNowWritesTheGivenDate() throws {
        #expect(
            try Self.render("{{ strftime_now('%d %b %Y') }} {{ strftime_now('%Y-%m-%d %H:%M') }} {{ strftime_now('%B %-d, %A') }}")
                == "26 Jul 2024 2024-07-26 12:00 July 26, Friday")
    }

    // MARK: Errors

    static func error(_ source: String, _ variables: [String: JinjaValue] = [:], limits: JinjaTemplate.Limits = JinjaTemplate.Limits())
        -> JinjaError?
    {
        do {
            _ = try JinjaTemplate(source: source, limits: limits).render(variables, now: fixtureNow)
            return nil
        } catch {
            return error
        }
    }

    static func at(_ line: Int, _ column: Int) -> JinjaSourceLocation {
        JinjaSourceLocation(line: line, column: column)
    }

    @Test func unsupportedConstructsAreNamedWithWhereTheyAre() {
        #expect(Self.error("{% include 'x' %}") == .unsupported("statement 'include'", at: Self.at(1, 4)))
        #expect(Self.error("{{ x\n  | wordwrap(3) }}") == .unsupported("filter 'wordwrap'", at: Self.at(2, 5)))
        #expect(Self.error("{{ x is prime }}") == .unsupported("test 'prime'", at: Self.at(1, 9)))
        #expect(Self.error("{{ 'a'.expandtabs() }}") == .unsupported("method 'str.expandtabs'", at: Self.at(1, 4)))
        #expect(Self.error("{% for x in y recursive %}{% endfor %}") == .unsupported("recursive loop", at: Self.at(1, 15)))
        #expect(Self.error("{{ x | wordwrap }}")?.description == "unsupported filter 'wordwrap' at 1:8")
    }

    @Test func errorsSayWhatFailedAndWhere() {
        #expect(Self.error("{{ x + }}") == .syntax("unexpected '}}'", at: Self.at(1, 8)))
        #expect(Self.error("{% if x %}") == .syntax("unexpected end of template, expected 'elif' or 'else' or 'endif'", at: Self.at(1, 11)))
        #expect(Self.error("line\n{{ missing.attribute }}") == .evaluation("'missing' is undefined", at: Self.at(2, 4)))
        #expect(Self.error("{{ 'a' + 1 }}") == .evaluation("can only concatenate str (not \"int\") to str", at: Self.at(1, 8)))
        #expect(Self.error("{{ raise_exception('Roles must alternate') }}") == .raised("Roles must alternate", at: Self.at(1, 4)))
        #expect(Self.error("{% set x = [1] %}{{ x.append(2) }}") == .evaluation("access to attribute 'append' of 'list' object is unsafe.", at: Self.at(1, 21)))
    }

    @Test func hostileTemplatesStopWithATypedError() throws {
        func isLimit(_ error: JinjaError?) -> Bool {
            if case .limitExceeded? = error { return true }
            return false
        }
        let small = {
            var limits = JinjaTemplate.Limits()
            limits.maximumIterations = 10_000
            limits.maximumLength = 1 << 20
            return limits
        }()
        // Nesting in the source.
        #expect(isLimit(Self.error("{{ " + String(repeating: "(", count: 5_000) + "1" + String(repeating: ")", count: 5_000) + " }}")))
        #expect(isLimit(Self.error(String(repeating: "{% if true %}", count: 5_000) + String(repeating: "{% endif %}", count: 5_000))))
        #expect(isLimit(Self.error("{{ " + String(repeating: "not ", count: 5_000) + "x }}")))
        #expect(isLimit(Self.error("{{ x" + String(repeating: ".a", count: 5_000) + " }}")))
        #expect(isLimit(Self.error("{{ 1" + String(repeating: " if x else 1", count: 5_000) + " }}")))
        // A long chain of one operator nests nothing.
        #expect(Self.error("{{ 1" + String(repeating: " + 1", count: 20_000) + " }}") == nil)
        // Recursion, loops and growth at render time.
        #expect(isLimit(Self.error("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}")))
        #expect(isLimit(Self.error("{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}", limits: small)))
        #expect(isLimit(Self.error("{% for i in range(100000) %}{{ 'xxxxxxxxxx' }}{% endfor %}", limits: small)))
        #expect(isLimit(Self.error("{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}", limits: small)))
        #expect(isLimit(Self.error("{% set ns = namespace(v=[]) %}{% for i in range(1000) %}{% set ns.v = [ns.v] %}{% endfor %}")))
        #expect(isLimit(Self.error("{{ 'a' * 1000000000000 }}")))
        #expect(isLimit(Self.error("{{ 'ab'.replace('a', 'a' * 1000000) | replace('a', 'a' * 1000000) }}", limits: small)))
        #expect(isLimit(Self.error("{% set ns = namespace() %}{% set ns.me = ns %}{{ ns }}")))
        #expect(Self.error("{{ range(1000000) | length }}") == .evaluation(
            "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).", at: Self.at(1, 4)))
        #expect(Self.error("{{ 9223372036854775807 + 1 }}") == .evaluation("integer overflow", at: Self.at(1, 24)))
        #expect(try Self.render("{{ 'abc'[1::9223372036854775807] }} {{ 'abcdef'[-1:-100:-2] }} {{ range(-9223372036854775807, 9223372036854775807, 9223372036854775807) }}")
            == "b fdb [-9223372036854775807, 0]")
        #expect(try Self.render("{{ range(3) }} {{ range(1, 10, 3) }} {{ range(10, 1, -3) }} {{ range(5, 5) }} {{ range(0, 8, 7) }}")
            == "[0, 1, 2] [1, 4, 7] [10, 7, 4] [] [0, 7]")
        #expect(Self.error("{{ range(-9223372036854775807, 9223372036854775807) }}") == .evaluation(
            "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).", at: Self.at(1, 4)))
    }
}
