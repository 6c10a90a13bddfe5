import CJansson
import Foundation
import InvalidInput
import ItemFields
import PulldownFeed
import PulldownHTTP

/// A JSON merge patch (RFC 7396) of an item: `PATCH /api/items/{id}` and the demo's edits.
///
/// The item is the object its JSON shows less what the server sets (`title`, `body`, `author`
/// and its own fields); the patch is merged into it member by member, objects recursively, and
/// a null removes a member. What comes out is checked as a post is: `title` cannot be removed,
/// `body` and `author` fall back to empty and Anonymous, own fields follow `UserFields`.
/// `id`, `createdAt`, `version` and `editedAt` cannot be patched at all.
struct ItemPatch: Sendable {
    /// The patch's members, as compact JSON object text: parsed again for each item it is applied
    /// to (a `json_t` is not shared across threads).
    let text: String

    /// The members the server sets: a patch naming one is refused.
    static let fixedFields = API.serverFields

    /// A patch from the body of a request: a JSON object (`application/merge-patch+json` or
    /// plain JSON) that names no fixed field and removes no required one. Throws a 400 naming
    /// each bad member.
    init(_ request: HTTPRequest) throws(Problem) {
        let body = try JSONBody(request, emptyAllowed: false)
        var invalid = InvalidParameters()
        for name in Self.fixedFields where body.has(name) { invalid.add(name, "cannot be changed") }
        if body.isNull("title") { invalid.add("title", "is required and cannot be removed") }
        let title = invalid.take(body.string("title", nullable: true))
        let written = invalid.take(body.string("body", nullable: true))
        let author = invalid.take(body.string("author", nullable: true))
        // What can be checked without the item is checked now, as a post's fields are (the rest
        // stands in with a valid value), own fields too (a picture whole, or null): a bad patch
        // is a 400 whichever item it names.
        if invalid.all.isEmpty {
            do {
                try Feed.check(NewItem(title: title ?? "Title", body: written ?? "", author: author))
            } catch {
                if case .invalid(let fields) = error { fields.forEach { invalid.add($0.name, $0.reason) } }
            }
        }
        _ = body.userFields(core: API.postedFields + Self.fixedFields, reserved: [], into: &invalid)
        try invalid.check("The patch cannot be applied.")
        text = body.compactText
    }

    /// A patch the server writes itself (the demo's edits), as JSON object text.
    init(text: String) {
        self.text = text
    }

    /// Whether the patch changes nothing whatever it is applied to.
    var isEmpty: Bool { text == "{}" }

    /// `item`'s fields with the patch merged in, checked (a 400 naming each bad one); nil when
    /// nothing changed.
    func apply(to item: Item) throws(Problem) -> NewItem? {
        guard let patch = json_loads(text, 0, nil) else { throw Problem.badRequest("The patch is not a JSON object.") }
        defer { json_decref(patch) }
        let target = Self.object(of: item)
        defer { json_decref(target) }
        let merged = Self.merge(patch, into: target)
        defer { json_decref(merged) }
        var invalid = InvalidParameters()
        let title = UserFields.string(json_object_get(merged, "title") ?? json_null())
        let body = json_object_get(merged, "body").flatMap(UserFields.string) ?? ""
        let author = json_object_get(merged, "author").flatMap(UserFields.string)
        if title == nil { invalid.add("title", InvalidParameters.Reason.required) }
        let own = UserFields.check(merged, core: API.postedFields, reserved: Self.fixedFields, into: &invalid)
        guard let title, invalid.all.isEmpty else { throw invalid.problem("The patched item is invalid; nothing was changed.") }
        let fields = NewItem(title: title, body: body, author: author, userFields: own)
        let unchanged = fields.title == item.title && fields.body == item.body && (author ?? "") == item.author
            && own == item.userFields
        return unchanged ? nil : fields
    }

    /// The item as the object a patch applies to; a new reference.
    static func object(of item: Item) -> UnsafeMutablePointer<json_t> {
        let object = (item.userFields.isEmpty ? nil : json_loads(item.userFields, 0, nil)) ?? Self.emptyObject()
        json_object_set_new(object, "title", json_stringn(item.title, item.title.utf8.count))
        json_object_set_new(object, "body", json_stringn(item.body, item.body.utf8.count))
        json_object_set_new(object, "author", json_stringn(item.author, item.author.utf8.count))
        return object
    }

    /// A new empty object. Jansson answers nil only when memory runs out, which Swift's own
    /// allocations treat as fatal too.
    private static func emptyObject() -> UnsafeMutablePointer<json_t> {
        json_object()!
    }

    /// RFC 7396's MergePatch(target, patch), as a new reference; neither argument is changed.
    static func merge(_ patch: UnsafeMutablePointer<json_t>, into target: UnsafeMutablePointer<json_t>?) -> UnsafeMutablePointer<json_t> {
        guard patch.pointee.type == JSON_OBJECT else { return json_incref(patch) }
        let result = target.flatMap { $0.pointee.type == JSON_OBJECT ? json_copy($0) : nil } ?? Self.emptyObject()
        var iterator = json_object_iter(patch)
        while let current = iterator {
            defer { iterator = json_object_iter_next(patch, current) }
            guard let key = json_object_iter_key(current), let value = json_object_iter_value(current) else { continue }
            if value.pointee.type == JSON_NULL {
                json_object_del(result, key)
            } else {
                json_object_set_new(result, key, merge(value, into: json_object_get(result, key)))
            }
        }
        return result
    }
}
