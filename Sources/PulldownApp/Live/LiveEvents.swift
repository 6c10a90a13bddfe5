import Dispatch
import PulldownFeed
import PulldownHTTP

/// The subscribers of `GET /api/events` and what they are sent.
///
/// Every subscriber is a cursor and a stream. Joining, leaving and each insert happen on one
/// serial queue, in one order, through a `LiveRoster`; this class only carries out what the
/// roster says: it admits streams (`StreamAdmission`), reads a batch once per insert or
/// catch-up (`LiveBatch`), queues the events, wakes the streams in slices (`PacedWaker`), and
/// pings them on a heartbeat.
final class LiveEvents: Sendable {
    struct Settings: Sendable {
        /// `Configuration.maxStreams`.
        var maxStreams: Int
        /// Seconds between `: ping` comments on every stream (`Configuration.heartbeatSeconds`).
        var heartbeatSeconds: Double
        /// How long EventSource waits before reconnecting.
        var retryMilliseconds = 1000
    }

    private let source: any LiveSource
    private let settings: Settings
    private let queue = DispatchQueue(label: "pulldown.live-events")
    private let roster: QueueConfined<LiveRoster>
    private let admission: StreamAdmission
    private let waker: PacedWaker
    private let heartbeat: RepeatingTimer

    init(source: any LiveSource, settings: Settings) {
        self.source = source
        self.settings = settings
        let newest: Int64?
        do {
            newest = try source.newestID()
        } catch {
            // The first insert heard says how far the feed went.
            ErrorLog.write("live events: cannot read the newest item id: \(error)")
            newest = nil
        }
        let roster = QueueConfined(LiveRoster(lastSent: newest ?? 0), on: queue)
        self.roster = roster
        admission = StreamAdmission(limit: settings.maxStreams)
        let waker = PacedWaker()
        self.waker = waker
        let ping = ServerSentEvents.comment("ping")
        heartbeat = RepeatingTimer(every: max(0.05, settings.heartbeatSeconds), on: queue) {
            Self.sendToEveryStream(ping, roster: roster, waker: waker)
        }
        source.observeInserts { [weak self] newest in
            guard let self else { return }
            self.queue.async { self.sendNewItems(heard: newest) }
        }
        source.observeResets { [weak self] newest in
            guard let self else { return }
            self.queue.async { self.startOver(newest: newest) }
        }
    }

    /// Streams open now.
    var openStreams: Int { admission.count }

    /// A new stream of events for items newer than `cursor` (the newest item when nil), written
    /// for `base` (`BaseURL`), or nil when `maxStreams` are open.
    func subscribe(after cursor: Int64?, base: String) -> ResponseStream? {
        let stream = ResponseStream()
        return add(stream, after: cursor, base: base) ? stream : nil
    }

    /// Adds a subscriber; false when `maxStreams` are open.
    func add(_ sink: any EventSink, after cursor: Int64?, base: String = "") -> Bool {
        guard admission.admit() else { return false }
        sink.write(ServerSentEvents.retry(milliseconds: settings.retryMilliseconds))
        queue.async { self.join(sink, after: cursor, base: base) }
        // Registered after the join was queued, so a sink that ends at once still leaves after it joined.
        sink.onEnd { [weak self] in
            guard let self else { return }
            self.queue.async { self.leave(sink) }
        }
        return true
    }

    /// Sends `event` to every stream open now, in the order of the calls (the demo knobs'
    /// changes). A stream that joins later does not get it.
    func broadcast(_ event: [UInt8]) {
        queue.async { Self.sendToEveryStream(event, roster: self.roster, waker: self.waker) }
    }

    /// Runs `body` on the queue after everything queued before it (tests wait on this).
    func sync<R>(_ body: () -> R) -> R {
        queue.sync(execute: body)
    }

    /// Stops the heartbeat; the server closes the streams.
    func stop() {
        heartbeat.cancel()
    }

    // MARK: On the queue (each checks it: `roster.access`)

    private static func sendToEveryStream(_ event: [UInt8], roster: QueueConfined<LiveRoster>, waker: PacedWaker) {
        let sinks = roster.access { $0.sinks }
        for sink in sinks { sink.enqueue(event) }
        waker.wake(sinks)
    }

    private func join(_ sink: any EventSink, after cursor: Int64?, base: String) {
        guard case .catchUp(let position) = roster.access({ $0.arrive(sink, cursor: cursor, base: base) }) else { return }
        let missed: LiveBatch
        do {
            missed = try LiveBatch.read(after: position, from: source)
        } catch {
            ErrorLog.write("live events: cannot catch a subscriber up: \(error)")
            sink.close()   // the browser reconnects and tries again
            return
        }
        if !missed.items.isEmpty { sink.write(missed.sharedEvent(base: base)) }
        roster.access { $0.join(sink, at: missed.to, base: base) }
    }

    /// Every stream leaves once, joined or not (a failed catch-up never joined), and gives its
    /// slot back.
    private func leave(_ sink: any EventSink) {
        roster.access { $0.leave(sink) }
        admission.release()
    }

    /// Tells every subscriber that the feed was reset, once, and moves them all past it.
    private func startOver(newest: Int64?) {
        let sinks = roster.access { $0.reset(newest: newest) }
        let event = LiveBatch.resetEvent(newest: newest)
        for sink in sinks { sink.enqueue(event) }
        waker.wake(sinks)
    }

    /// Reads what is newer than what was sent, once, and queues it on every subscriber.
    private func sendNewItems(heard newest: Int64?) {
        switch roster.access({ $0.heard(newest) }) {
        case .nothing:
            return
        case .readNewestID:
            do {
                if let newest = try source.newestID() { roster.access { $0.remember(newest) } }
            } catch {
                ErrorLog.write("live events: cannot read the newest item id: \(error)")
            }
        case .read(let after):
            let batch: LiveBatch
            do {
                batch = try LiveBatch.read(after: after, from: source)
            } catch {
                ErrorLog.write("live events: cannot read new items: \(error)")
                return
            }
            guard !batch.items.isEmpty else { return }
            let sends = roster.access { $0.deliver(batch) }
            for send in sends { send.sink.enqueue(send.event) }
            waker.wake(sends.map(\.sink))
        }
    }
}
