import PulldownFeed
import PulldownHTTP
import Synchronization

/// `/`: the page's `index.html` with the newest page written into it at `<!--newest-page-->`, so
/// the first articles arrive with the first byte and are painted before any script runs.
///
/// Kept as a ready answer (plain and gzip, each with its ETag) until the feed or the template
/// changes, like `NewestPageCache`: the first request after an insert builds it. The template is
/// read through the static files, so an edited `index.html` shows on the next reload. If the
/// store does not answer, the page goes out without the feed, which the script then asks for
/// (and retries) itself: the page is never an error because of the store.
final class HomePage: Sendable {
    static let template = "index.html"
    static let marker = Array("<!--newest-page-->".utf8)

    private struct Entry {
        let revision: UInt64
        /// The static files' generation the template was read at.
        let files: UInt64
        let body: PreparedBody
    }

    private let feed: Feed
    private let files: StaticFiles
    /// The newest page's size: `--page-size`, what the script's later pages use too.
    private let pageSize: Int
    private let kept = Mutex<Entry?>(nil)

    init(feed: Feed, files: StaticFiles, pageSize: Int) {
        self.feed = feed
        self.files = files
        self.pageSize = pageSize
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
        if case .success(let revision) = revision, let kept = kept.withLock({ kept in
            kept.flatMap { $0.revision == revision && $0.files == generation ? $0.body.response(to: request) : nil }
        }) {
            return kept
        }
        guard let template = files.file(Self.template) else { return files.respond(to: request) }
        let page = revision.flatMap { _ in Result { try feed.page(before: nil, limit: pageSize) } }
        if case .failure(let error) = page {
            ErrorLog.write("the page went out without the feed: " + (answerable(error).logLine ?? "\(error)"))
        }
        let markup = (try? page.get()).map { FeedMarkup.newestPage($0, limit: pageSize) } ?? []
        let body = PreparedBody(Self.fill(template.bytes, with: markup), contentType: template.contentType)
        if case .success(let revision) = revision, case .success = page {
            kept.withLock { kept in
                if (kept?.revision ?? 0) <= revision, (kept?.files ?? 0) <= generation {
                    kept = Entry(revision: revision, files: generation, body: body)
                }
            }
        }
        return body.response(to: request)
    }

    /// `template` with `markup` in place of its marker; as it is when it has none.
    static func fill(_ template: [UInt8], with markup: [UInt8]) -> [UInt8] {
        guard let range = template.firstRange(of: marker) else { return template }
        var filled = template
        filled.replaceSubrange(range, with: markup)
        return filled
    }
}
