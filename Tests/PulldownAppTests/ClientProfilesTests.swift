import Foundation
import XCTest
@testable import PulldownApp
@testable import PulldownFeed

/// The clients seen and their profiles, with time as a number the test moves.
final class ClientProfilesTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_796_000_000)
    private let slow = NetworkProfile.preset(named: "3g")!

    private func id(_ number: Int) -> SessionID {
        SessionID(high: 0, low: UInt64(number))
    }

    private func token(_ number: Int) -> String {
        id(number).hex + String(repeating: "0", count: 32)
    }

    private func at(_ seconds: TimeInterval) -> Date {
        start.addingTimeInterval(seconds)
    }

    func testASessionIsUnknownUntilRecordedThenKnownWithItsProfile() throws {
        var clients = ClientProfiles(now: start)
        XCTAssertEqual(clients.arrived(token: token(1), id: id(1), now: start), .unknown(nil, canRecord: true))
        clients.record(token: token(1), id: id(1), now: start)
        XCTAssertEqual(clients.arrived(token: token(1), id: id(1), now: at(1)), .known(nil))
        try clients.set(slow, for: id(1))
        XCTAssertEqual(clients.arrived(token: token(1), id: id(1), now: at(2)), .known(slow))
        XCTAssertEqual(clients.lastSeen(id(1)), at(2))
    }

    func testAnotherTokenForTheSameIdIsNotTheKnownSession() throws {
        var clients = ClientProfiles(now: start)
        clients.record(token: token(1), id: id(1), now: start)
        try clients.set(slow, for: id(1))
        let forged = id(1).hex + String(repeating: "f", count: 32)
        XCTAssertEqual(clients.arrived(token: forged, id: id(1), now: at(1)), .unknown(slow, canRecord: true),
                       "its profile is named, for the caller to verify the token before applying it")
    }

    func testAtMostAThousandClientsHaveAProfile() throws {
        var clients = ClientProfiles(now: start)
        for number in 0..<ClientProfiles.maxProfiles { try clients.set(slow, for: id(number)) }
        XCTAssertThrowsError(try clients.set(slow, for: id(5_000)))
        try clients.set(NetworkProfile.preset(named: "flaky-wifi"), for: id(7))
        XCTAssertNoThrow(try clients.set(slow, for: id(7)), "changing one that has a profile is always allowed")
        try clients.set(nil, for: id(7))
        XCTAssertNoThrow(try clients.set(slow, for: id(5_000)), "room again once one is taken off")
    }

    func testTheSessionsSeenAreBoundedAndForgottenAfterTwoWindows() {
        var clients = ClientProfiles(now: start)
        for number in 0..<ClientProfiles.maxSeen { clients.record(token: token(number), id: id(number), now: start) }
        XCTAssertEqual(clients.arrived(token: token(9_999), id: id(9_999), now: start), .unknown(nil, canRecord: false))
        clients.record(token: token(9_999), id: id(9_999), now: start)
        XCTAssertFalse(clients.wasSeen(id(9_999)))
        // One window on, the older generation still counts; two windows on, it is gone.
        XCTAssertEqual(clients.arrived(token: token(3), id: id(3), now: at(ClientProfiles.seenWindow)), .known(nil))
        XCTAssertTrue(clients.wasSeen(id(4)))
        XCTAssertEqual(clients.clients(now: at(2 * ClientProfiles.seenWindow)).map(\.id), [id(3)])
        XCTAssertEqual(clients.clients(now: at(4 * ClientProfiles.seenWindow)).map(\.id), [])
    }

    func testTheListHasTheLastSeenFirstAndEveryClientWithAProfile() throws {
        var clients = ClientProfiles(now: start)
        clients.record(token: token(1), id: id(1), now: at(1))
        clients.record(token: token(2), id: id(2), now: at(5))
        try clients.set(slow, for: id(3))
        XCTAssertEqual(clients.clients(now: at(6)), [
            .init(id: id(2), lastSeen: at(5), profile: nil),
            .init(id: id(1), lastSeen: at(1), profile: nil),
            .init(id: id(3), lastSeen: nil, profile: slow),
        ])
    }

    func testOfflineTimesEndWhenTheirTimeIsOverAndLeaveTheRestOfTheProfile() throws {
        var clients = ClientProfiles(now: start)
        var offline = NetworkProfile.preset(named: "offline-10s")!
        offline.offlineUntil = at(10)
        var slowThenOffline = slow
        slowThenOffline.offlineFor = 4
        slowThenOffline.offlineUntil = at(4)
        try clients.set(offline, for: id(1))
        try clients.set(slowThenOffline, for: id(2))
        XCTAssertEqual(clients.nextOfflineEnd, at(4))
        XCTAssertTrue(clients.endOffline(now: at(3.999)).isEmpty)
        let first = clients.endOffline(now: at(4))
        XCTAssertEqual(first.map(\.0), [id(2)])
        XCTAssertEqual(first.first?.1?.bytesPerSecond, 50_000)
        XCTAssertNil(first.first?.1?.offlineUntil)
        XCTAssertEqual(clients.nextOfflineEnd, at(10))
        let second = clients.endOffline(now: at(10))
        XCTAssertEqual(second.map(\.0), [id(1)])
        XCTAssertNil(second.first?.1, "offline only: no profile left")
        XCTAssertNil(clients.profiles[id(1)])
        XCTAssertNil(clients.nextOfflineEnd)
    }
}
