/// Why a socket could not be opened, bound or connected: a sentence that names the address and
/// what the system said.
package struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, with the address.
    package let reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
