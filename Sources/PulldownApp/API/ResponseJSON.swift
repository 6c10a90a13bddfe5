import PulldownFeed
import PulldownHTTP

/// The JSON bodies of the API's answers (an item, a page, a refresh, a session), written
/// without reflection. Items are written for one `base` (`BaseURL`): their pictures go out
/// absolute (`PictureLinks`).
enum ResponseJSON {
    static func write(_ item: Item, base: String, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.integer(item.id)
        json.key("title"); json.string(item.title)
        json.key("body"); json.string(item.body)
        json.key("author"); json.string(item.author)
        json.key("createdAt"); json.string(Timestamp.iso8601(item.createdAt))
        json.key("version"); json.integer(item.version)
        json.key("editedAt")
        if let edited = item.editedAt { json.string(Timestamp.iso8601(edited)) } else { json.null() }
        json.members(of: item.userFields, inserting: base, at: PictureLinks.serverPathOffsets(in: item.userFields))
        json.endObject()
    }

    static func item(_ item: Item, base: String) -> [UInt8] {
        var json = JSONWriter()
        write(item, base: base, to: &json)
        return json.bytes
    }

    /// `{"items": [...], "limit": 10, "hasMore": true, "next": 41, "feed": "…", "changes": 57}`
    static func page(_ page: ItemPage, limit: Int, feed: FeedID, sequence: Int64, base: String) -> [UInt8] {
        var json = JSONWriter(capacity: 256 * max(1, page.items.count))
        json.beginObject()
        writeItems(page.items, base: base, to: &json)
        writeAboutPage(page, limit: limit, feed: feed, sequence: sequence, to: &json)
        json.endObject()
        return json.bytes
    }

    /// `{"limit": 10, "hasMore": true, "next": 41, "feed": "…", "changes": 57}`: a page's JSON
    /// less its items, for `/`, whose articles carry them already.
    static func pageWithoutItems(_ page: ItemPage, limit: Int, feed: FeedID, sequence: Int64) -> [UInt8] {
        var json = JSONWriter(capacity: 64)
        json.beginObject()
        writeAboutPage(page, limit: limit, feed: feed, sequence: sequence, to: &json)
        json.endObject()
        return json.bytes
    }

    /// `next` is the next page's cursor (its `before=`, or `after=` walking up), null at the
    /// end: the last place of this page, a deleted item's or not, so a page whose items were
    /// all deleted still says where to go on.
    ///
    /// A page around an item adds `prev` (the cursor to walk up from, `after=`, null when nothing
    /// is newer) and `anchor`; a page within a range adds `rangeDone`, and its `next` goes on
    /// inside the range (null once it is done, whatever lies below).
    private static func writeAboutPage(_ page: ItemPage, limit: Int, feed: FeedID, sequence: Int64, to json: inout JSONWriter) {
        json.key("limit"); json.integer(limit)
        json.key("hasMore"); json.bool(page.hasMore)
        json.key("next")
        if let next = API.nextCursor(page) { json.integer(next) } else { json.null() }
        switch page.form {
        case .plain:
            break
        case .around(let anchor, let found, let newer):
            json.key("prev")
            if let newer { json.integer(newer) } else { json.null() }
            json.key("anchor"); json.beginObject()
            json.key("id"); json.integer(anchor)
            json.key("found"); json.bool(found)
            json.endObject()
        case .between(_, let done):
            json.key("rangeDone"); json.bool(done)
        }
        json.key("feed"); json.string(feed.text)
        json.key("changes"); json.integer(sequence)
    }

    /// `{"items": [...], "gap": false, "lastUpdated": "...", "feed": "…", "changes": 57, "changed": [...]}`
    static func refresh(_ result: RefreshResult, base: String) -> [UInt8] {
        var json = JSONWriter(capacity: 256 * max(1, result.items.count + result.changes.count))
        json.beginObject()
        writeItems(result.items, base: base, to: &json)
        json.key("gap"); json.bool(result.gap)
        json.key("lastUpdated"); json.string(Timestamp.iso8601(result.lastUpdated))
        json.key("feed"); json.string(result.feedID.text)
        json.key("changes"); json.integer(result.sequence)
        writeChanged(result.changes, base: base, to: &json)
        json.endObject()
        return json.bytes
    }

    /// `{"changed": [...], "hasMore": false, "feed": "…", "changes": 63}`: `GET /api/changes`.
    static func changes(_ list: ChangeList, feed: FeedID, base: String) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + 256 * list.changes.count)
        json.beginObject()
        writeChanged(list.changes, base: base, to: &json)
        json.key("hasMore"); json.bool(list.hasMore)
        json.key("feed"); json.string(feed.text)
        json.key("changes"); json.integer(list.sequence)
        json.endObject()
        return json.bytes
    }

    /// `{"type": "updated", "sequence": 61, "item": {...}}` or
    /// `{"type": "deleted", "sequence": 63, "id": 30}`.
    static func write(_ change: Change, base: String, to json: inout JSONWriter) {
        json.beginObject()
        switch change.kind {
        case .updated(let item):
            json.key("type"); json.string("updated")
            json.key("sequence"); json.integer(change.sequence)
            json.key("item"); write(item, base: base, to: &json)
        case .deleted(let id):
            json.key("type"); json.string("deleted")
            json.key("sequence"); json.integer(change.sequence)
            json.key("id"); json.integer(id)
        }
        json.endObject()
    }

    private static func writeChanged(_ changes: [Change], base: String, to json: inout JSONWriter) {
        json.key("changed")
        json.beginArray()
        for change in changes { write(change, base: base, to: &json) }
        json.endArray()
    }

    /// `{"items": [...]}`: items just added (`POST /api/demo/items`).
    static func items(_ items: [Item], base: String) -> [UInt8] {
        var json = JSONWriter(capacity: 256 * max(1, items.count))
        json.beginObject()
        writeItems(items, base: base, to: &json)
        json.endObject()
        return json.bytes
    }

    /// `{"items": [...], "gap": false}`: the data of a live `items` event.
    static func liveItems(_ items: [Item], gap: Bool, base: String) -> [UInt8] {
        var json = JSONWriter(capacity: 256 * max(1, items.count))
        json.beginObject()
        writeItems(items, base: base, to: &json)
        json.key("gap"); json.bool(gap)
        json.endObject()
        return json.bytes
    }

    /// `{"lastUpdated": "..." | null, "lastSeenId": 42 | null, "refreshCount": 3}`
    static func session(_ state: SessionState?) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("lastUpdated")
        if let date = state?.lastUpdated { json.string(Timestamp.iso8601(date)) } else { json.null() }
        json.key("lastSeenId")
        if let id = state?.lastSeenID { json.integer(id) } else { json.null() }
        json.key("refreshCount"); json.integer(state?.refreshCount ?? 0)
        json.endObject()
        return json.bytes
    }

    private static func writeItems(_ items: [Item], base: String, to json: inout JSONWriter) {
        json.key("items")
        json.beginArray()
        for item in items { write(item, base: base, to: &json) }
        json.endArray()
    }
}
