import Foundation
@testable import GuidedGeneration
import PartialJSON
import Testing

/// One request, one prompt: a schema request reads the same to the model whether it comes from
/// a session (as `guided generate --schema FILE PROMPT` makes it), from an OpenAI client through
/// `guided serve` (the schema in `response_format`, with the name the protocol requires), or from
/// a session on a served model through `guided serve`.
@Suite struct OnePromptTests {
    static let schema = #"{"type":"object","properties":{"reasoning":{"type":"string"},"answer":{"type":"integer"}},"required":["reasoning","answer"],"additionalProperties":false}"#
    static let titled = #"{"title":"TaskAnswer","type":"object","properties":{"answer":{"type":"integer","description":"The number"}},"required":["answer"]}"#
    static let prompt = "A jar holds 12 red marbles and 30 blue marbles. How many marbles is that in all?"
    static let reply = #"{"reasoning":"12 + 30 = 42.","answer":42}"#

    /// The conversation the model reads for a session's request.
    static func sessionConversation(schema: String, instructions: String?) async throws -> String {
        let model = ScriptedModel(replies: [reply])
        let session = LanguageModelSession(model: SystemLanguageModel(backend: model), instructions: instructions)
        _ = try await session.respond(to: prompt, schema: try GenerationSchema(jsonSchema: schema), options: GenerationOptions(sampling: .greedy))
        return try #require(model.conversations.first)
    }

    /// The conversation the model reads for a request `guided serve` receives.
    static func servedConversation(body: JSONValue) async throws -> String {
        let model = ScriptedModel(replies: [reply])
        let request = try ChatCompletionRequest(body: Array(body.jsonString.utf8))
        _ = try await ProviderModel(SystemLanguageModel(backend: model)).turn(request.generation, json: request.isJSON, cancellation: CancellationFlag()) { _, _ in }
        return try #require(model.conversations.first)
    }

    /// An OpenAI client's request: the messages as the user wrote them, the schema in
    /// `response_format` under a name.
    static func clientBody(schema: String, name: String, instructions: String?) throws -> JSONValue {
        let messages: [JSONValue] =
            (instructions.map { [.object(["role": .string("system"), "content": .string($0)])] } ?? [])
            + [.object(["role": .string("user"), "content": .string(prompt)])]
        return try body(messages: messages, name: name, schema: try JSONValue(parsing: schema))
    }

    /// A request body with greedy sampling and the schema in `response_format`.
    static func body(messages: [JSONValue], name: String, schema: JSONValue) throws -> JSONValue {
        .object([
            "model": .string("m"), "temperature": try JSONValue(parsing: "0"), "messages": .array(messages),
            "response_format": .object([
                "type": .string("json_schema"),
                "json_schema": .object(["name": .string(name), "schema": schema, "strict": .bool(true)]),
            ]),
        ])
    }

    @Test(arguments: [(schema, nil), (schema, "Be brief."), (titled, nil), (titled, "Be brief.")])
    func aClientsRequestReadsAsTheSessionsDoes(schema: String, instructions: String?) async throws {
        let local = try await Self.sessionConversation(schema: schema, instructions: instructions)
        #expect(local.contains("The request: " + Self.prompt))
        for name in ["answer", "response", "TaskAnswer"] {
            let served = try await Self.servedConversation(body: try Self.clientBody(schema: schema, name: name, instructions: instructions))
            #expect(served == local, "named \(name)")
        }
    }

    /// A session on a served model sends the conversation with the schema already described;
    /// the server reads it as the local model would have.
    @Test(arguments: [(schema, nil), (titled, "Be brief.")])
    func aSessionOnAServedModelReadsAsALocalSessionDoes(schema: String, instructions: String?) async throws {
        let local = try await Self.sessionConversation(schema: schema, instructions: instructions)
        let generationSchema = try GenerationSchema(jsonSchema: schema)
        var entries: [Transcript.Entry] = instructions.map { [.instructions(Transcript.Instructions(segments: [.text(.init(content: $0))], toolDefinitions: []))] } ?? []
        entries.append(.prompt(Transcript.Prompt(segments: [.text(.init(content: Self.prompt))], responseFormat: Transcript.ResponseFormat(schema: generationSchema))))
        let messages = try ChatCompletionRequest.messages(of: Transcript(entries: entries))
        let body = try Self.body(messages: messages, name: ChatCompletionRequest.name(of: generationSchema), schema: try generationSchema.jsonSchema())
        #expect(try await Self.servedConversation(body: body) == local)
    }
}
