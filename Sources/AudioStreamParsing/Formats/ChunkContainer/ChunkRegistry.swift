/// The chunks a container acts on: one table from identifier to the role the format gives the
/// chunk (style rule "registries are data", as mp4box.js's box registry).
///
/// A chunk whose identifier is not in the table is unknown: `ChunkWalker` skips it unread with a
/// diagnostic. Identifiers are unique (each format's unit test checks it).
struct ChunkRegistry<Role: Sendable>: Sendable {
    /// One registered chunk.
    struct Entry: Sendable {
        /// The identifier.
        var id: ChunkID
        /// What the format does with the chunk.
        var role: Role
    }

    /// The registered chunks, in specification order.
    let entries: [Entry]

    /// A registry of `entries` (identifier, role).
    init(_ entries: [(ChunkID, Role)]) {
        self.entries = entries.map { Entry(id: $0.0, role: $0.1) }
    }

    /// The role of chunk `id`, or `nil` when it is not registered.
    func role(of id: ChunkID) -> Role? {
        for entry in entries where entry.id == id { return entry.role }
        return nil
    }

    /// Whether chunk `id` is registered.
    func contains(_ id: ChunkID) -> Bool { role(of: id) != nil }
}
