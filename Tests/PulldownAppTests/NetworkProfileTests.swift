import Foundation
@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

/// A profile read from `PUT …/profile` bodies, and what it means at a given time.
final class NetworkProfileTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_796_000_000)

    private func profile(_ json: String) throws(Problem) -> NetworkProfile {
        let request = HTTPRequest(method: "PUT", rawTarget: "/api/demo/profile",
                                  headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(json.utf8))!
        return try NetworkProfile(JSONBody(request, emptyAllowed: false), now: now)
    }

    private func refusedFields(_ json: String) -> [String] {
        do {
            _ = try profile(json)
            XCTFail("\(json) was taken")
            return []
        } catch {
            XCTAssertEqual(error.status, 400)
            return error.invalidParams.map(\.name)
        }
    }

    func testAPresetByNameIsThatPreset() throws {
        let slow = try profile(#"{"preset": "3g"}"#)
        XCTAssertEqual(slow, NetworkProfile.preset(named: "3g"))
        XCTAssertEqual(slow.preset, "3g")
        XCTAssertEqual(slow.pacing, Pacing(bytesPerSecond: 50_000))
        XCTAssertEqual(NetworkProfile.presetNames, ["none", "3g", "flaky-wifi", "offline-10s"])
    }

    func testValuesChangeThePresetAndMakeItCustom() throws {
        let changed = try profile(#"{"preset": "3g", "latencyMs": 800}"#)
        XCTAssertEqual(changed.preset, "custom")
        XCTAssertEqual(changed.latencyMilliseconds, 800)
        XCTAssertEqual(changed.bytesPerSecond, 50_000, "the rest is the preset's")
        let plain = try profile(#"{"bytesPerSecond": 1000, "stallMs": 300, "stallAfter": 0.25}"#)
        XCTAssertEqual(plain.latencyMilliseconds, 0)
        XCTAssertEqual(plain.pacing, Pacing(bytesPerSecond: 1_000, stall: .milliseconds(300), stallAfter: 0.25))
    }

    func testOfflineCountsFromNowAndEndsExactlyThen() throws {
        let offline = try profile(#"{"preset": "offline-10s"}"#)
        XCTAssertEqual(offline.offlineUntil, now.addingTimeInterval(10))
        XCTAssertTrue(offline.isOffline(at: now.addingTimeInterval(9.999)))
        XCTAssertFalse(offline.isOffline(at: now.addingTimeInterval(10)))
        XCTAssertNil(offline.afterOffline(at: now.addingTimeInterval(10)), "nothing else in it: no profile left")
        let slowAfterwards = try profile(#"{"preset": "3g", "offlineFor": 2.5}"#)
        XCTAssertEqual(slowAfterwards.afterOffline(at: now.addingTimeInterval(3))?.bytesPerSecond, 50_000)
        XCTAssertNil(slowAfterwards.afterOffline(at: now.addingTimeInterval(3))?.offlineUntil)
    }

    func testNoneAndAnEmptyObjectAreNoProfile() throws {
        XCTAssertTrue(try profile(#"{"preset": "none"}"#).isNone(at: now))
        XCTAssertTrue(try profile("{}").isNone(at: now))
        XCTAssertFalse(try profile(#"{"dropStreamsEvery": 5}"#).isNone(at: now))
    }

    func testEveryBadOrUnknownFieldIsNamed() {
        XCTAssertEqual(refusedFields(#"{"preset": "4g"}"#), ["preset"])
        XCTAssertEqual(refusedFields(#"{"latencyMs": -1, "jitterMs": 60001, "bytesPerSecond": 1.5}"#),
                       ["latencyMs", "jitterMs", "bytesPerSecond"])
        XCTAssertEqual(refusedFields(#"{"stallAfter": 2, "dropStreamsEvery": -1, "offlineFor": 3601, "stallMs": "x"}"#),
                       ["stallMs", "stallAfter", "dropStreamsEvery", "offlineFor"])
        XCTAssertEqual(refusedFields(#"{"latency": 100, "preset": 3}"#), ["latency", "preset"])
    }

    func testTheHeadDelayIsTheLatencyPlusAtMostTheJitter() {
        let profile = NetworkProfile(latencyMilliseconds: 400, jitterMilliseconds: 100)
        let delays = (0..<200).map { _ in profile.headDelayMilliseconds() }
        XCTAssertTrue(delays.allSatisfy { (400...500).contains($0) })
        XCTAssertGreaterThan(Set(delays).count, 1)
    }

    func testTheJSONNamesEveryValue() {
        var json = JSONWriter()
        NetworkProfile(preset: "offline-10s", offlineFor: 10, offlineUntil: now.addingTimeInterval(10.5)).write(to: &json)
        XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self),
                       #"{"preset":"offline-10s","latencyMs":0,"jitterMs":0,"bytesPerSecond":0,"stallMs":0,"stallAfter":0.5,"#
                       + #""dropStreamsEvery":0,"offlineFor":10,"offlineUntil":"2026-11-30T00:53:30.500Z"}"#)
    }
}
