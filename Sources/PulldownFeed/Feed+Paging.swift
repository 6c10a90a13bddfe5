/// Pages as clients ask for them beyond "older than" and "newer than": the page around an item
/// (a jump to it, a refresh at an arbitrary key) and the places strictly between two cursors (a
/// gap filled from either end). Each is keyset reads, no OFFSET, so it costs the same deep in
/// the feed as at the top.
extension Feed {
    /// The `limit` places around `anchor`, newest first, the anchor near the middle (see
    /// `PageWindow.around`): two keyset reads, one on each side of it, in one transaction. An
    /// anchor no live item has (deleted, never given, beyond the newest) answers the places
    /// where it would be, `found` false.
    public func page(around anchor: Int64, limit: Int) throws -> ItemPage {
        let limit = clamp(limit)
        let (above, atOrBelow) = try store.read { store in
            (try store.oldestPlaces(after: anchor, limit: limit + 1),
             try store.places(before: anchor == Int64.max ? anchor : anchor + 1, limit: limit + 1))
        }
        return PageWindow.around(anchor, limit: limit, above: above, atOrBelow: atOrBelow)
    }

    /// The newest `limit` places strictly between `after` and `before`, newest first: one keyset
    /// read below `before`, cut at `after` (see `PageWindow.between`).
    public func page(after: Int64, before: Int64, limit: Int) throws -> ItemPage {
        let limit = clamp(limit)
        let below = try store.read { try $0.places(before: before, limit: limit + 1) }
        return PageWindow.between(after: after, limit: limit, below: below)
    }
}

/// How a page is cut from the places its reads found: pure, so every edge is tested without a
/// store.
enum PageWindow {
    /// How many places a page around an item takes above it and at or below it: `limit / 2`
    /// above and the rest (the anchor first) below, and where one side runs out, more from the
    /// other, so the page is full whenever the feed holds `limit` places.
    static func aroundSplit(limit: Int, above: Int, atOrBelow: Int) -> (newer: Int, older: Int) {
        let older = min(limit - min(limit / 2, above), atOrBelow)
        return (min(limit - older, above), older)
    }

    /// The page around `anchor` from `above` (places over it, oldest first) and `atOrBelow`
    /// (newest first), each read with `limit + 1`, so that what lies beyond the page is known
    /// on both sides.
    static func around(_ anchor: Int64, limit: Int, above: [ItemPlace], atOrBelow: [ItemPlace]) -> ItemPage {
        let (newer, older) = aroundSplit(limit: limit, above: above.count, atOrBelow: atOrBelow.count)
        let places = Array(above.prefix(newer).reversed()) + atOrBelow.prefix(older)
        let found = older > 0 && atOrBelow[0].id == anchor && atOrBelow[0].item != nil
        return ItemPage(items: places.compactMap(\.item), direction: .older, hasMore: atOrBelow.count > older,
                        edge: places.last?.id,
                        form: .around(anchor: anchor, found: found, newer: above.count > newer ? places.first?.id : nil))
    }

    /// The page strictly between `after` and a `before` from `below` (the places under `before`,
    /// newest first, read with `limit + 1`): `done` once the range holds no more than this page;
    /// `hasMore` says whether places lie below the page at all, in the range or past it.
    static func between(after: Int64, limit: Int, below: [ItemPlace]) -> ItemPage {
        let inRange = below.prefix { $0.id > after }
        let places = inRange.prefix(limit)
        return ItemPage(items: places.compactMap(\.item), direction: .older, hasMore: below.count > places.count,
                        edge: places.last?.id, form: .between(after: after, done: inRange.count <= limit))
    }
}
