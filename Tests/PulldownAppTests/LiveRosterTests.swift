import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp

/// Who is sent what, decided by the roster alone: no queue, no store, no stream.
final class LiveRosterTests: XCTestCase {
    /// A sink the roster only holds: it never calls one.
    final class Sink: EventSink {
        func write(_ bytes: [UInt8]) {}
        func enqueue(_ bytes: [UInt8]) {}
        func wake() {}
        func close() {}
        func onEnd(_ handler: @escaping @Sendable () -> Void) {}
    }

    private func batch(from: Int64, _ ids: ClosedRange<Int64>, gap: Bool = false) -> LiveBatch {
        LiveBatch(from: from, items: testItems(Array(ids.reversed())), gap: gap)
    }

    func testASubscriberAtOrPastTheLastSentJoinsAndOneBehindIsCaughtUpFirst() {
        var roster = LiveRoster(lastSent: 5)
        let current = Sink(), ahead = Sink(), behind = Sink()
        XCTAssertEqual(roster.arrive(current, cursor: nil), .joined)
        XCTAssertEqual(roster.arrive(ahead, cursor: 9), .joined)
        XCTAssertEqual(roster.arrive(behind, cursor: 2), .catchUp(from: 2))
        XCTAssertEqual(roster.count, 2, "the one behind joins only once caught up")
        roster.join(behind, at: 5)
        XCTAssertEqual(roster.count, 3)
    }

    func testAnInsertIsReadOnceAndHandedToEveryoneItContinues() {
        var roster = LiveRoster(lastSent: 5)
        let first = Sink(), second = Sink(), ahead = Sink()
        _ = roster.arrive(first, cursor: nil)
        _ = roster.arrive(second, cursor: nil)
        _ = roster.arrive(ahead, cursor: 7)
        XCTAssertEqual(roster.heard(7), .read(after: 5))
        let sends = roster.deliver(batch(from: 5, 6...7))
        XCTAssertEqual(Set(sends.map { ObjectIdentifier($0.sink) }), [ObjectIdentifier(first), ObjectIdentifier(second)],
                       "the one already at 7 is sent nothing")
        XCTAssertEqual(Set(sends.map(\.event)).count, 1, "one event, shared")
        XCTAssertEqual(roster.lastSent, 7)
        XCTAssertEqual(roster.heard(7), .nothing, "a second notice of the same insert reads nothing")
    }

    func testTheSharedEventIsWrittenOnceForEachBaseURLItsSubscribersCameBy() {
        var roster = LiveRoster(lastSent: 0)
        let local = Sink(), alsoLocal = Sink(), network = Sink()
        _ = roster.arrive(local, cursor: nil, base: "http://127.0.0.1:8080")
        _ = roster.arrive(alsoLocal, cursor: nil, base: "http://127.0.0.1:8080")
        _ = roster.arrive(network, cursor: nil, base: "http://192.168.1.20:8080")
        let item = Item(id: 1, title: "T", body: "", author: "A", createdAt: Date(timeIntervalSince1970: 0),
                        userFields: #"{"avatar":"/media/demo/avatar-1.png"}"#)
        let sends = roster.deliver(LiveBatch(from: 0, items: [item], gap: false))
        let events = Dictionary(uniqueKeysWithValues: sends.map { (ObjectIdentifier($0.sink), String(decoding: $0.event, as: UTF8.self)) })
        XCTAssertEqual(events[ObjectIdentifier(local)], events[ObjectIdentifier(alsoLocal)])
        XCTAssertTrue(events[ObjectIdentifier(local)]?.contains(#""avatar":"http://127.0.0.1:8080/media/demo/avatar-1.png""#) == true)
        XCTAssertTrue(events[ObjectIdentifier(network)]?.contains(#""avatar":"http://192.168.1.20:8080/media/demo/avatar-1.png""#) == true)
    }

    func testWithNobodyListeningInsertsAreRememberedWithoutARead() {
        var roster = LiveRoster(lastSent: 2)
        XCTAssertEqual(roster.heard(5), .nothing)
        XCTAssertEqual(roster.lastSent, 5)
        XCTAssertEqual(roster.heard(nil), .readSequence, "a notice that does not say how far")
        roster.remember(8)
        roster.remember(6)
        XCTAssertEqual(roster.lastSent, 8, "only moves forward")
    }

    func testASubscriberThatLeftIsHandedNothing() {
        var roster = LiveRoster(lastSent: 1)
        let gone = Sink(), staying = Sink()
        _ = roster.arrive(gone, cursor: nil)
        _ = roster.arrive(staying, cursor: nil)
        roster.leave(gone)
        roster.leave(Sink())   // never joined: no error
        let sends = roster.deliver(batch(from: 1, 2...2))
        XCTAssertEqual(sends.map { ObjectIdentifier($0.sink) }, [ObjectIdentifier(staying)])
    }

    func testAResetMovesEveryoneToTheNewFeedsNewestAndNobodyBack() {
        var roster = LiveRoster(lastSent: 5)
        let current = Sink(), ahead = Sink()
        _ = roster.arrive(current, cursor: nil)
        _ = roster.arrive(ahead, cursor: 12)
        XCTAssertEqual(Set(roster.reset(to: 8).map { ObjectIdentifier($0) }), [ObjectIdentifier(current), ObjectIdentifier(ahead)])
        XCTAssertEqual(roster.lastSent, 8)
        XCTAssertEqual(roster.heard(8), .nothing, "the reset's own items are not news")
        let sends = roster.deliver(batch(from: 8, 9...9))
        XCTAssertEqual(sends.map { ObjectIdentifier($0.sink) }, [ObjectIdentifier(current)], "12 has seen 9 already")
        _ = roster.reset(to: 0)
        XCTAssertEqual(roster.lastSent, 9, "the sequence never goes back")
    }

    func testTooMuchToSendMovesEveryoneBehindToNowToBeToldSo() {
        var roster = LiveRoster(lastSent: 5)
        let current = Sink(), ahead = Sink()
        _ = roster.arrive(current, cursor: nil)
        _ = roster.arrive(ahead, cursor: 40)
        XCTAssertEqual(roster.expire(to: 30).map { ObjectIdentifier($0) }, [ObjectIdentifier(current)])
        XCTAssertEqual(roster.lastSent, 30)
        XCTAssertEqual(roster.deliver(batch(from: 30, 31...31)).map { ObjectIdentifier($0.sink) }, [ObjectIdentifier(current)])
    }
}
