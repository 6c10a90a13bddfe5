import Foundation
import Observation

/// A feed as a screen shows it, driving ``FeedState`` and ``LiveState`` with a ``PulldownClient``:
/// what the page does, for a SwiftUI `List` (or a table view).
///
/// `run()` loads the session's "Last updated on …" and the newest page, then follows the live
/// stream until its task is cancelled (SwiftUI's `.task` does that when the view goes): new items
/// wait behind ``pill`` ("3 new items") and never move what is being read. ``refresh()`` is the
/// pull (`.refreshable`), the pill's tap and a Refresh button alike; ``appeared(_:)`` loads the
/// next page as the last rows appear; ``retry()`` asks again for a page that failed. One fetch at
/// a time: a refresh asked for while a page loads waits for it. Items edited and deleted under
/// the reader are replaced and removed in place, from the stream as they happen and from each
/// refresh's `changed` list for what a closed stream missed; a deleted item waiting behind the
/// pill no longer counts. Should the server's feed start over (a reset, another data file), or
/// a page's cursor expire, everything goes, ``startedOver`` says so, and the newest page is
/// loaded again. Without `run()` nothing is followed: the other methods work alone. All
/// observable, all on the main actor.
@MainActor
@Observable
public final class FeedModel {
    public let client: PulldownClient
    /// The items and what runs: ``FeedState/items``, ``FeedState/end``, ``FeedState/busy``.
    public private(set) var state: FeedState
    /// The "N new items" pill: hidden at 0.
    public private(set) var pill = LiveState.Pill(count: 0)
    /// The session's last successful refresh, from the server: "Last updated on …".
    public private(set) var lastUpdated: Date?
    /// Why the last refresh failed ("Couldn't refresh."), until one succeeds.
    public private(set) var refreshError: (any Error)?
    /// Why the last page failed ("Couldn't load more items." and ``retry()``).
    public private(set) var pageError: (any Error)?
    /// The feed started over under the reader; cleared by the next refresh.
    public private(set) var startedOver = false
    /// The demo knobs, once the stream has said they changed.
    public private(set) var demo: DemoKnobs?

    @ObservationIgnored private var live = LiveState()
    /// The page or refresh in flight (``FeedState/busy`` says which).
    @ObservationIgnored private var running: Task<Void, Never>?
    @ObservationIgnored private var stream: Task<Void, Never>?
    /// Inside `run()`: the live stream is followed.
    @ObservationIgnored private var following = false

    public init(client: PulldownClient, prefetch: Int = 5) {
        self.client = client
        state = FeedState(prefetch: prefetch)
    }

    /// The items loaded, newest first.
    public var items: [Item] { state.items }

    /// Loads "Last updated" and the newest page, then follows the live stream until the calling
    /// task is cancelled.
    public func run() async {
        following = true
        async let session = try? client.sessionState()
        if state.items.isEmpty { await loadMore() } else { shown() }
        if let stamp = await session?.lastUpdated, stamp > lastUpdated ?? .distantPast { lastUpdated = stamp }
        let (untilCancelled, open) = AsyncStream<Never>.makeStream()
        for await _ in untilCancelled {}
        open.finish()
        following = false
        stopStream()
    }

    /// Row `item` appeared: near the end, the next page loads.
    public func appeared(_ item: Item) {
        guard let query = state.appeared(item.id) else { return }
        Task { await load(query) }
    }

    /// The next page, if one may start now; returns when it is in.
    public func loadMore() async {
        guard let query = state.nextPage() else { return }
        await load(query)
    }

    /// Asks again for the page that failed.
    public func retry() async {
        guard let query = state.retryPage() else { return }
        await load(query)
    }

    /// Pull to refresh: the items newer than the newest loaded go on top (a gap starts over from
    /// the newest). Waits for a page in flight first. Returns how many items were added, nil when
    /// it failed or the feed started over.
    @discardableResult
    public func refresh() async -> Int? {
        while state.busy != nil, let running { await running.value }
        guard let after = state.beginRefresh() else { return nil }
        var added: Int?
        await run { [client] in
            let since = self.state.changes
            let result = try await client.refresh(after: after, changes: since > 0 ? since : nil)
            guard self.state.belongs(result.feed) else { return self.startOver() }
            added = self.state.refreshed(result.items, gap: result.gap, changed: result.changed, changes: result.changes)
            self.lastUpdated = result.lastUpdated
            self.refreshError = nil
            self.startedOver = false
            self.shown()
        } failed: { error in
            self.state.refreshFailed()
            self.refreshError = error
        }
        return added
    }

    /// What to announce to assistive technology once the pill has been still a moment, or nil
    /// when it was said already.
    public func announcement() -> LiveState.Pill? {
        live.announce()
    }

    private func load(_ query: PageQuery) async {
        pageError = nil
        await run { [client] in
            let page = try await client.page(query)
            guard self.state.belongs(page.feed) else { return self.startOver() }
            // The first page says what the feed reflects; later ones do not: what was loaded
            // before them may have changed since.
            if self.state.items.isEmpty { self.state.saw(page.changes) }
            self.state.add(page.items, hasMore: page.hasMore, next: page.nextCursor)
            self.shown()
        } failed: { error in
            self.state.pageFailed()
            self.pageError = error
        }
    }

    /// Runs `fetch`, the page or refresh ``state`` has just marked in flight, then `answered` or
    /// `failed` only while the feed is the one it was asked of. A 410 feed-changed or
    /// cursor-expired starts over.
    private func run(_ fetch: @escaping @MainActor () async throws -> Void,
                     failed: @escaping @MainActor (any Error) -> Void) async {
        let asked = state.generation
        let task = Task {
            do {
                try await fetch()
            } catch where asked == state.generation {
                let problem = error as? ProblemDetails
                if problem?.isFeedChanged == true || problem?.isCursorExpired == true { startOver() } else { failed(error) }
            } catch {}
        }
        running = task
        await task.value
    }

    /// The feed shows up to its newest item: what it brought in leaves the pill, and inside
    /// `run()` the stream starts after it (once).
    private func shown() {
        pill = live.shown(state.newest, changes: state.changes)
        guard following, stream == nil else { return }
        let events = client.events(after: live.opening)
        stream = Task {
            do {
                for try await event in events { take(event) }
            } catch {} // the stream ends with an error only for a request the server refuses for good
        }
    }

    private func take(_ event: LiveEvent) {
        switch event {
        case .items(let batch): pill = live.arrived(ids: batch.items.map(\.id), gap: batch.gap, sequence: batch.sequence)
        case .changed(let change):
            state.saw(change.sequence)
            state.apply(change)
            pill = live.changed(sequence: change.sequence, deleted: change.deletedID)
        case .expired:
            // What the stream missed is lost to it: a refresh lists it, or starts over.
            Task { await refresh() }
        case .reset: startOver()
        case .demo(let knobs): demo = knobs
        default: break
        }
    }

    /// The server's feed is another one: everything goes, what was asked of the old feed is
    /// dropped, and the newest page is loaded (asked without a feed's name, so it cannot be
    /// refused in turn).
    private func startOver() {
        state.reset()
        live = LiveState()
        pill = live.pill
        stopStream()
        pageError = nil
        refreshError = nil
        startedOver = true
        Task { await loadMore() }
    }

    private func stopStream() {
        stream?.cancel()
        stream = nil
    }
}
