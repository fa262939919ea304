/// A capability the model may use while it answers: a function with a name, a description the
/// model reads, and arguments the model writes as content of the tool's schema.
///
/// Give tools to a session (`LanguageModelSession(tools:instructions:)`);
/// the model then answers either directly or with calls of tools, whose arguments always match
/// their schema. The session runs the calls, shows the model their output, and lets it continue
/// until it answers.
///
/// ```swift
/// struct FindContact: Tool {
///     let description = "Finds the phone number of a contact by name."
///
///     @Generable
///     struct Arguments {
///         @Guide(description: "The contact's name")
///         var name: String
///     }
///
///     func call(arguments: Arguments) async throws -> String {
///         try await contacts.phoneNumber(of: arguments.name)
///     }
/// }
/// ```
public protocol Tool<Arguments, Output>: Sendable {
    /// What the tool returns; it is shown to the model as a prompt.
    associatedtype Output: PromptRepresentable
    /// What the model passes to the tool, made from the content it generated.
    associatedtype Arguments: ConvertibleFromGeneratedContent

    /// The name the model calls the tool by (the type's name unless given).
    var name: String { get }
    /// What the tool does, in words the model reads verbatim.
    var description: String { get }
    /// The schema of the arguments (the `Arguments` type's schema when it is `Generable`).
    var parameters: GenerationSchema { get }
    /// Whether the arguments' schema is written into the instructions the model reads (it is
    /// enforced either way).
    var includesSchemaInInstructions: Bool { get }

    /// Runs the tool. Calls may run concurrently when the model makes several at once.
    func call(arguments: Arguments) async throws -> Output
}

extension Tool {
    /// The type's name.
    public var name: String { String(describing: Self.self) }

    /// `true`: the model reads the arguments' schema.
    public var includesSchemaInInstructions: Bool { true }
}

extension Tool where Arguments: Generable {
    /// The schema of the `Generable` arguments type.
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension [any Tool] {
    /// The definitions of the tools, as the model is told about them.
    var definitions: [Transcript.ToolDefinition] { map { Transcript.ToolDefinition(tool: $0) } }
}
