import Foundation
import LlamaInference
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
        let text = try String(contentsOf: TestModel.fixtures.appendingPathComponent("chat-templates.json"), encoding: .utf8)
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
}
