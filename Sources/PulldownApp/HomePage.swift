import PulldownFeed
import PulldownHTTP

/// `/`: the page's `index.html` with the newest page written into it at `<!--newest-page-->`, so
/// the first articles arrive with the first byte and are painted before any script runs, and its
/// Demo button set to what this server lets a viewer do (`DemoButton`), so the page need not ask.
///
/// Kept as a ready answer (plain and gzip, each with its ETag) in a `RevisionCache` until the
/// feed or the template changes, like the newest page: the first request after an insert or a change builds it. The template is
/// read through the static files, so an edited `index.html` shows on the next reload. If the
/// store does not answer, the page goes out without the feed, which the script then asks for
/// (and retries) itself: the page is never an error because of the store.
final class HomePage: Sendable {
    static let template = "index.html"
    static let marker = Array("<!--newest-page-->".utf8)

    /// What the kept page was built from: the feed's revision, and the static files' generation
    /// the template was read at.
    private struct Stamp: Comparable {
        let revision: UInt64
        let files: UInt64

        static func < (a: Stamp, b: Stamp) -> Bool {
            (a.revision, a.files) < (b.revision, b.files)
        }
    }

    private let feed: Feed
    private let files: StaticFiles
    /// The newest page's size: `--page-size`, what the script's later pages use too.
    private let pageSize: Int
    private let demoButton: DemoButton
    private let kept = RevisionCache<String, Stamp, PreparedBody>()

    init(feed: Feed, files: StaticFiles, pageSize: Int, demoButton: DemoButton = .off) {
        self.feed = feed
        self.files = files
        self.pageSize = pageSize
        self.demoButton = demoButton
    }

    /// Answers at once, except on a shared store while a check of its newest id is in flight:
    /// then the answer waits for the next check without holding a server thread, as the newest
    /// page does (`Feed.withCurrentRevision`).
    func respond(to request: HTTPRequest, _ responder: Responder) {
        feed.withCurrentRevision { revision in responder.send(self.page(for: request, at: revision)) }
    }

    /// The page at `revision` (read before the page: what is read is at least this new); without
    /// the feed when the store did not answer, the check or the read.
    private func page(for request: HTTPRequest, at revision: Result<UInt64, any Error>) -> HTTPResponse {
        // The files' generation is read before the template, as the revision is before the page.
        let generation = files.generation
        let stamp = (try? revision.get()).map { Stamp(revision: $0, files: generation) }
        if let stamp, let body = kept.value(for: Self.template, at: stamp) {
            return body.response(to: request)
        }
        guard let template = files.file(Self.template) else { return files.respond(to: request) }
        // The sequence before the page, as its label: what the page holds is at least that new.
        let page = revision.flatMap { _ in
            Result { (sequence: try feed.sequence(), page: try feed.page(before: nil, limit: pageSize), feed: try feed.feedID()) }
        }
        if case .failure(let error) = page {
            ErrorLog.write("the page went out without the feed: " + (answerable(error).logLine ?? "\(error)"))
        }
        let markup = (try? page.get()).map { FeedMarkup.newestPage($0.page, limit: pageSize, feed: $0.feed, sequence: $0.sequence) } ?? []
        let filled = demoButton.write(into: Self.fill(template.bytes, with: markup))
        // The template's policy, not one read off the filled page: the stylesheets it allows are
        // the ones the build wrote, never anything an item's text could bring.
        var headers = PreparedBody.revalidated
        if let policy = template.contentSecurityPolicy { headers.add("Content-Security-Policy", policy) }
        let body = PreparedBody(filled, contentType: template.contentType, headers: headers, effort: .nearBest) // built again after each insert
        if let stamp, case .success = page {
            kept.keep(body, for: Self.template, at: stamp)
        }
        return body.response(to: request)
    }

    /// `template` with `markup` in place of its marker; as it is when it has none.
    static func fill(_ template: [UInt8], with markup: [UInt8]) -> [UInt8] {
        replacing(marker, with: markup, in: template)
    }

    /// `page` with `bytes` in place of the first `marker`; as it is when it has none.
    static func replacing(_ marker: [UInt8], with bytes: [UInt8], in page: [UInt8]) -> [UInt8] {
        guard let range = page.firstRange(of: marker) else { return page }
        var replaced = page
        replaced.replaceSubrange(range, with: bytes)
        return replaced
    }
}
