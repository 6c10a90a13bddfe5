import Foundation
import Synchronization
import XCTest
@testable import PulldownFeed

class SessionTokenTests: FeedStoreTestCase {
    func testIssuedTokenVerifiesToItsID() throws {
        let tokens = try SessionTokens(store: makeStore())
        let (id, token) = tokens.issue()
        XCTAssertEqual(token.count, 64)
        XCTAssertTrue(token.allSatisfy { "0123456789abcdef".contains($0) })
        XCTAssertTrue(token.hasPrefix(id.hex))
        XCTAssertEqual(tokens.verify(token), id)
        XCTAssertNotEqual(tokens.issue().id, id)
    }

    func testTamperedShortLongUppercaseAndGarbageTokensAreRejected() throws {
        let tokens = try SessionTokens(store: makeStore())
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

    func testTheIdATokenClaimsIsReadWithoutCheckingItsSignature() throws {
        let tokens = try SessionTokens(store: makeStore())
        let issued = tokens.issue()
        XCTAssertEqual(SessionTokens.claimedID(issued.token), issued.id)
        let forged = issued.id.hex + String(repeating: "0", count: 32)
        XCTAssertEqual(SessionTokens.claimedID(forged), issued.id, "claimed, not proven: verify says no")
        XCTAssertNil(tokens.verify(forged))
        for bad in [String(issued.token.dropLast()), issued.token.uppercased(), "g" + issued.token.dropFirst(), ""] {
            XCTAssertNil(SessionTokens.claimedID(bad), bad)
        }
        XCTAssertEqual(SessionID(hex: issued.id.hex), issued.id)
        XCTAssertNil(SessionID(hex: issued.id.hex.uppercased()))
        XCTAssertNil(SessionID(hex: String(issued.id.hex.dropLast())))
    }

    func testTokensFromAnotherSecretAreRejected() throws {
        let ours = try SessionTokens(store: makeStore())
        let theirs = try SessionTokens(store: makeStore())
        XCTAssertNil(ours.verify(theirs.issue().token))
    }

    func testTokensSurviveReopeningTheStore() throws {
        let open = try backend.makeLocation(self)
        let (id, token) = try SessionTokens(store: open()).issue()
        let reopened = try SessionTokens(store: open())
        XCTAssertEqual(reopened.verify(token), id)
    }

    func testInstancesStartingAtOnceOnOneDatabaseShareOneSecret() throws {
        // Several rounds on new databases: opening one while another process creates it (the
        // switch to WAL, the schema, the secret) must wait and succeed, never fail as locked.
        for round in 0..<8 {
            let open = try backend.makeLocation(self)
            let instances = 5
            let made = Mutex([SessionTokens?](repeating: nil, count: instances))
            let failures = Mutex([String]())
            let finished = DispatchGroup()
            let go = DispatchSemaphore(value: 0)
            for index in 0..<instances {
                finished.enter()
                // A thread each, released together, so the opens really overlap.
                Thread.detachNewThread {
                    go.wait()
                    do {
                        let tokens = try SessionTokens(store: open())
                        made.withLock { $0[index] = tokens }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    finished.leave()
                }
            }
            for _ in 0..<instances { go.signal() }
            XCTAssertEqual(finished.wait(timeout: .now() + 60), .success)
            XCTAssertEqual(failures.withLock { $0 }, [], "round \(round)")
            let all = made.withLock { $0 }.compactMap { $0 }
            XCTAssertEqual(all.count, instances)
            for issuer in all {
                let (id, token) = issuer.issue()
                for verifier in all {
                    XCTAssertEqual(verifier.verify(token), id, "a token from one instance is accepted by every other")
                }
            }
        }
    }
}
