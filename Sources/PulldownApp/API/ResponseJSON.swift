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
        json.members(of: item.userFields, inserting: base, at: PictureLinks.serverPathOffsets(in: item.userFields))
        json.endObject()
    }

    static func item(_ item: Item, base: String) -> [UInt8] {
        var json = JSONWriter()
        write(item, base: base, to: &json)
        return json.bytes
    }

    /// `{"items": [...], "limit": 10, "hasMore": true, "feed": "…"}`
    static func page(_ page: ItemPage, limit: Int, feed: FeedID, base: String) -> [UInt8] {
        var json = JSONWriter(capacity: 256 * max(1, page.items.count))
        json.beginObject()
        writeItems(page.items, base: base, to: &json)
        writeAboutPage(page, limit: limit, feed: feed, to: &json)
        json.endObject()
        return json.bytes
    }

    /// `{"limit": 10, "hasMore": true, "feed": "…"}`: a page's JSON less its items, for `/`,
    /// whose articles carry them already.
    static func pageWithoutItems(_ page: ItemPage, limit: Int, feed: FeedID) -> [UInt8] {
        var json = JSONWriter(capacity: 64)
        json.beginObject()
        writeAboutPage(page, limit: limit, feed: feed, to: &json)
        json.endObject()
        return json.bytes
    }

    private static func writeAboutPage(_ page: ItemPage, limit: Int, feed: FeedID, to json: inout JSONWriter) {
        json.key("limit"); json.integer(limit)
        json.key("hasMore"); json.bool(page.hasMore)
        json.key("feed"); json.string(feed.text)
    }

    /// `{"items": [...], "gap": false, "lastUpdated": "...", "feed": "…"}`
    static func refresh(_ result: RefreshResult, base: String) -> [UInt8] {
        var json = JSONWriter(capacity: 256 * max(1, result.items.count))
        json.beginObject()
        writeItems(result.items, base: base, to: &json)
        json.key("gap"); json.bool(result.gap)
        json.key("lastUpdated"); json.string(Timestamp.iso8601(result.lastUpdated))
        json.key("feed"); json.string(result.feedID.text)
        json.endObject()
        return json.bytes
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
