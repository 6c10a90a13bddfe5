import XCTest
@testable import PulldownFeed

/// The coalesced newest-id check without a store or threads: callers are numbers, a read's
/// outcome is a string, and each event's actions are spelled out.
final class SharedStoreCheckStateTests: XCTestCase {
    private typealias Check = SharedStoreCheckState<Int, String>

    private func describe(_ action: Check.Action?) -> String {
        switch action {
        case nil: "wait"
        case .read: "read"
        case .scheduleRead: "schedule"
        case .wake(let callers, let outcome): "wake \(callers) with \(outcome)"
        }
    }

    private func describe(_ actions: [Check.Action]) -> [String] {
        actions.map { describe($0) }
    }

    func testTheFirstCallerReadsItselfAndIsServedByItsOwnRead() {
        var check = Check()
        XCTAssertTrue(check.isIdle)
        XCTAssertEqual(describe(check.arrive(1)), "read")
        XCTAssertEqual(describe(check.readFinished("10")), ["wake [1] with 10"])
        XCTAssertTrue(check.isIdle)
        XCTAssertEqual(describe(check.arrive(2)), "read", "a caller after the read reads again")
        XCTAssertEqual(check.readsStarted, 2)
    }

    func testACallerArrivingDuringAReadWaitsForTheNextOne() {
        var check = Check()
        _ = check.arrive(1)
        XCTAssertEqual(describe(check.arrive(2)), "wait")
        // The read in flight may have started before 2 arrived: it serves 1 only.
        XCTAssertEqual(describe(check.readFinished("10")), ["schedule", "wake [1] with 10"])
        XCTAssertFalse(check.isIdle)
        check.readStarting()
        XCTAssertEqual(describe(check.readFinished("11")), ["wake [2] with 11"])
        XCTAssertTrue(check.isIdle)
    }

    func testOneReadServesEveryoneWhoArrivedBeforeItStarted() {
        var check = Check()
        _ = check.arrive(1)
        for caller in 2...5 { XCTAssertEqual(describe(check.arrive(caller)), "wait") }
        XCTAssertEqual(describe(check.readFinished("10")), ["schedule", "wake [1] with 10"])
        // Scheduled, not started yet: a caller arriving now may still use it.
        XCTAssertEqual(describe(check.arrive(6)), "wait")
        check.readStarting()
        // Started: this one needs the read after.
        XCTAssertEqual(describe(check.arrive(7)), "wait")
        XCTAssertEqual(describe(check.readFinished("11")), ["schedule", "wake [2, 3, 4, 5, 6] with 11"])
        check.readStarting()
        XCTAssertEqual(describe(check.readFinished("12")), ["wake [7] with 12"])
        XCTAssertEqual(check.readsStarted, 3, "seven callers, three reads")
    }

    func testAFailedReadWakesAllItsCallersWithTheFailureAndTheNextCallersReadAgain() {
        var check = Check()
        _ = check.arrive(1)
        XCTAssertEqual(describe(check.readFinished("10")), ["wake [1] with 10"])
        _ = check.arrive(2)
        _ = check.arrive(3)
        XCTAssertEqual(describe(check.readFinished("10")), ["schedule", "wake [2] with 10"])
        _ = check.arrive(4)
        check.readStarting()
        _ = check.arrive(5)
        XCTAssertEqual(describe(check.readFinished("down")), ["schedule", "wake [3, 4] with down"])
        // The failure is not reused: the caller that arrived during the failed read gets a read.
        check.readStarting()
        XCTAssertEqual(describe(check.readFinished("12")), ["wake [5] with 12"])
        XCTAssertEqual(describe(check.arrive(6)), "read", "and after it, the next caller reads at once")
    }

    /// Every order of events up to a length, against the rules: each caller is woken exactly
    /// once, with the outcome of a read that started after it arrived; one read at most is in
    /// flight; nobody waits once the machine is idle, and a read is always due while anyone does.
    func testEveryInterleavingWakesEachCallerOnceWithAReadThatStartedAfterItArrived() {
        struct Model {
            var check = SharedStoreCheckState<Int, Int>()
            /// Reads started when each caller arrived.
            var arrivedAfter: [Int] = []
            var woken: [Int: Int] = [:]
            var inFlight = 0
            var scheduled = 0
        }
        enum Event: CaseIterable { case arrive, start, finish }
        var explored = 0

        func apply(_ actions: [SharedStoreCheckState<Int, Int>.Action], to model: inout Model) {
            for action in actions {
                switch action {
                case .read:
                    model.inFlight += 1
                case .scheduleRead:
                    model.scheduled += 1
                case .wake(let callers, let read):
                    for caller in callers {
                        XCTAssertNil(model.woken[caller], "caller \(caller) woken twice")
                        model.woken[caller] = read
                        XCTAssertGreaterThan(read, model.arrivedAfter[caller],
                                             "caller \(caller) got read \(read), which started before it arrived")
                    }
                }
            }
        }

        func explore(_ model: Model, depth: Int) {
            explored += 1
            let waiting = model.arrivedAfter.count - model.woken.count
            XCTAssertLessThanOrEqual(model.inFlight + model.scheduled, 1, "one read at most is due or in flight")
            XCTAssertEqual(model.check.isIdle, waiting == 0, "idle exactly when nobody waits")
            if waiting > 0 { XCTAssertEqual(model.inFlight + model.scheduled, 1, "callers wait, yet no read is due") }
            guard depth > 0 else { return }
            for event in Event.allCases {
                var next = model
                switch event {
                case .arrive:
                    let caller = next.arrivedAfter.count
                    next.arrivedAfter.append(next.check.readsStarted)
                    apply(next.check.arrive(caller).map { [$0] } ?? [], to: &next)
                case .start:
                    guard next.scheduled == 1 else { continue }
                    next.scheduled = 0
                    next.check.readStarting()
                    next.inFlight = 1
                case .finish:
                    guard next.inFlight == 1 else { continue }
                    next.inFlight = 0
                    // A read's outcome is its number: the reads started when it began.
                    apply(next.check.readFinished(next.check.readsStarted), to: &next)
                }
                explore(next, depth: depth - 1)
            }
        }

        explore(Model(), depth: 15)
        XCTAssertGreaterThan(explored, 10_000)
    }
}
