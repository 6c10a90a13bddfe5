import CJansson
import Dispatch
import Foundation
import InvalidInput
import ItemFields
import PulldownFeed
import PulldownHTTP
import Synchronization

/// The demo's edits and deletions: `POST /api/demo/churn` makes some now, and `DemoChurnTimer`
/// makes them at the knobs' rates. An edit is a merge patch like a client's (`ItemPatch`), made
/// from the item as it is (`DemoEdit`); the items are chosen among recent and older ones alike
/// (`Feed.churnTargets`).
struct DemoChurn: Sendable {
    let feed: Feed
    /// Where the URLs in its answers begin.
    var baseURL = BaseURL()
    static let maxCount: Int64 = 100

    /// Makes `edits` edits and `deletes` deletions now, of different items; `completion` gets what
    /// changed, in the order of the sequence (an item another change deleted meanwhile is left
    /// out), or the store's failure when nothing could be done.
    func churn(edits: Int, deletes: Int, completion: @escaping @Sendable (Result<[Change], any Error>) -> Void) {
        let targets: [Int64]
        do {
            targets = try feed.churnTargets(count: edits + deletes)
        } catch {
            return completion(.failure(error))
        }
        guard !targets.isEmpty else { return completion(.success([])) }
        let pending = Mutex((left: targets.count, changes: [Change](), failure: (any Error)?.none))
        for (index, id) in targets.enumerated() {
            let change: ItemChange = index < deletes ? .delete { _ in } : .edit { item in try Self.patch(for: item).apply(to: item) }
            feed.change(id, change) { result in
                let done = pending.withLock { state -> Result<[Change], any Error>? in
                    switch result {
                    case .success(.changed(let change)): state.changes.append(change)
                    case .success(.unchanged): break
                    case .failure(let error) where error is FeedError: break   // deleted meanwhile
                    case .failure(let error): state.failure = error
                    }
                    state.left -= 1
                    guard state.left == 0 else { return nil }
                    if let failure = state.failure, state.changes.isEmpty { return .failure(failure) }
                    return .success(state.changes.sorted { $0.sequence < $1.sequence })
                }
                if let done { completion(done) }
            }
        }
    }

    /// The merge patch the demo's edit of `item` is.
    static func patch(for item: Item) -> ItemPatch {
        switch DemoEdit.of(item) {
        case .title(let title):
            var json = JSONWriter(capacity: 64)
            json.beginObject()
            json.key("title"); json.string(title)
            json.endObject()
            return ItemPatch(text: String(decoding: json.bytes, as: UTF8.self))
        case .image(let image):
            return ItemPatch(text: #"{"image":\#(image)}"#)
        case .likes(let change):
            return ItemPatch(text: #"{"likes":\#(max(0, likes(of: item) + change))}"#)
        }
    }

    /// The item's `likes` when it is a whole number, else a few to start from.
    static func likes(of item: Item) -> Int {
        guard !item.userFields.isEmpty, let fields = json_loads(item.userFields, 0, nil) else { return Int(item.id % 7) }
        defer { json_decref(fields) }
        return json_object_get(fields, "likes").flatMap(UserFields.integer).map { Int(clamping: $0) } ?? Int(item.id % 7)
    }

    // MARK: POST /api/demo/churn

    /// `{"edits": 3, "deletes": 1}` (each 0 to `maxCount`; an empty body is one edit): 200 with
    /// what changed, as `GET /api/changes` lists it.
    func respond(to request: HTTPRequest, _ responder: Responder) {
        let counts: (edits: Int, deletes: Int)
        let base: String
        do {
            counts = try Self.counts(JSONBody(request, emptyAllowed: true))
            base = try baseURL.require(request)
        } catch {
            return responder.send(error.response)
        }
        churn(edits: counts.edits, deletes: counts.deletes) { [feed] result in
            responder.send(API.answer {
                let changes = try result.get()
                let list = ChangeList(changes: changes, hasMore: false, sequence: max(try feed.sequence(), changes.last?.sequence ?? 0))
                var response = HTTPResponse.json(ResponseJSON.changes(list, feed: try feed.feedID(), base: base))
                response.headers.add("Cache-Control", CacheControl.noStore)
                return response
            })
        }
    }

    static func counts(_ body: JSONBody) throws(Problem) -> (edits: Int, deletes: Int) {
        var invalid = InvalidParameters()
        body.rejectUnknown(["edits", "deletes"], into: &invalid)
        let edits = invalid.take(body.integer("edits", in: 0...maxCount))
        let deletes = invalid.take(body.integer("deletes", in: 0...maxCount))
        try invalid.check("Some fields are invalid; nothing was changed.")
        if edits == nil && deletes == nil { return (1, 0) }
        return (Int(edits ?? 0), Int(deletes ?? 0))
    }
}

/// Makes the demo's edits and deletions at the knobs' rates, every tenth of a second, while a
/// rate is above 0; on a shared store the instances make them at the rates together.
final class DemoChurnTimer: Sendable {
    private let timer: RepeatingTimer

    init(churn: DemoChurn, knobs: @escaping @Sendable () -> DemoKnobs, onError: @escaping @Sendable (any Error) -> Void) {
        let queue = DispatchQueue(label: "pulldown.demo-churn", qos: .utility)
        timer = RepeatingTimer(every: 0.1, on: queue) {
            let knobs = knobs()
            // Off: not even a transaction.
            guard knobs.editsPerMinute > 0 || knobs.deletesPerMinute > 0 else { return }
            do {
                let due = try churn.feed.dueChurn(editsPerMinute: knobs.editsPerMinute, deletesPerMinute: knobs.deletesPerMinute)
                guard due.edits + due.deletes > 0 else { return }
                churn.churn(edits: due.edits, deletes: due.deletes) { result in
                    if case .failure(let error) = result { onError(error) }
                }
            } catch {
                onError(error)
            }
        }
    }

    func cancel() {
        timer.cancel()
    }
}
