import Foundation

/// The identity of a generated value, stable across the snapshots of one generation.
public struct GenerationID: Sendable, Hashable {
    private let value: UUID

    /// Creates a new, unique identity.
    public init() {
        value = UUID()
    }
}
