import Foundation
import GuidedGeneration
import Testing

/// Text under a grammar from Swift: `respond(to:grammar:)` and `streamResponse(to:grammar:)` on
/// the local model, for each kind of ``TextGrammar``.
@Suite(.serialized) struct GrammarSessionTests {
    private let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 80)

    @Test func eachKindOfGrammarHoldsTheAnswer() async throws {
        let session = LanguageModelSession(model: try requireTinyModel())
        let time = try await session.respond(to: "When does the bakery open?", grammar: .regex("[0-2][0-9]:[0-5][0-9]"), options: options)
        #expect(time.content.wholeMatch(of: /[0-2][0-9]:[0-5][0-9]/) != nil, "\(time.content.debugDescription)")
        let colour = try await session.respond(to: "What colour is grass?", grammar: .choices(["green", "blue", "red"]), options: options)
        #expect(["green", "blue", "red"].contains(colour.content), "\(colour.content.debugDescription)")
        let sum = try await session.respond(to: "Write a sum of three numbers.", grammar: .gbnf(#"root ::= [0-9]+ (" + " [0-9]+){2}"#), options: options)
        #expect(sum.content.wholeMatch(of: /[0-9]+( \+ [0-9]+){2}/) != nil, "\(sum.content.debugDescription)")
        // Lark: left recursion read as repetition, a common terminal, and an embedded schema.
        let lark = """
            start: "Total: " expr " = " %json {"type": "integer", "minimum": 0}
            expr: expr " + " INT | INT
            %import common.INT
            """
        let total = try await session.respond(to: "Add 2, 3 and 4.", grammar: .lark(lark), options: options)
        #expect(total.content.wholeMatch(of: /Total: [0-9]+( \+ [0-9]+)* = (0|[1-9][0-9]*)/) != nil, "\(total.content.debugDescription)")
    }

    @Test func aStreamedAnswerGrowsUnderItsGrammar() async throws {
        let session = LanguageModelSession(model: try requireTinyModel())
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Name three fruits.", grammar: .lark(#"start: FRUIT (", " FRUIT){2}\#nFRUIT: /[a-z]{3,10}/"#), options: options) {
            snapshots.append(snapshot.content)
        }
        let final = try #require(snapshots.last)
        #expect(final.wholeMatch(of: /[a-z]{3,10}(, [a-z]{3,10}){2}/) != nil, "\(final.debugDescription)")
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $1.hasPrefix($0) }, "\(snapshots)")
    }
}
