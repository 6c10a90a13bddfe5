import Dispatch
import PulldownFeed
import PulldownHTTP

/// The subscribers of `GET /api/events` and what they are sent.
///
/// Every subscriber is a cursor (a point of the feed's sequence) and a stream. Joining, leaving
/// and each insert or change happen on one serial queue, in one order, through a `LiveRoster`;
/// this class only carries out what the roster says: it admits streams (`StreamAdmission`), reads
/// a batch once per notice or catch-up (`LiveBatch`), queues the events, wakes the streams in
/// slices (`PacedWaker`), and pings them on a heartbeat.
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
        let position: Int64?
        do {
            position = try source.sequence()
        } catch {
            // The first insert or change heard says how far the feed went.
            ErrorLog.write("live events: cannot read the feed's sequence: \(error)")
            position = nil
        }
        let roster = QueueConfined(LiveRoster(lastSent: position ?? 0), on: queue)
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
            self.queue.async { self.sendNews(heard: newest) }
        }
        source.observeChanges { [weak self] notice in
            guard let self else { return }
            self.queue.async { self.sendNews(heard: notice.through) }
        }
        source.observeResets { [weak self] newest in
            guard let self else { return }
            self.queue.async { self.startOver(newest: newest) }
        }
    }

    /// Streams open now.
    var openStreams: Int { admission.count }

    /// A new stream of events for what happens after `cursor` (where the feed is when nil),
    /// written for `base` (`BaseURL`), or nil when `maxStreams` are open.
    func subscribe(after cursor: Int64?, base: String) -> ResponseStream? {
        let stream = ResponseStream()
        return add(stream, after: cursor, base: base) ? stream : nil
    }

    /// Adds a subscriber; false when `maxStreams` are open.
    func add(_ sink: any EventSink, after cursor: Int64?, base: String = "") -> Bool {
        guard admission.admit() else { return false }
        sink.write(ServerSentEvents.retry(milliseconds: settings.retryMilliseconds))
        queue.async {
            if let greeting = self.roster.access({ $0.greeting }) { sink.write(greeting) }
            self.join(sink, after: cursor, base: base)
        }
        // Registered after the join was queued, so a sink that ends at once still leaves after it joined.
        sink.onEnd { [weak self] in
            guard let self else { return }
            self.queue.async { self.leave(sink) }
        }
        return true
    }

    /// Sends `event` to every stream open now, in the order of the calls (the demo knobs'
    /// changes). A stream that joins later does not get it, unless it is `kept`: then every
    /// stream opened later starts with it, until the next kept one (a script's state, so a page
    /// that opens or reconnects shows the current act). Each stream so gets a kept state once:
    /// as it was when the stream joined, or the change that followed.
    func broadcast(_ event: [UInt8], kept: Bool = false) {
        queue.async {
            if kept { self.roster.access { $0.greeting = event } }
            Self.sendToEveryStream(event, roster: self.roster, waker: self.waker)
        }
    }

    /// Closes every stream open now, after what was queued before (a script's `dropStreams`);
    /// EventSource reconnects with Last-Event-ID.
    func dropStreams() {
        queue.async { for sink in self.roster.access({ $0.sinks }) { sink.close() } }
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
        do {
            // Up to what the others were sent at least: all of it committed.
            let missed = try LiveBatch.read(after: position, from: source, heard: roster.access { $0.lastSent })
            let events = missed.sharedEvent(base: base)
            if !events.isEmpty { sink.write(events) }
            roster.access { $0.join(sink, at: missed.to, base: base) }
        } catch FeedError.changesExpired {
            // Too far behind to be told what it missed: one event says so, and it goes on from now.
            guard let now = try? source.sequence() else { return sink.close() }
            sink.write(LiveBatch.expiredEvent(at: now))
            roster.access { $0.join(sink, at: now, base: base) }
        } catch {
            ErrorLog.write("live events: cannot catch a subscriber up: \(error)")
            sink.close()   // the browser reconnects and tries again
        }
    }

    /// Every stream leaves once, joined or not (a failed catch-up never joined), and gives its
    /// slot back.
    private func leave(_ sink: any EventSink) {
        roster.access { $0.leave(sink) }
        admission.release()
    }

    /// Tells every subscriber that the feed was reset, once, and moves them all past it: to its
    /// newest item, so what is added after is news (the numbers between it and the reset were the
    /// old feed's, and went with it).
    private func startOver(newest: Int64?) {
        let sinks = roster.access { $0.reset(to: newest ?? 0) }
        let event = LiveBatch.resetEvent(newest: newest)
        for sink in sinks { sink.enqueue(event) }
        waker.wake(sinks)
    }

    /// Reads what happened after what was sent, once, and queues it on every subscriber.
    private func sendNews(heard position: Int64?) {
        switch roster.access({ $0.heard(position) }) {
        case .nothing:
            return
        case .readSequence:
            do {
                let now = try source.sequence()
                roster.access { $0.remember(now) }
            } catch {
                ErrorLog.write("live events: cannot read the feed's sequence: \(error)")
            }
        case .read(let after):
            let batch: LiveBatch
            do {
                batch = try LiveBatch.read(after: after, from: source, heard: position)
            } catch FeedError.changesExpired {
                // More changed at once than one batch carries (or they are no longer kept):
                // everyone starts over from now.
                guard let now = try? source.sequence() else { return }
                let sinks = roster.access { $0.expire(to: now) }
                for sink in sinks { sink.enqueue(LiveBatch.expiredEvent(at: now)) }
                waker.wake(sinks)
                return
            } catch {
                ErrorLog.write("live events: cannot read what happened: \(error)")
                return
            }
            let sends = roster.access { $0.deliver(batch) }
            for send in sends { send.sink.enqueue(send.event) }
            waker.wake(sends.map(\.sink))
        }
    }
}
