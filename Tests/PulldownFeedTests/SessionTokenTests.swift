import Foundation
import XCTest
@testable import PulldownFeed

final class SessionTokenTests: XCTestCase {
    func testIssuedTokenVerifiesToItsID() throws {
        let tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        let (id, token) = tokens.issue()
        XCTAssertEqual(token.count, 64)
        XCTAssertTrue(token.allSatisfy { "0123456789abcdef".contains($0) })
        XCTAssertTrue(token.hasPrefix(id.hex))
        XCTAssertEqual(tokens.verify(token), id)
        XCTAssertNotEqual(tokens.issue().id, id)
    }

    func testTamperedShortLongUppercaseAndGarbageTokensAreRejected() throws {
        let tokens = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        let token = tokens.issue().token
        var rejected = [
            String(token.dropLast()),
            token + "0",
            token.uppercased(),
            "",
            String(repeating: "z", count: 64),
            String(repeating: "0", count: 64),
            " " + token.dropFirst(),
            String(token.dropLast(2)) + "é",
        ]
        // Flip one hex digit in the id part and in the signature part.
        for position in [0, 31, 32, 63] {
            var chars = Array(token)
            chars[position] = chars[position] == "0" ? "1" : "0"
            rejected.append(String(chars))
        }
        for candidate in rejected {
            XCTAssertNil(tokens.verify(candidate), "accepted \(candidate.debugDescription)")
        }
    }

    func testTokensFromAnotherSecretAreRejected() throws {
        let ours = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        let theirs = try SessionTokens(store: SQLiteStore(path: ":memory:"))
        XCTAssertNil(ours.verify(theirs.issue().token))
    }

    func testTokensSurviveReopeningTheStore() throws {
        let path = try makeTemporaryFolder(self).appendingPathComponent("feed.sqlite").path
        let (id, token) = try SessionTokens(store: SQLiteStore(path: path)).issue()
        let reopened = try SessionTokens(store: SQLiteStore(path: path))
        XCTAssertEqual(reopened.verify(token), id)
    }
}
