/// Instructions and tools worked out again before every request of a session, from the app's
/// state at that moment: a body of ``Instructions``, tools, conditionals, ``ForEach`` and other
/// dynamic instructions, written with ``DynamicInstructionsBuilder``.
///
/// ```swift
/// import GuidedGeneration
///
/// struct Greeter: DynamicInstructions {
///     var names: [String]
///     var isFormal: Bool
///
///     var body: some DynamicInstructions {
///         Instructions("You greet people by name.")
///         if isFormal {
///             Instructions("Use their family names.")
///         }
///         DynamicInstructions.ForEach(names, id: \.self) { name in
///             Instructions("Greet \(name).")
///         }
///     }
/// }
///
/// let resolved = Greeter(names: ["Ada", "Alan"], isFormal: true).resolvedInstructions
/// print(resolved.instructions.description)
/// ```
public protocol DynamicInstructions {
    /// The dynamic instructions this one is made of.
    associatedtype Body: DynamicInstructions
    /// What this one is made of, worked out again before each request.
    @DynamicInstructionsBuilder var body: Body { get }

    /// Dynamic instructions for each element of a collection, written
    /// `DynamicInstructions.ForEach(data, id: \.name) { element in ... }`.
    typealias ForEach = DynamicInstructionsForEach
}

/// Dynamic instructions that hold their instructions and tools themselves instead of in a body
/// (``Instructions``, a tool, the builder's structures); their body is empty and never read.
protocol PrimitiveDynamicInstructions {
    /// Appends what this holds.
    func resolve(into resolved: inout ResolvedInstructions)
}

/// What dynamic instructions come to at one moment: instructions, in order, and tools.
public struct ResolvedInstructions: Sendable {
    /// The pieces of the instructions, in order.
    var segments: [PromptSegment] = []
    /// The instructions, one piece after another, each on its own line.
    public var instructions: Instructions { Instructions(segments: segments) }
    /// The tools, in the order the body gives them.
    public internal(set) var tools: [any Tool] = []

    init() {}
}

extension DynamicInstructions {
    /// The instructions and tools the body comes to now.
    public var resolvedInstructions: ResolvedInstructions {
        var resolved = ResolvedInstructions()
        resolve(into: &resolved)
        return resolved
    }

    /// Appends what the body comes to now.
    func resolve(into resolved: inout ResolvedInstructions) {
        if let primitive = self as? any PrimitiveDynamicInstructions {
            primitive.resolve(into: &resolved)
        } else {
            body.resolve(into: &resolved)
        }
    }
}

extension Instructions: DynamicInstructions, PrimitiveDynamicInstructions {
    /// Nothing: instructions are text themselves.
    public var body: EmptyDynamicInstructions { EmptyDynamicInstructions() }

    func resolve(into resolved: inout ResolvedInstructions) {
        resolved.segments += segments
    }
}
