import Foundation
@testable import PulldownHTTP
import PulldownTesting
import Synchronization
import XCTest
@testable import PulldownApp
@testable import PulldownFeed

/// Profiles while the server runs: which requests they apply to, the bound, the events, and
/// the offline timer, on a clock the test moves.
final class NetworkProfilesTests: XCTestCase {
    private var tokens: SessionTokens!
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_796_000_000))
    private let told = Told()
    private var profiles: NetworkProfiles!

    /// The events told, and an expectation the next one fulfils.
    private final class Told: @unchecked Sendable {
        // @unchecked: XCTestExpectation is thread-safe but not marked Sendable.
        let events = Mutex<[String]>([])
        let next = Mutex<XCTestExpectation?>(nil)

        func add(_ json: [UInt8]) {
            events.withLock { $0.append(String(decoding: json, as: UTF8.self)) }
            next.withLock { $0?.fulfill(); $0 = nil }
        }
    }

    override func setUpWithError() throws {
        tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        profiles = NetworkProfiles(tokens: tokens, clock: clock, changed: told.add)
    }

    private func request(_ path: String, token: String?, cookie: Bool = false) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let token {
            cookie ? headers.add("Cookie", "a=b; pulldown_session=\(token)") : headers.add("X-Session-Id", token)
        }
        return HTTPRequest(method: "GET", rawTarget: path, headers: headers)!
    }

    private func put(_ json: String) throws -> NetworkProfile {
        let request = HTTPRequest(method: "PUT", rawTarget: "/api/demo/profile",
                                  headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(json.utf8))!
        return try NetworkProfile(JSONBody(request, emptyAllowed: false), now: clock.now())
    }

    func testAProfileAppliesToItsSessionByHeaderOrCookieButNotToTheDemosOwnPaths() throws {
        let session = tokens.issue()
        _ = try profiles.set(put(#"{"preset": "3g"}"#), for: session.id)
        XCTAssertEqual(profiles.session(of: request("/api/items", token: session.token))?.profile?.preset, "3g")
        XCTAssertEqual(profiles.session(of: request("/media/demo/image-1.png", token: session.token, cookie: true))?.profile?.preset, "3g")
        for path in ["/api/demo", "/api/demo/profile", "/demo/panel.js", "/trust", "/trust/pulldown-ca.pem"] {
            let found = profiles.session(of: request(path, token: session.token))
            XCTAssertEqual(found?.id, session.id, path)
            XCTAssertNil(found?.profile, path)
        }
        XCTAssertNil(profiles.session(of: request("/api/items", token: nil)))
        XCTAssertNil(profiles.session(of: request("/api/items", token: tokens.issue().token))?.profile, "another session: none")
    }

    func testAForgedTokenForAClientWithAProfileGetsNeitherTheSessionNorItsProfile() throws {
        let session = tokens.issue()
        _ = try profiles.set(put(#"{"preset": "3g"}"#), for: session.id)
        let forged = session.id.hex + String(repeating: "0", count: 32)
        XCTAssertNil(profiles.session(of: request("/api/items", token: forged)))
        XCTAssertNotNil(profiles.session(of: request("/api/items", token: session.token)))
        XCTAssertNil(profiles.session(of: request("/api/items", token: forged)), "not once the real one is known either")
    }

    func testAClientIsNamedByItsIdOnceSeenOrByItsToken() throws {
        let session = tokens.issue()
        XCTAssertThrowsError(try profiles.client(named: session.id.hex)) { XCTAssertEqual(($0 as? Problem)?.status, 404) }
        XCTAssertEqual(try profiles.client(named: session.token), session.id)
        XCTAssertThrowsError(try profiles.client(named: session.id.hex + String(repeating: "0", count: 32))) {
            XCTAssertEqual(($0 as? Problem)?.status, 404, "a token this server did not sign names no one")
        }
        _ = profiles.session(of: request("/", token: session.token))
        XCTAssertEqual(try profiles.client(named: session.id.hex), session.id)
        XCTAssertThrowsError(try profiles.client(named: "phone")) {
            XCTAssertEqual(($0 as? Problem)?.invalidParams.map(\.name), ["client"])
        }
        XCTAssertEqual(profiles.clients().map(\.id), [session.id])
    }

    func testEveryChangeIsToldInOrderAndNoneTakesTheProfileOff() throws {
        let session = tokens.issue()
        _ = try profiles.set(put(#"{"preset": "3g"}"#), for: session.id)
        let cleared = try profiles.set(put(#"{"preset": "none"}"#), for: session.id)
        XCTAssertNil(cleared.profile)
        let told = self.told.events.withLock { $0 }
        XCTAssertEqual(told.count, 2)
        XCTAssertTrue(told[0].hasPrefix(#"{"client":"\#(session.id.hex)","lastSeen":null,"profile":{"preset":"3g","#), told[0])
        XCTAssertEqual(told[1], #"{"client":"\#(session.id.hex)","lastSeen":null,"profile":null}"#)
    }

    func testGoingOfflineClosesTheClientsOpenStreamsAndNoOneElses() throws {
        let (offline, other) = (tokens.issue(), tokens.issue())
        let (mine, theirs) = (ResponseStream(), ResponseStream())
        profiles.opened(mine, by: offline.id, profile: nil)
        profiles.opened(theirs, by: other.id, profile: nil)
        _ = try profiles.set(put(#"{"preset": "3g"}"#), for: offline.id)
        XCTAssertFalse(mine.isClosed, "slow is not offline")
        _ = try profiles.set(put(#"{"preset": "offline-10s"}"#), for: offline.id)
        XCTAssertTrue(mine.isClosed)
        XCTAssertFalse(theirs.isClosed)
    }

    func testPastTheBoundANewProfileIsA409() throws {
        for _ in 0..<ClientProfiles.maxProfiles { _ = try profiles.set(put(#"{"latencyMs": 1}"#), for: tokens.issue().id) }
        XCTAssertThrowsError(try profiles.set(put(#"{"latencyMs": 1}"#), for: tokens.issue().id)) {
            XCTAssertEqual(($0 as? Problem)?.status, 409)
        }
    }

    func testOfflineAnswers503UntilTheClockReachesItsEndThenTheEndIsTold() throws {
        let session = tokens.issue()
        _ = try profiles.set(put(#"{"offlineFor": 0.05}"#), for: session.id)
        let throttled = ProfileThrottle(profiles: profiles).wrap { _, responder in responder.send(.text("answered")) }
        func answer() -> HTTPResponse {
            let sent = Mutex<HTTPResponse?>(nil)
            throttled(request("/api/items", token: session.token), Responder { response in sent.withLock { $0 = response } })
            return sent.withLock { $0 }!
        }
        let refused = answer()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.headers["Retry-After"], "1")
        XCTAssertTrue(String(decoding: refused.body, as: UTF8.self).contains("tag:pulldown,2026:offline"))
        // The timer rings on Dispatch's time, and finds the end only once this clock is there.
        let told = expectation(description: "the end of the offline time is told")
        self.told.next.withLock { $0 = told }
        clock.advance(by: 0.049)
        XCTAssertEqual(answer().status, 503)
        clock.advance(by: 0.001)
        XCTAssertEqual(answer().status, 200, "back exactly when the offline time ends")
        wait(for: [told], timeout: 10)
        XCTAssertEqual(self.told.events.withLock { $0.count }, 2)
        XCTAssertTrue(self.told.events.withLock { $0.last! }.hasSuffix(#""profile":null}"#))
    }
}
