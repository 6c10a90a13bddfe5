import Dispatch
import Foundation
import PulldownFeed
import PulldownHTTP
import Synchronization

/// What the live events need from the feed. `Feed` provides it; tests give a fake.
protocol LiveSource: Sendable {
    /// The newest item id, nil for an empty feed.
    func newestItemID() throws -> Int64?
    /// The newest `limit` items with id > `cursor`, newest first; `hasMore` when more are newer.
    func latestItems(after cursor: Int64, limit: Int) throws -> ItemPage
    /// Calls `handler` after every committed insert, made here or by another process sharing the
    /// store, with the largest new id (nil: inserts may have been missed, read again).
    func observeInserts(_ handler: @escaping @Sendable (Int64?) -> Void)
    /// Adds the demo items that are due, if any.
    func generateDueItems() throws
}

/// Where one subscriber's events go: a `ResponseStream` in the server, a recorder in tests.
protocol EventSink: AnyObject, Sendable {
    /// Appends bytes and sends them as soon as the connection can.
    func write(_ bytes: [UInt8])
    /// Appends bytes to send at the next `wake()`.
    func enqueue(_ bytes: [UInt8])
    func wake()
    func close()
    /// Called once when the sink has ended (closed, or its client left).
    func onEnd(_ handler: @escaping @Sendable () -> Void)
}

extension ResponseStream: EventSink {}

/// The subscribers of `GET /api/events` and what they are sent.
///
/// Every subscriber is a cursor (the newest item id it has been sent) and a `ResponseStream`.
/// All of it lives on one serial queue, so joining, leaving and each insert happen in one order:
/// a subscriber joins caught up to the newest item sent so far, and each insert after that is
/// read once, made into one event, and written to every subscriber whose cursor it continues.
/// That is what makes "none twice, none lost" hold across reconnects.
final class LiveEvents: Sendable {
    struct Settings: Sendable {
        var maxStreams = 10_000
        /// Seconds between `: ping` comments on every stream.
        var heartbeatSeconds: Double = 15
        /// The demo generator's interval (0: off); it runs while at least one stream is open.
        var newItemsEvery: Double = 0
        /// How long EventSource waits before reconnecting.
        var retryMilliseconds = 1000
    }

    private struct Subscriber {
        let sink: any EventSink
        var cursor: Int64
    }

    private struct State {
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        /// The newest item id announced; a subscriber without a cursor starts here.
        var lastSent: Int64 = 0
    }

    private let source: any LiveSource
    private let settings: Settings
    private let queue = DispatchQueue(label: "pulldown.live-events")
    /// Wakes the streams an event was written to, a slice at a time.
    private let waker = DispatchQueue(label: "pulldown.live-events.wake")
    /// Streams woken at once, and the pause between slices: waking 10,000 streams together
    /// would keep the server's threads sending for a while, and a request arriving meanwhile
    /// (a page, /healthz) would wait behind all of them.
    static let wakeSlice = 128
    static let wakePause = DispatchTimeInterval.microseconds(1000)
    /// Open streams, counted when they are handed out so the limit holds under a burst of joins.
    private let open = Atomic<Int>(0)
    /// Touched only on `queue`; the Mutex is what lets the compiler check that.
    private let state = Mutex(State())
    private let timers = Mutex<[DispatchSourceTimer]>([])

    init(source: any LiveSource, settings: Settings) {
        self.source = source
        self.settings = settings
        let newest = (try? source.newestItemID()) ?? nil
        state.withLock { $0.lastSent = newest ?? 0 }
        source.observeInserts { [weak self] newest in
            guard let self else { return }
            self.queue.async { self.sendNewItems(heard: newest) }
        }
        startTimers()
    }

    /// Streams open now.
    var openStreams: Int { open.load(ordering: .relaxed) }

    /// A new stream of events for items newer than `cursor` (the newest item when nil), or nil
    /// when `maxStreams` are open.
    func subscribe(after cursor: Int64?) -> ResponseStream? {
        let stream = ResponseStream()
        return add(stream, after: cursor) ? stream : nil
    }

    /// Adds a subscriber; false when `maxStreams` are open.
    func add(_ sink: any EventSink, after cursor: Int64?) -> Bool {
        while true {
            let count = open.load(ordering: .relaxed)
            guard count < settings.maxStreams else { return false }
            if open.compareExchange(expected: count, desired: count + 1, ordering: .relaxed).exchanged { break }
        }
        sink.write(ServerSentEvents.retry(milliseconds: settings.retryMilliseconds))
        queue.async { self.join(sink, after: cursor) }
        // Registered after the join was queued, so a sink that ends at once still leaves after it joined.
        sink.onEnd { [weak self] in
            guard let self else { return }
            self.queue.async { self.leave(sink) }
        }
        return true
    }

    /// Runs `body` on the queue after everything queued before it (tests wait on this).
    func sync<R>(_ body: () -> R) -> R {
        queue.sync(execute: body)
    }

    /// Stops the timers; the server closes the streams.
    func stop() {
        timers.withLock { $0.forEach { $0.cancel() } }
    }

    // MARK: On the queue

    private func join(_ sink: any EventSink, after cursor: Int64?) {
        let lastSent = state.withLock { $0.lastSent }
        var position = cursor ?? lastSent
        if position < lastSent {
            // Behind what the others were sent (a reconnect with Last-Event-ID): send what it
            // missed now, so it joins where everyone is.
            do {
                let page = try source.latestItems(after: position, limit: LiveBatch.limit)
                if let newest = page.items.first {
                    sink.write(LiveBatch.event(page.items, gap: page.hasMore))
                    position = newest.id
                }
            } catch {
                ErrorLog.write("live events: cannot catch a subscriber up: \(error)")
                sink.close()   // the browser reconnects and tries again
                return
            }
        }
        state.withLock { $0.subscribers[ObjectIdentifier(sink)] = Subscriber(sink: sink, cursor: position) }
    }

    /// Every stream leaves once, joined or not (a failed catch-up never joined), and gives its
    /// slot back.
    private func leave(_ sink: any EventSink) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: ObjectIdentifier(sink)) }
        open.subtract(1, ordering: .relaxed)
    }

    /// Reads what is newer than what was sent, once, and writes it to every subscriber.
    private func sendNewItems(heard newest: Int64?) {
        let (lastSent, nobody) = state.withLock { ($0.lastSent, $0.subscribers.isEmpty) }
        if let newest, newest <= lastSent { return }
        guard !nobody else {
            // Nobody listens: remember how far inserts went, without reading the items (only the
            // newest id, when the notice did not say it), and outside the lock.
            let known = newest ?? ((try? source.newestItemID()) ?? nil) ?? lastSent
            state.withLock { $0.lastSent = max($0.lastSent, known) }
            return
        }
        let page: ItemPage
        do {
            page = try source.latestItems(after: lastSent, limit: LiveBatch.limit)
        } catch {
            ErrorLog.write("live events: cannot read new items: \(error)")
            return
        }
        guard !page.items.isEmpty else { return }
        let batch = LiveBatch(from: lastSent, items: page.items, gap: page.hasMore)
        let shared = batch.sharedEvent
        let written = state.withLock { state -> [any EventSink] in
            var written: [any EventSink] = []
            written.reserveCapacity(state.subscribers.count)
            for (key, subscriber) in state.subscribers {
                switch batch.delivery(for: subscriber.cursor) {
                case .shared:
                    subscriber.sink.enqueue(shared)
                case .own(let items, let gap):
                    if !items.isEmpty { subscriber.sink.enqueue(LiveBatch.event(items, gap: gap)) }
                case .nothing:
                    continue
                }
                written.append(subscriber.sink)
                state.subscribers[key]?.cursor = batch.to
            }
            state.lastSent = batch.to
            return written
        }
        wakeInSlices(written)
    }

    /// Wakes `sinks` `wakeSlice` at a time with a short pause between slices. What they are sent
    /// is already queued in order, so a slice woken late still sends everything in order.
    private func wakeInSlices(_ sinks: [any EventSink], from start: Int = 0) {
        waker.async {
            let end = min(sinks.count, start + Self.wakeSlice)
            for index in start..<end { sinks[index].wake() }
            guard end < sinks.count else { return }
            self.waker.asyncAfter(deadline: .now() + Self.wakePause) { self.wakeInSlices(sinks, from: end) }
        }
    }

    private func startTimers() {
        // Made inside the lock, so the timers are never shared outside it.
        timers.withLock { timers in
            timers = makeTimers()
            timers.forEach { $0.resume() }
        }
    }

    private func makeTimers() -> [DispatchSourceTimer] {
        let heartbeat = DispatchSource.makeTimerSource(queue: queue)
        let interval = max(0.05, settings.heartbeatSeconds)
        heartbeat.schedule(deadline: .now() + interval, repeating: interval)
        let ping = ServerSentEvents.comment("ping")
        heartbeat.setEventHandler { [weak self] in
            guard let self else { return }
            let sinks = self.state.withLock { $0.subscribers.values.map(\.sink) }
            for sink in sinks { sink.enqueue(ping) }
            self.wakeInSlices(sinks)
        }
        var all = [heartbeat]
        if settings.newItemsEvery > 0 {
            // Checked often, so an item appears about when it is due; the source decides whether
            // it is, and stays lazy (nothing is added) while no stream is open.
            let generator = DispatchSource.makeTimerSource(queue: queue)
            let check = min(1, max(0.1, settings.newItemsEvery / 4))
            generator.schedule(deadline: .now() + check, repeating: check)
            generator.setEventHandler { [weak self] in
                guard let self, self.state.withLock({ !$0.subscribers.isEmpty }) else { return }
                let source = self.source
                DispatchQueue.global().async { try? source.generateDueItems() }
            }
            all.append(generator)
        }
        return all
    }
}
