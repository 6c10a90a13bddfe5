import XCTest
@testable import PulldownApp

final class ConfigurationParserTests: XCTestCase {
    /// The message of the usage error `parse` throws, or a failure when it throws none.
    private func usageError(_ arguments: [String], environment: [String: String] = [:],
                            file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try ConfigurationParser.parse(arguments, environment: environment)
            XCTFail("expected a usage error for \(arguments) \(environment)", file: file, line: line)
            return ""
        } catch {
            return error.description
        }
    }

    func testNoArgumentsGiveTheDocumentedDefaults() throws {
        let config = try ConfigurationParser.parse([])
        XCTAssertEqual(config.server.host, "127.0.0.1")
        XCTAssertEqual(config.server.port, 8080)
        XCTAssertEqual(config.databasePath, "pulldown.sqlite")
        XCTAssertEqual(config.publicFolder, "Public")
        XCTAssertEqual(config.seedCount, 50)
        XCTAssertEqual(config.pageSize, 10)
        XCTAssertEqual(config.demo.newItemsEvery, 5)
        XCTAssertEqual(config.feed.sessionTTL, 30 * 86_400)
        XCTAssertEqual(config.demo.delayMilliseconds, 0)
        XCTAssertEqual(config.demo.jitterMilliseconds, 0)
        XCTAssertEqual(config.demo.failRate, 0)
        XCTAssertEqual(config.corsOrigins, [])
        XCTAssertTrue(config.server.accessLog)
        XCTAssertFalse(config.showHelp)
    }

    func testFlagsWithSeparateValuesSetEveryOption() throws {
        let config = try ConfigurationParser.parse([
            "--host", "0.0.0.0", "--port", "0", "--db", ":memory:", "--public", "www", "--seed", "0",
            "--page-size", "25", "--new-items-every", "1.5", "--session-ttl-days", "7", "--delay-ms", "1000",
            "--jitter-ms", "200", "--fail-rate", "0.25", "--cors-origin", "http://localhost:3000",
            "--threads", "3", "--connection-timeout", "30", "--connection-limit", "100", "--quiet",
        ])
        XCTAssertEqual(config.server.host, "0.0.0.0")
        XCTAssertEqual(config.server.port, 0)
        XCTAssertEqual(config.databasePath, ":memory:")
        XCTAssertEqual(config.publicFolder, "www")
        XCTAssertEqual(config.seedCount, 0)
        XCTAssertEqual(config.pageSize, 25)
        XCTAssertEqual(config.demo.newItemsEvery, 1.5)
        XCTAssertEqual(config.feed.sessionTTL, 7 * 86_400)
        XCTAssertEqual(config.demo.delayMilliseconds, 1000)
        XCTAssertEqual(config.demo.jitterMilliseconds, 200)
        XCTAssertEqual(config.demo.failRate, 0.25)
        XCTAssertEqual(config.corsOrigins, ["http://localhost:3000"])
        XCTAssertEqual(config.server.threads, 3)
        XCTAssertEqual(config.server.connectionTimeout, 30)
        XCTAssertEqual(config.server.connectionLimit, 100)
        XCTAssertFalse(config.server.accessLog)
    }

    func testFlagEqualsValueIsTheSameAsASeparateValue() throws {
        let config = try ConfigurationParser.parse(["--page-size=7", "--db=/tmp/a=b.sqlite", "--quiet=false"])
        XCTAssertEqual(config.pageSize, 7)
        XCTAssertEqual(config.databasePath, "/tmp/a=b.sqlite")
        XCTAssertTrue(config.server.accessLog)
    }

    func testCorsOriginIsRepeatable() throws {
        let config = try ConfigurationParser.parse(["--cors-origin", "http://a.test", "--cors-origin=https://b.test:8443"])
        XCTAssertEqual(config.corsOrigins, ["http://a.test", "https://b.test:8443"])
    }

    func testThePublicURLIsAnOriginFromTheFlagOrTheEnvironment() throws {
        XCTAssertNil(try ConfigurationParser.parse([]).publicURL)
        XCTAssertEqual(try ConfigurationParser.parse(["--public-url", "https://Feed.example/"]).publicURL, "https://feed.example")
        XCTAssertEqual(try ConfigurationParser.parse([], environment: ["PULLDOWN_PUBLIC_URL": "http://10.0.0.5:8080"]).publicURL,
                       "http://10.0.0.5:8080")
        XCTAssertEqual(usageError(["--public-url", "https://feed.example/app"]),
                       "--public-url needs http(s)://HOST[:PORT] without a path, not https://feed.example/app")
    }

    func testEnvironmentVariablesSetOptions() throws {
        let config = try ConfigurationParser.parse([], environment: [
            "PULLDOWN_PORT": "9000", "PULLDOWN_DB": "x.sqlite", "PULLDOWN_PAGE_SIZE": "5",
            "PULLDOWN_FAIL_RATE": "1", "PULLDOWN_CORS_ORIGIN": "http://a.test, http://b.test",
            "PULLDOWN_QUIET": "1", "UNRELATED": "--nonsense",
        ])
        XCTAssertEqual(config.server.port, 9000)
        XCTAssertEqual(config.databasePath, "x.sqlite")
        XCTAssertEqual(config.pageSize, 5)
        XCTAssertEqual(config.demo.failRate, 1)
        XCTAssertEqual(config.corsOrigins, ["http://a.test", "http://b.test"])
        XCTAssertFalse(config.server.accessLog)
    }

    func testAFlagBeatsItsEnvironmentVariable() throws {
        let config = try ConfigurationParser.parse(["--page-size", "8", "--port=1234"],
                                                   environment: ["PULLDOWN_PAGE_SIZE": "5", "PULLDOWN_PORT": "9000"])
        XCTAssertEqual(config.pageSize, 8)
        XCTAssertEqual(config.server.port, 1234)
    }

    func testHelpIsAFlagAndDashH() throws {
        XCTAssertTrue(try ConfigurationParser.parse(["--help"]).showHelp)
        XCTAssertTrue(try ConfigurationParser.parse(["-h"]).showHelp)
    }

    func testHelpTextNamesEveryFlagAndItsVariable() {
        let help = ConfigurationParser.helpText
        for option in ConfigurationParser.options {
            XCTAssertTrue(help.contains(option.flag), option.flag)
            if !option.variable.isEmpty { XCTAssertTrue(help.contains("[\(option.variable)]"), option.variable) }
        }
    }

    func testAnUnknownOptionIsNamed() {
        XCTAssertEqual(usageError(["--colour", "red"]), "unknown option --colour (see --help)")
        XCTAssertEqual(usageError(["--page-sizes=3"]), "unknown option --page-sizes=3 (see --help)")
    }

    func testAMissingValueSaysWhatItNeeds() {
        XCTAssertEqual(usageError(["--port"]), "--port needs a value: --port PORT")
        XCTAssertEqual(usageError(["--quiet", "--db"]), "--db needs a value: --db PATH")
    }

    func testBadNumbersSayTheRangeAndTheValue() {
        XCTAssertEqual(usageError(["--page-size", "0"]), #"--page-size needs a whole number from 1 to 100, not "0""#)
        XCTAssertEqual(usageError(["--page-size", "101"]), #"--page-size needs a whole number from 1 to 100, not "101""#)
        XCTAssertEqual(usageError(["--port", "65536"]), #"--port needs a whole number from 0 to 65535, not "65536""#)
        XCTAssertEqual(usageError(["--seed", "ten"]), #"--seed needs a whole number from 0 to 10000000, not "ten""#)
        XCTAssertEqual(usageError(["--fail-rate", "1.5"]), #"--fail-rate needs a number from 0 to 1, not "1.5""#)
        XCTAssertEqual(usageError(["--fail-rate", "nan"]), #"--fail-rate needs a number from 0 to 1, not "nan""#)
        XCTAssertEqual(usageError(["--new-items-every", "-1"]),
                       #"--new-items-every needs a number from 0 to 86400, not "-1""#)
        XCTAssertTrue(usageError(["--quiet=maybe"]).hasPrefix("--quiet takes no value, or true/false"))
    }

    func testBadCorsOriginsAreRefusedWithAReason() {
        XCTAssertTrue(usageError(["--cors-origin", "*"]).contains("name each origin"))
        XCTAssertTrue(usageError(["--cors-origin", "localhost:3000"]).contains("http://localhost:3000"))
        XCTAssertTrue(usageError(["--cors-origin", "http://a.test/"]).contains("not http://a.test/"))
    }

    func testABadEnvironmentValueNamesTheVariable() {
        XCTAssertEqual(usageError([], environment: ["PULLDOWN_PAGE_SIZE": "abc"]),
                       #"PULLDOWN_PAGE_SIZE: --page-size needs a whole number from 1 to 100, not "abc""#)
    }

    func testAFlagDoesNotRescueABadVariable() {
        // The variable is read first and is wrong on its own; the user should hear about it.
        XCTAssertTrue(usageError(["--page-size", "5"], environment: ["PULLDOWN_PAGE_SIZE": "0"])
            .hasPrefix("PULLDOWN_PAGE_SIZE:"))
    }

    func testASeedCountsAsGivenFromTheFlagOrTheVariableOnly() throws {
        XCTAssertFalse(try ConfigurationParser.parse([]).seedGiven, "the default is no seed given")
        XCTAssertTrue(try ConfigurationParser.parse(["--seed", "50"]).seedGiven)
        XCTAssertTrue(try ConfigurationParser.parse([], environment: ["PULLDOWN_SEED": "7"]).seedGiven)
    }

    func testACollectionIsOfADataFile() throws {
        XCTAssertEqual(try ConfigurationParser.parse(["--data", "db.json", "--collection", "posts"]).dataCollection, "posts")
        XCTAssertEqual(usageError(["--collection", "posts"]), "--collection needs --data FILE")
        XCTAssertEqual(usageError(["--data", "db.json", "--collection", ""]), "--collection needs a member name")
    }
}
