import XCTest
@testable import PulldownApp

/// A kept answer is given back only at the stamp it was built at, and never replaced by an older one.
final class RevisionCacheTests: XCTestCase {
    func testAValueIsGivenBackOnlyAtItsOwnStamp() {
        let cache = RevisionCache<Int, UInt64, String>()
        cache.keep("at 3", for: 10, at: 3)
        XCTAssertEqual(cache.value(for: 10, at: 3), "at 3")
        XCTAssertNil(cache.value(for: 10, at: 4), "the revision moved: stale")
        XCTAssertNil(cache.value(for: 20, at: 3), "another key")
    }

    func testAnOlderBuildDoesNotReplaceANewerOne() {
        let cache = RevisionCache<Int, UInt64, String>()
        cache.keep("at 5", for: 10, at: 5)
        cache.keep("at 4", for: 10, at: 4)   // a slower request that read the revision earlier
        XCTAssertEqual(cache.value(for: 10, at: 5), "at 5")
        cache.keep("at 6", for: 10, at: 6)
        XCTAssertEqual(cache.value(for: 10, at: 6), "at 6")
    }

    func testBuildRunsOnlyWhenNothingCurrentIsKept() throws {
        let cache = RevisionCache<Int, UInt64, Int>()
        var builds = 0
        func value(at stamp: UInt64) -> Int { cache.value(for: 1, at: stamp) { builds += 1; return builds } }
        XCTAssertEqual(value(at: 1), 1)
        XCTAssertEqual(value(at: 1), 1)
        XCTAssertEqual(value(at: 2), 2)
        XCTAssertEqual(builds, 2)
        struct Failed: Error {}
        XCTAssertThrowsError(try cache.value(for: 1, at: 3) { throw Failed() })
        XCTAssertEqual(cache.value(for: 1, at: 2), 2, "a failed build keeps nothing")
    }

    /// The last value given is compared before any hashing: it must still be the one for its key and stamp.
    func testTheLastValueGivenIsOnlyGivenForItsOwnKeyAndStamp() {
        let cache = RevisionCache<String, UInt64, String>()
        cache.keep("a at 1", for: "a", at: 1)
        cache.keep("b at 1", for: "b", at: 1)
        XCTAssertEqual(cache.value(for: "a", at: 1), "a at 1")
        XCTAssertEqual(cache.value(for: "b", at: 1), "b at 1", "another key after it")
        XCTAssertNil(cache.value(for: "b", at: 2), "another stamp")
        cache.keep("b at 2", for: "b", at: 2)
        XCTAssertEqual(cache.value(for: "b", at: 2), "b at 2")
        XCTAssertNil(cache.value(for: "b", at: 1), "replaced by the newer build")
    }

    /// Keys come from requests (a Host header): however many arrive, what is kept stays within its budget.
    func testManyKeysKeepOnlyTheMostRecentlyUsedWithinTheBudget() {
        let cache = RevisionCache<String, UInt64, [UInt8]>(budget: 10_000, cost: { $0.count })
        cache.keep(Array(repeating: 1, count: 1_000), for: "http://kept", at: 1)
        for host in 0..<1_000 {
            cache.keep(Array(repeating: 0, count: 1_000), for: "http://host-\(host)", at: 1)
            _ = cache.value(for: "http://kept", at: 1)   // in use all along
        }
        XCTAssertLessThanOrEqual(cache.count, 10)
        XCTAssertEqual(cache.value(for: "http://kept", at: 1)?.first, 1, "the one in use stays")
        XCTAssertNil(cache.value(for: "http://host-0", at: 1))
        XCTAssertNotNil(cache.value(for: "http://host-999", at: 1))
    }
}
