import PulldownHTTP
import Synchronization

/// The newest page for each page size, kept as a ready-to-send response until the feed changes.
///
/// The newest page is what every client asks for first and what pollers ask for again and
/// again; between inserts its bytes never change. Each entry remembers the feed revision it
/// was built at, and is rebuilt when the revision has moved.
final class NewestPageCache: Sendable {
    private struct Entry {
        let revision: UInt64
        let response: HTTPResponse
    }

    private let entries = Mutex<[Int: Entry]>([:])

    /// The cached response for `limit` if it was built at `revision`, else the one `build` makes.
    ///
    /// The revision must be read before `build` runs: the feed moves it only after a commit,
    /// so what `build` reads is at least as new as the revision it is filed under.
    func response(limit: Int, revision: UInt64, build: () throws -> HTTPResponse) rethrows -> HTTPResponse {
        if let entry = entries.withLock({ $0[limit] }), entry.revision == revision {
            return entry.response
        }
        let built = try build()
        let response = HTTPResponse(prepared: PreparedResponse(built))
        entries.withLock { entries in
            if (entries[limit]?.revision ?? 0) <= revision {
                entries[limit] = Entry(revision: revision, response: response)
            }
        }
        return response
    }
}
