import Foundation
import HTTPWire
import Synchronization

/// The server's open connections, by client address, with what each is doing: waiting for a
/// request (idle, or its bytes still arriving) or being answered. A new connection beyond a
/// bound takes the place of the connection that has waited longest, so that clients that open
/// connections and send nothing, or send a request slowly, cannot take every place: only
/// connections being answered hold theirs.
final class ConnectionTable: Sendable {
    /// A connection's place in the table.
    struct Place: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Entry {
        let connection: Connection
        let peer: String
        /// Since when the connection waits for a request; `nil` while one is answered.
        var waitingSince: Date?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var perPeer: [String: Int] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())
    let maximum: Int
    let maximumPerPeer: Int

    init(maximum: Int, maximumPerPeer: Int) {
        self.maximum = max(1, maximum)
        self.maximumPerPeer = max(1, min(maximumPerPeer, maximum))
    }

    /// Gives a new connection from `peer` a place, shutting down the connection that has waited
    /// longest (of the same peer when the peer is at its bound) when the table is full; `nil`
    /// when every place of the bound is held by a connection being answered.
    func admit(_ connection: Connection, from peer: String) -> Place? {
        let evicted: Connection?
        let place: Place?
        (place, evicted) = state.withLock { state -> (Place?, Connection?) in
            var evicted: Connection?
            if state.perPeer[peer, default: 0] >= maximumPerPeer {
                guard let id = Self.longestWaiting(in: state, from: peer) else { return (nil, nil) }
                evicted = Self.remove(id, from: &state)
            } else if state.entries.count >= maximum {
                guard let id = Self.longestWaiting(in: state, from: nil) else { return (nil, nil) }
                evicted = Self.remove(id, from: &state)
            }
            state.nextID += 1
            state.entries[state.nextID] = Entry(connection: connection, peer: peer, waitingSince: Date())
            state.perPeer[peer, default: 0] += 1
            return (Place(id: state.nextID), evicted)
        }
        // Its thread sees the connection end, and releases it.
        evicted?.shutdown()
        return place
    }

    /// Marks the connection as waiting for its next request (`true`) or being answered.
    func setWaiting(_ place: Place, _ waiting: Bool) {
        state.withLock { state in
            guard state.entries[place.id] != nil else { return }
            state.entries[place.id]?.waitingSince = waiting ? Date() : nil
        }
    }

    /// Frees the connection's place, unless it was taken already.
    func remove(_ place: Place) {
        _ = state.withLock { Self.remove(place.id, from: &$0) }
    }

    /// How many connections are open.
    var count: Int { state.withLock { $0.entries.count } }

    private static func longestWaiting(in state: State, from peer: String?) -> Int? {
        var found: (id: Int, since: Date)?
        for (id, entry) in state.entries {
            guard let since = entry.waitingSince, peer == nil || entry.peer == peer else { continue }
            if found.map({ since < $0.since }) ?? true { found = (id, since) }
        }
        return found?.id
    }

    private static func remove(_ id: Int, from state: inout State) -> Connection? {
        guard let entry = state.entries.removeValue(forKey: id) else { return nil }
        let left = state.perPeer[entry.peer, default: 1] - 1
        state.perPeer[entry.peer] = left > 0 ? left : nil
        return entry.connection
    }
}
