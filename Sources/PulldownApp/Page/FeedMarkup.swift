import Foundation
import PulldownFeed

/// The newest page as markup for `/`: the day headers and articles feed.js would build (see
/// `Public/article.js`), then the rest of the page's JSON in a data block.
///
/// The articles are the script's own markup, so the script takes them over as they are and
/// never builds them again: each stands for its item (id and time read from it), so the items'
/// text is sent once. An item's own fields other than its pictures are not in `/`; the API
/// has them. Only what depends on the reader is written in a neutral form, for the script to
/// set in place: times in UTC, day headers by UTC date, links without the page's
/// query, no tooltip on the time (the script adds the reader's own). Nothing here depends on the
/// current time, so a page kept until the next insert stays true. Pictures are absolute under
/// `base`, as the API writes them (`PictureLinks`). Written once per feed revision and base URL
/// (`HomePage`), never per request.
enum FeedMarkup {
    /// The id of the JSON block; feed.js looks for it.
    static let dataBlockID = "first-page"

    /// The day headers and articles of `page`, then `{"limit": …, "hasMore": …, "feed": …, …}` (the body
    /// `GET /api/items?limit=limit` answers, less its items) in `<script type="application/json">`.
    /// A data block is never run, so the page's script-src policy is untouched. Its presence tells
    /// the script that the server wrote the newest page, even an empty one.
    static func newestPage(_ page: ItemPage, limit: Int, feed: FeedID, sequence: Int64, base: String) -> [UInt8] {
        var html = ""
        html.reserveCapacity(512 * (page.items.count + 1))
        var day: Int?
        for (index, item) in page.items.enumerated() {
            let parts = UTCParts(item.createdAt)
            if parts.day != day {
                day = parts.day
                html += #"<div class="day-head" aria-hidden="true">\#(parts.dateLabel)</div>"#
            }
            article(item, parts, position: index + 1, setSize: page.hasMore ? -1 : page.items.count, base: base, into: &html)
        }
        html += #"<script type="application/json" id="\#(dataBlockID)">"#
        var bytes = Array(html.utf8)
        bytes += ResponseJSON.pageWithoutItems(page, limit: limit, feed: feed, sequence: sequence)
        bytes += Array("</script>".utf8)
        return bytes
    }

    /// One article, as `article()` in Public/article.js makes it, with its place in the feed.
    private static func article(_ item: Item, _ time: UTCParts, position: Int, setSize: Int, base: String, into html: inout String) {
        let id = "item-\(item.id)"
        let pictures = ItemPictures(of: item)
        html += #"<article tabindex="0" data-id="\#(item.id)" aria-labelledby="\#(id)-t" aria-describedby="\#(id)-b" "#
        html += #"aria-posinset="\#(position)" aria-setsize="\#(setSize)">"#
        if let avatar = pictures.avatar {
            picture("avatar", PictureLinks.absolute(avatar, base: base), width: 40, height: 40, alt: "", into: &html)
        }
        html += #"<h2 id="\#(id)-t">\#(escaped(item.title))</h2><p id="\#(id)-b">\#(escaped(item.body))</p>"#
        if let image = pictures.image {
            picture("pic", PictureLinks.absolute(image.url, base: base), width: image.width, height: image.height, alt: image.alt,
                    into: &html)
        }
        html += #"<footer>\#(escaped(item.author)) · <a href="/item.html?id=\#(item.id)" draggable="false">"#
        html += #"<time datetime="\#(Timestamp.iso8601(item.createdAt))">"#
        html += #"\#(time.clock) UTC</time></a>"#
        if let edited = item.editedAt {
            // In English and UTC; the script says it in the reader's words and time (article.js).
            html += #" · <span class="edited" data-at="\#(Timestamp.iso8601(edited))">edited</span>"#
        }
        html += "</footer></article>"
    }

    /// A picture as `picture()` in article.js makes it: a box its width and height reserve,
    /// fetched only when near the viewport, decoded off the main thread.
    private static func picture(_ kind: String, _ url: String, width: Int64, height: Int64, alt: String, into html: inout String) {
        html += #"<img class="\#(kind)" loading="lazy" decoding="async" width="\#(width)" height="\#(height)" "#
        html += #"alt="\#(escaped(alt))" src="\#(escaped(url))">"#
    }

    /// `text` safe as element content and as a quoted attribute value.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A moment's UTC day, clock and date, in the words the page's English texts use.
    struct UTCParts {
        private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

        /// Days since 1970-01-01 (UTC).
        let day: Int
        /// `07:41`
        let clock: String
        /// `Sat, Nov 28, 2026`, as the page's day headers write a date (en-US).
        let dateLabel: String

        init(_ date: Date) {
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            gmtime_r(&seconds, &parts)
            day = Int((Double(seconds) / 86_400).rounded(.down))
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            clock = "\(two(parts.tm_hour)):\(two(parts.tm_min))"
            dateLabel = "\(Self.weekdays[Int(parts.tm_wday)]), \(Self.months[Int(parts.tm_mon)]) \(parts.tm_mday), \(parts.tm_year + 1900)"
        }
    }
}
