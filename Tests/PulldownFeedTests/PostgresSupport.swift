import Foundation
import XCTest
@testable import PulldownFeed

/// PostgreSQL for the tests: PULLDOWN_TEST_POSTGRES_URL names a database on a server where the
/// user may create databases (scripts/postgres.sh starts one). Every store a test asks for gets a
/// database of its own, dropped when the test ends.
struct PostgresBackend: StoreBackend {
    static var url: String? {
        ProcessInfo.processInfo.environment["PULLDOWN_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func skipUnlessConfigured() throws {
        try XCTSkipIf(url == nil, "PULLDOWN_TEST_POSTGRES_URL is not set (make test starts a PostgreSQL for it)")
    }

    /// `url` with its database name replaced.
    static func url(database: String) -> String {
        let base = url!
        let scheme = base.range(of: "://")!
        let rest = base[scheme.upperBound...]
        let pathStart = rest.firstIndex(of: "/") ?? rest.firstIndex(of: "?") ?? rest.endIndex
        let queryStart = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        return String(base[..<pathStart]) + "/" + database + String(rest[queryStart...])
    }

    /// Runs `sql` on the database PULLDOWN_TEST_POSTGRES_URL names (CREATE / DROP DATABASE).
    static func administer(_ sql: String) throws {
        let connection = try PGConnection(settings: PGSettings(url: url!, defaultPoolSize: 1))
        try connection.execute(sql)
    }

    /// A new empty database, dropped (connections and all) when `test` ends; returns its URL.
    static func makeDatabase(_ test: XCTestCase) throws -> String {
        try skipUnlessConfigured()
        let name = "pulldown_test_" + SessionID.random().hex.prefix(16)
        try administer("CREATE DATABASE \(name)")
        test.addTeardownBlock {
            try? PostgresBackend.administer("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
        return url(database: name)
    }

    func makeStore(_ test: XCTestCase) throws -> any FeedStore {
        try PostgresStore(url: Self.makeDatabase(test), poolSize: 4)
    }

    func makeLocation(_ test: XCTestCase) throws -> @Sendable () throws -> any FeedStore {
        let url = try Self.makeDatabase(test)
        return { try PostgresStore(url: url, poolSize: 4) }
    }

    func execute(_ sql: String, on store: any FeedStore) throws {
        try (store as! PostgresStore).execute(sql)
    }

    func integer(_ sql: String, on store: any FeedStore) throws -> Int64 {
        try (store as! PostgresStore).pool.withConnection { try $0.query(sql).int64(0, 0) }
    }

    func breakSessionWrites(on store: any FeedStore) throws {
        try execute("""
            CREATE FUNCTION fail_session_write() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$;
            CREATE TRIGGER fail_session_write BEFORE INSERT OR UPDATE ON sessions
                FOR EACH ROW EXECUTE FUNCTION fail_session_write();
            """, on: store)
    }

    func repairSessionWrites(on store: any FeedStore) throws {
        try execute("DROP TRIGGER fail_session_write ON sessions; DROP FUNCTION fail_session_write()", on: store)
    }
}
