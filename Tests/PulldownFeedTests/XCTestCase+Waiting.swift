import Foundation
import XCTest

extension XCTestCase {
    /// Waits for a condition on something that sends no event, another process's state (a
    /// PostgreSQL server letting go of a lock, rows another instance wrote): checked every 20 ms
    /// until it holds, a failure after `timeout`.
    func waitFor(_ what: String, timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("timed out: \(what)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
