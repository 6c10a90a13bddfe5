import Foundation
import PulldownDoctor
import PulldownFeed
import PulldownHTTP
import Synchronization

/// The client doctor while the server runs: the book of clients on a queue of its own, fed by
/// `DoctorHook` with every finished API exchange; each new finding goes to the log
/// (`--doctor-log`), and every finding to whoever watches `/api/doctor/events`.
///
/// The thread that answers only hands the exchange over (the request and the answer as they are,
/// and two readings of the clock): reading it, the book and the rules run on the doctor's queue,
/// never on a server thread nor on the feed's writer queue, which answers refreshes. It examines
/// at most `perSecond` exchanges a second and counts the rest as skipped: an app calls a few times
/// a second, a load test thousands, and a load test is no app to examine, nor one to slow down.
final class ClientDoctor: Sendable {
    /// Exchanges examined in one second, at most.
    static let perSecond: UInt32 = 2_000

    private let queue = DispatchQueue(label: "pulldown.doctor", qos: .utility)
    private let book: QueueConfined<ClientBook>
    /// The second being counted and the exchanges handed over in it, as (second << 32 | count).
    private let budget = Atomic<UInt64>(0)
    private let skippedCount = Atomic<Int>(0)
    /// The times of the timelines and the rules: the demo clock, which a test moves.
    private let clock: any FeedClock
    /// What the budget's seconds are counted on when `clock` may stand still (`--clock manual`):
    /// the wall clock, as the load it guards against comes. Nil: `clock` itself.
    private let budgetClock: (any FeedClock)?
    private let pageSize: Int
    private let log: Bool
    let watchers: DoctorWatchers

    init(clock: any FeedClock, budgetClock: (any FeedClock)? = nil, pageSize: Int, log: Bool, heartbeatSeconds: Double) {
        self.clock = clock
        self.budgetClock = budgetClock ?? ((clock as? DemoClock)?.isManual == true ? SystemClock() : nil)
        self.pageSize = pageSize
        self.log = log
        book = QueueConfined(ClientBook(), on: queue)
        watchers = DoctorWatchers(heartbeatSeconds: heartbeatSeconds)
    }

    /// Hands over one exchange that began at `started` (within the budget) and is answered now.
    func record(_ request: HTTPRequest, _ response: HTTPResponse, started: Date) {
        let ended = clock.now()
        queue.async { [self] in take(request, response, started: started, ended: ended) }
    }

    /// When a request begins: the time, if it is within this second's budget (it will be
    /// recorded); else nil, and it is counted as skipped.
    func begin() -> Date? {
        let now = clock.now()
        guard spend(at: budgetClock?.now() ?? now) else {
            skippedCount.add(1, ordering: .relaxed)
            return nil
        }
        return now
    }

    /// Takes one exchange of this second's budget; false when it is spent.
    private func spend(at date: Date) -> Bool {
        let second = UInt64(UInt32(truncatingIfNeeded: Int64(date.timeIntervalSince1970)))
        var seen = budget.load(ordering: .relaxed)
        while true {
            let count = seen >> 32 == second ? UInt32(truncatingIfNeeded: seen) : 0
            guard count < Self.perSecond else { return false }
            let (exchanged, original) = budget.compareExchange(expected: seen, desired: second << 32 | UInt64(count + 1),
                                                               ordering: .relaxed)
            if exchanged { return true }
            seen = original
        }
    }

    /// Exchanges not examined since the start, the budget being spent.
    var skipped: Int { skippedCount.load(ordering: .relaxed) }

    /// On the queue: reads the exchange and runs the rules over it.
    private func take(_ request: HTTPRequest, _ response: HTTPResponse, started: Date, ended: Date) {
        let observed = Observation.observe(request, response, pageSize: pageSize, started: started, ended: ended)
        let watched = watchers.isWatched
        let recorded = book.access { $0.record(observed, from: Observation.caller(of: request), copyingClient: watched) }
        guard let finding = recorded.finding, let client = recorded.client else { return }
        if log && recorded.isNew { ErrorLog.write(Self.logLine(finding, client: client)) }
        if watched { watchers.send(DoctorJSON.event(client)) }
    }

    /// Every client kept, the one seen last first, once every exchange handed over before is taken.
    var clients: [ClientBook.Client] {
        queue.sync { book.access { $0.clientsByRecency } }
    }

    func client(id: String) -> ClientBook.Client? {
        queue.sync { book.access { $0.client(id: id) } }
    }

    func stop() {
        watchers.stop()
    }

    /// `doctor: client 1f2e… (session 3f1c2a9b, 127.0.0.1 curl/8.5.0): duplicate-request: GET /api/items?before=26 200: Asked for the same thing twice at once`
    static func logLine(_ finding: Finding, client: ClientBook.Client) -> String {
        let caller = client.caller
        let who = (caller.session.map { "session \($0), " } ?? "") + caller.address + (caller.userAgent.isEmpty ? "" : " " + caller.userAgent)
        let example = finding.example
        return "doctor: client \(client.id) (\(who)): \(finding.rule.name): \(example.method) \(example.target) \(example.status): \(finding.rule.title)"
    }
}

/// In front of the API's routes: each finished exchange goes to the doctor as it is answered.
struct DoctorHook: HTTPMiddleware {
    let doctor: ClientDoctor

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        // Past the budget, the request goes on as if there were no doctor.
        guard let started = doctor.begin() else { return next(request, responder) }
        next(request, Responder { response in
            // Handed over first, so that whoever has the answer finds it recorded.
            doctor.record(request, response, started: started)
            responder.send(response)
        })
    }
}
