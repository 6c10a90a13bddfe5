import Foundation

/// An edit or a deletion, as a refresh's `changed` list, `GET /api/changes` and the live stream
/// give them.
///
/// Inserts, edits and deletions share one sequence on the server; `sequence` is this change's
/// number in it, so a client that has applied it reflects the feed up to there. An item edited
/// twice comes once, as it is now.
public enum Change: Sendable, Hashable, Decodable {
    /// The item as it is now: replace the one held with the same id.
    case updated(Item, sequence: Int64)
    /// The item `id` is gone for good: drop it where it is held.
    case deleted(id: Int64, sequence: Int64)

    /// The id of the item changed.
    public var itemID: Int64 {
        switch self {
        case .updated(let item, _): item.id
        case .deleted(let id, _): id
        }
    }

    /// The id of the item deleted; nil for an edit.
    public var deletedID: Int64? {
        if case .deleted(let id, _) = self { id } else { nil }
    }

    /// Its number in the server's one sequence.
    public var sequence: Int64 {
        switch self {
        case .updated(_, let sequence), .deleted(_, let sequence): sequence
        }
    }

    private enum CodingKeys: String, CodingKey { case type, sequence, item, id }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        let sequence = try members.decode(Int64.self, forKey: .sequence)
        switch try members.decode(String.self, forKey: .type) {
        case "updated": self = .updated(try members.decode(Item.self, forKey: .item), sequence: sequence)
        case "deleted": self = .deleted(id: try members.decode(Int64.self, forKey: .id), sequence: sequence)
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: members, debugDescription: "not a change: \(other)")
        }
    }
}
