import PulldownFeed
import PulldownHTTP

/// How one request for a page is answered beyond its query, decided before anything is read:
/// the demo's awkward cases on cue (a short page, cursors that expire) and a count asked for.
/// Pure: the time and the dice are given.
struct PagePlan: Equatable {
    /// Places to read: the query's limit, or fewer for a short page (`shortPages`); the answer
    /// still echoes the limit asked for, and its links ask for it again.
    let readLimit: Int
    /// The time written into the page's links (`issued=`), nil while cursors do not expire.
    let issued: Int64?
    /// `X-Total-Count` goes with the page.
    let count: Bool
    /// Same for everyone who asks, so it may be kept ready in memory.
    let keepable: Bool

    /// Throws the 410 of a cursor issued more than `cursorTtlSeconds` ago (0: cursors never
    /// expire, and links carry no time). `roll` (0..<1) against `shortPages` decides a short
    /// page, for any form but `around=` (whose anchor sits mid-page) and limits from 2.
    init(_ query: ItemsQuery, shortPages: Double, cursorTtlSeconds: Int, now: Int64, roll: Double) throws(Problem) {
        if cursorTtlSeconds > 0, let issued = query.issued, now - issued > Int64(cursorTtlSeconds) {
            throw Self.cursorExpired(age: now - issued, ttl: cursorTtlSeconds)
        }
        var short = query.limit >= 2 && roll < shortPages
        if case .around = query.cursor { short = false }
        readLimit = short ? (query.limit + 1) / 2 : query.limit
        issued = cursorTtlSeconds > 0 ? now : nil
        count = query.count
        keepable = !short && issued == nil && !count
    }

    /// A cursor older than the demo lets cursors live: what a client's saved position meets
    /// when it comes back later.
    static func cursorExpired(age: Int64, ttl: Int) -> Problem {
        Problem(status: 410, title: "Gone",
                detail: "This cursor was issued \(age) s ago and cursors last \(ttl) s here (the demo's cursorTtlSeconds); "
                    + "start again from the newest page (GET /api/items), or jump back to an item you hold with around=ID.",
                type: "tag:pulldown,2026:cursor-expired")
    }
}

extension API {
    /// The cursor of the page after `page` in the direction being walked (`next` in the JSON):
    /// its last place, a deleted item's or not; inside the range for a page between two
    /// cursors, nil once the range is done; nil at the end.
    static func nextCursor(_ page: ItemPage) -> Int64? {
        if case .between(_, let done) = page.form { return done ? nil : page.edge }
        return page.hasMore ? page.edge : nil
    }

    /// The `Link` header (RFC 8288) of `page`, in `feed`, absolute under `base`: `rel="next"` in
    /// the direction being walked (within the range, for a page between two cursors), and for a
    /// page around an item `rel="prev"` to the newer places too. `issued` (the demo's expiring
    /// cursors) is written into each.
    static func nextLink(page: ItemPage, limit: Int, feed: FeedID, base: String, issued: Int64? = nil) -> String? {
        let stamp = issued.map { "&issued=\($0)" } ?? ""
        func link(_ cursor: String, _ rel: String) -> String {
            "<\(base)/api/items?limit=\(limit)&\(cursor)&feed=\(feed)\(stamp)>; rel=\"\(rel)\""
        }
        var links: [String] = []
        if case .around(_, _, let newer?) = page.form { links.append(link("after=\(newer)", "prev")) }
        if let next = nextCursor(page) {
            switch (page.form, page.direction) {
            case (.between(let after, _), _): links.append(link("after=\(after)&before=\(next)", "next"))
            case (_, .older): links.append(link("before=\(next)", "next"))
            // Walking towards newer items: the next batch starts after the newest place shown.
            case (_, .newer): links.append(link("after=\(next)", "next"))
            }
        }
        return links.isEmpty ? nil : links.joined(separator: ", ")
    }
}
