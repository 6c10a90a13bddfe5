import CJansson
import Foundation
import InvalidInput
import ItemFields
import PulldownFeed

/// One entry of a data file, parsed: the fields the feed reads, checked, and the item's own.
enum DataEntry {
    /// What an entry's own `id` (json-server's) is kept as: the item's `id` is the server's.
    static let sourceID = "sourceId"

    /// The item in `object`, or the first problem with it to `refuse` ("title is required").
    static func item(_ object: UnsafeMutablePointer<json_t>,
                     refuse: (String) throws(DataFileError) -> Never) throws(DataFileError) -> ImportedItem {
        var invalid = InvalidParameters()
        keepSourceID(of: object, into: &invalid)
        let userFields = UserFields.check(object, core: DataFile.itemFields, reserved: ["id", "version", "editedAt"], into: &invalid)
        func text(_ name: String) -> String? {
            guard let field = json_object_get(object, name), field.pointee.type != JSON_NULL else { return nil }
            guard let string = UserFields.string(field) else {
                invalid.add(name, InvalidParameters.Reason.string)
                return nil
            }
            return string
        }
        let title = text("title")
        if title == nil && !invalid.contains("title") { invalid.add("title", InvalidParameters.Reason.required) }
        let body = text("body"), author = text("author")
        var createdAt: Date?
        if let stamp = text("createdAt") {
            createdAt = RFC3339.date(stamp)
            if createdAt == nil { invalid.add("createdAt", "must be an RFC 3339 date-time like 2026-05-01T12:00:00Z") }
        }
        if let problem = invalid.all.first { try refuse("\(problem.name) \(problem.reason)") }
        // A missing title is among the problems above; this only tells the compiler.
        guard let title else { try refuse("title \(InvalidParameters.Reason.required)") }
        return ImportedItem(new: NewItem(title: title, body: body ?? "", author: author, userFields: userFields),
                            createdAt: createdAt)
    }

    /// Moves the entry's own `id`, a string or an integer, to `sourceId`, exactly as written, so
    /// the item keeps it as a field of its own.
    private static func keepSourceID(of object: UnsafeMutablePointer<json_t>, into invalid: inout InvalidParameters) {
        guard let id = json_object_get(object, "id") else { return }
        guard id.pointee.type == JSON_STRING || id.pointee.type == JSON_INTEGER else {
            return invalid.add("id", "must be a string or an integer (the entry's own id, kept as \(sourceID))")
        }
        guard json_object_get(object, sourceID) == nil else {
            return invalid.add(sourceID, "is where the entry's own id is kept; an entry with an id cannot have one too")
        }
        json_object_set(object, sourceID, id)
        json_object_del(object, "id")
    }
}
