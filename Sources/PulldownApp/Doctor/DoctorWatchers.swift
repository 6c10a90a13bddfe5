import Dispatch
import PulldownFeed
import PulldownHTTP
import Synchronization

/// The open `GET /api/doctor/events` streams: each finding goes to all of them as `event: doctor`,
/// and a `: ping` every heartbeat keeps proxies from closing them. At most `limit` at once: the
/// Doctor view needs one per developer, not a crowd's.
final class DoctorWatchers: Sendable {
    static let limit = 16

    /// The streams, apart from the timer that pings them.
    private final class Open: Sendable {
        let streams = Mutex<[ObjectIdentifier: ResponseStream]>([:])
        let count = Atomic<Int>(0)

        var all: [ResponseStream] { streams.withLock { Array($0.values) } }

        func change(_ body: (inout [ObjectIdentifier: ResponseStream]) -> Bool) -> Bool {
            streams.withLock { streams in
                defer { count.store(streams.count, ordering: .relaxed) }
                return body(&streams)
            }
        }
    }

    private let open = Open()
    private let heartbeat: RepeatingTimer

    init(heartbeatSeconds: Double) {
        let open = self.open
        let ping = ServerSentEvents.comment("ping")
        heartbeat = RepeatingTimer(every: max(0.05, heartbeatSeconds), on: DispatchQueue(label: "pulldown.doctor-watchers")) {
            for stream in open.all { stream.write(ping) }
        }
    }

    /// Someone watches: only then is a finding written as an event.
    var isWatched: Bool { open.count.load(ordering: .relaxed) > 0 }

    /// A new stream, or nil when `limit` are open.
    func add() -> ResponseStream? {
        let stream = ResponseStream(), key = ObjectIdentifier(stream)
        let admitted = open.change { streams in
            guard streams.count < Self.limit else { return false }
            streams[key] = stream
            return true
        }
        guard admitted else { return nil }
        stream.write(ServerSentEvents.retry(milliseconds: 1000))
        let open = self.open
        stream.onEnd { _ = open.change { $0.removeValue(forKey: key) != nil } }
        return stream
    }

    func send(_ event: [UInt8]) {
        for stream in open.all { stream.write(event) }
    }

    /// Stops the heartbeat; the server closes the streams.
    func stop() {
        heartbeat.cancel()
    }
}
