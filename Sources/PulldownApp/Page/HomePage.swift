import PulldownFeed
import PulldownHTTP

/// `/`: the page's `index.html` with the newest page written into it at `<!--newest-page-->`, so
/// the first articles arrive with the first byte and are painted before any script runs, and its
/// Demo button set to what this server lets a viewer do (`DemoButton`), so the page need not ask.
/// And `/item.html`, an item on its own page, as it is. Both go out with a content policy whose
/// `img-src` names exactly the picture origins the feed holds (`Feed.pictureOrigins`), and
/// `--public-url`'s, where the pictures of this server are written to be.
///
/// Kept as a ready answer (plain and gzip, each with its ETag) in a `RevisionCache` until the
/// feed or the template changes, like the newest page: the first request after an insert or a
/// change builds it; `/` for each base URL its pictures are written under (`BaseURL`). The template is
/// read through the static files, so an edited `index.html` shows on the next reload. If the
/// store does not answer, the page goes out without the feed, which the script then asks for
/// (and retries) itself: the page is never an error because of the store.
final class HomePage: Sendable {
    static let template = "index.html"
    static let itemTemplate = "item.html"
    static let marker = Array("<!--newest-page-->".utf8)
    /// More picture origins than this and the policy allows pictures from any http(s) origin
    /// rather than grow without bound (a data file of a thousand hosts).
    static let maximumPictureOrigins = 200

    /// What the kept page was built from: the feed's revision, and the static files' generation
    /// the template was read at.
    private struct Stamp: Comparable {
        let revision: UInt64
        let files: UInt64

        static func < (a: Stamp, b: Stamp) -> Bool {
            (a.revision, a.files) < (b.revision, b.files)
        }
    }

    private struct Key: Hashable {
        let template: String
        /// Where its pictures' URLs begin; nil for a page that holds none.
        let base: BaseURL.Key?
    }

    private let feed: Feed
    private let files: StaticFiles
    /// The newest page's size: `--page-size`, what the script's later pages use too.
    private let pageSize: Int
    private let demoButton: DemoButton
    private let baseURL: BaseURL
    /// A few megabytes at most, whatever `Host` headers arrive.
    private let kept = RevisionCache<Key, Stamp, PreparedBody>(budget: 8 << 20, cost: { 3 * $0.bytes.count + 1024 })

    init(feed: Feed, files: StaticFiles, pageSize: Int, demoButton: DemoButton = .off, baseURL: BaseURL = BaseURL()) {
        self.feed = feed
        self.files = files
        self.pageSize = pageSize
        self.demoButton = demoButton
        self.baseURL = baseURL
    }

    /// Answers at once, except on a shared store while a check of its newest id is in flight:
    /// then the answer waits for the next check without holding a server thread, as the newest
    /// page does (`Feed.withCurrentRevision`).
    func respond(to request: HTTPRequest, _ responder: Responder) {
        feed.withCurrentRevision { revision in responder.send(self.page(for: request, at: revision)) }
    }

    /// `/item.html`, answered as `respond` answers `/`.
    func respondWithItemPage(to request: HTTPRequest, _ responder: Responder) {
        feed.withCurrentRevision { revision in responder.send(self.itemPage(for: request, at: revision)) }
    }

    /// The page at `revision` (read before the page: what is read is at least this new); without
    /// the feed when the store did not answer, the check or the read.
    private func page(for request: HTTPRequest, at revision: Result<UInt64, any Error>) -> HTTPResponse {
        let key: Key
        do {
            key = Key(template: Self.template, base: try baseURL.key(of: request))
        } catch {
            return error.response
        }
        // The files' generation is read before the template, as the revision is before the page.
        let generation = files.generation
        let stamp = (try? revision.get()).map { Stamp(revision: $0, files: generation) }
        if let stamp, let body = kept.value(for: key, at: stamp) {
            return body.response(to: request)
        }
        guard let template = files.file(Self.template) else { return files.respond(to: request) }
        // Built only for a page not kept yet.
        let base: String
        do {
            base = try baseURL.require(request)
        } catch {
            return error.response
        }
        // The sequence before the page, as its label: what the page holds is at least that new.
        let read = revision.flatMap { _ in
            Result { (sequence: try feed.sequence(), page: try feed.page(before: nil, limit: pageSize), feed: try feed.feedID(),
                      origins: try feed.pictureOrigins()) }
        }
        if case .failure(let error) = read {
            ErrorLog.write("the page went out without the feed: " + (answerable(error).logLine ?? "\(error)"))
        }
        let markup = (try? read.get()).map { FeedMarkup.newestPage($0.page, limit: pageSize, feed: $0.feed, sequence: $0.sequence, base: base) } ?? []
        let filled = demoButton.write(into: Self.fill(template.bytes, with: markup))
        let body = prepared(filled, from: template, pictureOrigins: (try? read.get())?.origins ?? []) // built again after each insert
        if let stamp, case .success = read {
            kept.keep(body, for: key, at: stamp)
        }
        return body.response(to: request)
    }

    /// `item.html` with the policy of the feed at `revision`.
    private func itemPage(for request: HTTPRequest, at revision: Result<UInt64, any Error>) -> HTTPResponse {
        let generation = files.generation
        let stamp = (try? revision.get()).map { Stamp(revision: $0, files: generation) }
        let key = Key(template: Self.itemTemplate, base: nil)
        if let stamp, let body = kept.value(for: key, at: stamp) {
            return body.response(to: request)
        }
        guard let template = files.file(Self.itemTemplate) else { return files.respond(to: request) }
        let origins = revision.flatMap { _ in Result { try feed.pictureOrigins() } }
        let body = prepared(template.bytes, from: template, pictureOrigins: (try? origins.get()) ?? [])
        if let stamp, case .success = origins {
            kept.keep(body, for: key, at: stamp)
        }
        return body.response(to: request)
    }

    /// `page` ready to send, with the policy of `template`: the stylesheets it allows are the
    /// ones the build wrote, never anything an item's text could bring; the pictures, those of
    /// the feed.
    private func prepared(_ page: [UInt8], from template: PreparedBody, pictureOrigins: [String]) -> PreparedBody {
        var headers = PreparedBody.revalidated
        headers.add("Content-Security-Policy",
                    SecurityHeaders.contentSecurityPolicy(for: template.bytes, imageSources: imageSources(pictureOrigins)))
        return PreparedBody(page, contentType: template.contentType, headers: headers, effort: .nearBest)
    }

    /// The picture origins a page's policy names: `--public-url`'s, where this server's own
    /// pictures are written to be, and the feed's; past `maximumPictureOrigins`, any http(s) one.
    func imageSources(_ pictureOrigins: [String]) -> [String] {
        let sources = (baseURL.configured.map { [$0] } ?? []) + pictureOrigins
        return sources.count > Self.maximumPictureOrigins ? ["https:", "http:"] : sources
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
