import Foundation
import PulldownDoctor
import PulldownFeed
import PulldownHTTP
import Synchronization

/// The client doctor while the server runs: the book of clients behind a lock, fed by
/// `DoctorHook` with every finished API exchange; each new finding goes to the log
/// (`--doctor-log`), and every finding to whoever watches `/api/doctor/events`.
///
/// Recording is an append to a bounded timeline and one pass of the rules, under the lock, after
/// the answer was handed over; a finding's JSON is written outside it, and only when someone watches.
final class ClientDoctor: Sendable {
    private let book = Mutex(ClientBook())
    private let clock: any FeedClock
    private let pageSize: Int
    private let log: Bool
    let watchers: DoctorWatchers

    init(clock: any FeedClock, pageSize: Int, log: Bool, heartbeatSeconds: Double) {
        self.clock = clock
        self.pageSize = pageSize
        self.log = log
        watchers = DoctorWatchers(heartbeatSeconds: heartbeatSeconds)
    }

    var now: Date { clock.now() }

    /// Takes one exchange that began at `started` and was answered just now.
    func record(_ request: HTTPRequest, _ response: HTTPResponse, started: Date) {
        let observed = Observation.observe(request, response, pageSize: pageSize, started: started, ended: clock.now())
        let caller = Observation.caller(of: request)
        let recorded = book.withLock { $0.record(observed, from: caller) }
        guard let finding = recorded.finding else { return }
        if log && recorded.isNew { ErrorLog.write(Self.logLine(finding, client: recorded.client)) }
        if watchers.isWatched { watchers.send(DoctorJSON.event(recorded.client)) }
    }

    /// Every client kept, the one seen last first.
    var clients: [ClientBook.Client] {
        book.withLock { $0.clientsByRecency }
    }

    func client(id: String) -> ClientBook.Client? {
        book.withLock { $0.client(id: id) }
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

/// In front of the API's routes: each finished exchange goes to the doctor, after its answer.
struct DoctorHook: HTTPMiddleware {
    let doctor: ClientDoctor

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        let started = doctor.now
        next(request, Responder { response in
            responder.send(response)
            doctor.record(request, response, started: started)
        })
    }
}
