import Dispatch
import InvalidInput
import PulldownDataFile
import PulldownFeed
import PulldownHTTP

/// `POST /api/demo/reset`: the feed starts over as `--reset` makes it start, from the demo seed or
/// from the data file as it is now, with no session left; open pages hear of it on the live
/// stream (`event: reset`) and start over too. For a demo that begins again, and for tests that
/// each want the same feed.
struct DemoReset: Sendable {
    let feed: Feed
    let origin: FeedOrigin
    /// `--watch`: follows the file from what the reset took in.
    let watcher: DataFileWatcher?
    /// Resets run here, one at a time, holding no server thread: a large data file takes a while.
    private let queue = DispatchQueue(label: "pulldown.reset", qos: .userInitiated)

    init(feed: Feed, origin: FeedOrigin, watcher: DataFileWatcher?) {
        self.feed = feed
        self.origin = origin
        self.watcher = watcher
    }

    func reset(_ request: HTTPRequest, _ responder: Responder) {
        do {
            try Self.checkEmpty(JSONBody(request, emptyAllowed: true))
        } catch {
            return responder.send(error.response)
        }
        queue.async {
            responder.send(API.answer {
                try startOver()
                return try Self.answer(newest: feed.newestID(), count: feed.itemCount())
            })
        }
    }

    /// Fills the feed anew: `origin.fill`, between two looks of the watcher if there is one.
    func startOver() throws {
        guard let watcher else { return _ = try origin.fill(feed, reset: true) }
        try watcher.restart {
            guard let loaded = try origin.fill(feed, reset: true) else { preconditionFailure("--watch needs --data") }
            return loaded.mark
        }
    }

    /// No body, or `{}`: a reset takes no options.
    static func checkEmpty(_ body: JSONBody) throws(Problem) {
        var invalid = InvalidParameters()
        body.rejectUnknown([], into: &invalid)
        try invalid.check("A reset takes no fields; nothing was reset.")
    }

    /// 200 with what the feed holds now.
    private static func answer(newest: Int64?, count: Int64) -> HTTPResponse {
        var json = JSONWriter(capacity: 64)
        json.beginObject()
        json.key("itemCount")
        json.integer(count)
        json.key("newestId")
        if let newest { json.integer(newest) } else { json.null() }
        json.endObject()
        var response = HTTPResponse.json(json.bytes)
        response.headers.add("Cache-Control", CacheControl.noStore)
        return response
    }
}

/// A data file that cannot be taken in as it is now (`POST /api/demo/reset`): the operator's to
/// fix, and the log says why; the feed is as it was.
extension DataFileError: HTTPResponseError {
    var problem: Problem {
        Problem(status: 409, title: "Conflict",
                detail: "The data file cannot be taken in as it is now; the server's log says why. The feed is unchanged.")
    }

    var logLine: String? { description }
}
