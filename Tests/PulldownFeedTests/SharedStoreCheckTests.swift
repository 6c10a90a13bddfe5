import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed

/// The coalesced check with threads and a fake store: reads are numbered, and the test decides
/// when each one answers.
final class SharedStoreCheckTests: XCTestCase {
    private struct Down: Error {}

    /// A fake newest-id read: read N answers N * 10, or fails when told to; the first read can be
    /// held until the test releases it.
    private final class Reads: Sendable {
        let count = Mutex(0)
        let failing = Mutex<Set<Int>>([])
        let firstStarted = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)

        func read() -> SharedStoreCheck.Outcome {
            let number = count.withLock { $0 += 1; return $0 }
            if number == 1 {
                firstStarted.signal()
                releaseFirst.wait()
            }
            if failing.withLock({ $0.contains(number) }) { return .failure(Down()) }
            return .success(Int64(number * 10))
        }
    }

    /// Outcomes by caller, and a group left once per outcome.
    private final class Outcomes: Sendable {
        let byCaller = Mutex<[Int: String]>([:])
        let answered = DispatchGroup()

        func waiter(_ caller: Int) -> SharedStoreCheck.Waiter {
            answered.enter()
            return { outcome in
                let text = switch outcome {
                case .success(let newest): "\(newest ?? 0)"
                case .failure: "down"
                }
                self.byCaller.withLock { $0[caller] = text }
                self.answered.leave()
            }
        }
    }

    /// Starts caller 0's check on a thread of its own (it reads there, held), and waits until
    /// that read has started.
    private func startHeldRead(_ checker: SharedStoreCheck, _ reads: Reads, _ outcomes: Outcomes) {
        let waiter = outcomes.waiter(0)
        Thread.detachNewThread { checker.check(waiter) }
        reads.firstStarted.wait()
    }

    func testCallersArrivingDuringAReadWaitForTheNextOneAndShareIt() {
        let reads = Reads()
        let checker = SharedStoreCheck { reads.read() }
        let outcomes = Outcomes()
        startHeldRead(checker, reads, outcomes)
        // They arrive while read 1 is in flight: check returns at once, nobody is answered yet.
        for caller in 1...8 { checker.check(outcomes.waiter(caller)) }
        XCTAssertEqual(outcomes.byCaller.withLock { $0 }, [:])
        reads.releaseFirst.signal()

        XCTAssertEqual(outcomes.answered.wait(timeout: .now() + 10), .success)
        var expected = [0: "10"]
        for caller in 1...8 { expected[caller] = "20" }
        XCTAssertEqual(outcomes.byCaller.withLock { $0 }, expected, "read 1 serves caller 0 only; read 2 the rest")
        XCTAssertEqual(reads.count.withLock { $0 }, 2)
        XCTAssertEqual(checker.readsStarted, 2)
    }

    func testAFailedReadWakesEveryCallerItServesWithTheFailureAndTheNextCallReadsAgain() {
        let reads = Reads()
        reads.failing.withLock { $0 = [2] }
        let checker = SharedStoreCheck { reads.read() }
        let outcomes = Outcomes()
        startHeldRead(checker, reads, outcomes)
        for caller in 1...3 { checker.check(outcomes.waiter(caller)) }
        reads.releaseFirst.signal()
        XCTAssertEqual(outcomes.answered.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(outcomes.byCaller.withLock { $0 }, [0: "10", 1: "down", 2: "down", 3: "down"])

        // The store is back: the next caller reads at once, on its own thread.
        if case .success(let newest) = checker.checkNow() {
            XCTAssertEqual(newest, 30)
        } else {
            XCTFail("read 3 failed")
        }
        XCTAssertEqual(reads.count.withLock { $0 }, 3)
    }

    func testWithNoReadInFlightTheCallerReadsOnItsOwnThreadBeforeCheckReturns() {
        let count = Mutex(0)
        let checker = SharedStoreCheck { .success(Int64(count.withLock { $0 += 1; return $0 })) }
        for expected in 1...3 {
            guard case .success(let newest) = checker.checkNow() else { return XCTFail("no answer, or a failure") }
            XCTAssertEqual(newest, Int64(expected))
        }
    }
}

private extension SharedStoreCheck {
    /// `check` when no read is in flight: the outcome its body got before `check` returned, nil
    /// if it had got none by then.
    func checkNow() -> Outcome? {
        let outcome = Mutex<Outcome?>(nil)
        check { answer in outcome.withLock { $0 = answer } }
        return outcome.withLock { $0 }
    }
}
