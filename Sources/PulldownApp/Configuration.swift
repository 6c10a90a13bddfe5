import Foundation
import PulldownHTTP

/// Everything the command line and the environment can set, with the defaults a demo wants.
public struct Configuration: Sendable {
    public var server = ServerConfiguration()
    public var publicFolder = "Public"
    public var databasePath = "pulldown.sqlite"
    public var seedCount = 50
    public var pageSize = 10
    public var newItemsEvery: Double = 5
    public var sessionTTLDays: Double = 30
    public var delayMilliseconds = 0
    public var jitterMilliseconds = 0
    public var failRate: Double = 0
    public var corsOrigins: [String] = []
    /// Server-sent event streams open at once; they come on top of `server.connectionLimit`.
    public var maxStreams = 10_000
    public var heartbeatSeconds: Double = 15
    /// Bytes of immutable pages kept ready in memory (see `PageCaching`).
    public var pageCacheBytes = Configuration.defaultPageCacheBytes
    public var showHelp = false
    /// Whether start-up prints a QR code of the network address (listening beyond loopback only).
    public var qrCode = StartupBanner.QRCode.whenTerminal

    public init() {}

    public static let defaultPageCacheBytes = 16 << 20

    /// The largest page a client may ask for.
    public static let maxPageSize = 100
    /// The largest per-request `_delay`, so a typo cannot hold a connection for an hour.
    public static let maxRequestDelayMilliseconds = 10_000
}

/// A command line that cannot be used: the message says why, for standard error (exit code 2).
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
}

/// Reads flags and `PULLDOWN_*` environment variables into a `Configuration`; a flag wins
/// over its variable. Each option is declared once, in `options`, which also writes `--help`.
public enum ConfigurationParser {
    struct Option: Sendable {
        let flag: String
        let variable: String
        /// nil for a switch that takes no value.
        let valueName: String?
        let help: String
        let apply: @Sendable (inout Configuration, String) throws(UsageError) -> Void
    }

    static let options: [Option] = [
        Option(flag: "--host", variable: "PULLDOWN_HOST", valueName: "HOST",
               help: "address to listen on (default 127.0.0.1)") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--host needs an address") }
            config.server.host = value
        },
        Option(flag: "--port", variable: "PULLDOWN_PORT", valueName: "PORT",
               help: "port to listen on, 0 for any free one (default 8080)") { config, value throws(UsageError) in
            config.server.port = UInt16(try integer(value, flag: "--port", in: 0...65535))
        },
        Option(flag: "--public", variable: "PULLDOWN_PUBLIC", valueName: "DIR",
               help: "folder of the page's files (default ./Public)") { config, value throws(UsageError) in
            config.publicFolder = value
        },
        Option(flag: "--db", variable: "PULLDOWN_DB", valueName: "PATH",
               help: "SQLite database file, :memory:, or a postgres://user@host:port/dbname URL shared by several instances (default ./pulldown.sqlite)") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--db needs a path") }
            config.databasePath = value
        },
        Option(flag: "--seed", variable: "PULLDOWN_SEED", valueName: "N",
               help: "demo items to create when the store is empty (default 50, 0 for none)") { config, value throws(UsageError) in
            config.seedCount = try integer(value, flag: "--seed", in: 0...10_000_000)
        },
        Option(flag: "--page-size", variable: "PULLDOWN_PAGE_SIZE", valueName: "N",
               help: "items per page when a request gives no limit (default 10, 1..100)") { config, value throws(UsageError) in
            config.pageSize = try integer(value, flag: "--page-size", in: 1...Configuration.maxPageSize)
        },
        Option(flag: "--new-items-every", variable: "PULLDOWN_NEW_ITEMS_EVERY", valueName: "SECONDS",
               help: "a refresh after this long finds 1 to 3 new demo items (default 5, 0 turns it off)") { config, value throws(UsageError) in
            config.newItemsEvery = try number(value, flag: "--new-items-every", in: 0...86_400)
        },
        Option(flag: "--session-ttl-days", variable: "PULLDOWN_SESSION_TTL_DAYS", valueName: "DAYS",
               help: "forget sessions idle this long (default 30)") { config, value throws(UsageError) in
            config.sessionTTLDays = try number(value, flag: "--session-ttl-days", in: 0.001...36_500)
        },
        Option(flag: "--delay-ms", variable: "PULLDOWN_DELAY_MS", valueName: "MS",
               help: "delay every /api/ answer (default 0)") { config, value throws(UsageError) in
            config.delayMilliseconds = try integer(value, flag: "--delay-ms", in: 0...600_000)
        },
        Option(flag: "--jitter-ms", variable: "PULLDOWN_JITTER_MS", valueName: "MS",
               help: "add a random 0..MS to each delay (default 0)") { config, value throws(UsageError) in
            config.jitterMilliseconds = try integer(value, flag: "--jitter-ms", in: 0...600_000)
        },
        Option(flag: "--fail-rate", variable: "PULLDOWN_FAIL_RATE", valueName: "F",
               help: "answer this fraction of /api/ requests with 503 (0..1, default 0)") { config, value throws(UsageError) in
            config.failRate = try number(value, flag: "--fail-rate", in: 0...1)
        },
        Option(flag: "--cors-origin", variable: "PULLDOWN_CORS_ORIGIN", valueName: "ORIGIN",
               help: "allow this origin to call the API with credentials (repeatable; comma-separated in the variable)") { config, value throws(UsageError) in
            for origin in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !origin.isEmpty {
                guard origin == "*" || origin.hasPrefix("http://") || origin.hasPrefix("https://"), !origin.hasSuffix("/") else {
                    throw UsageError(description: "--cors-origin needs an origin like http://localhost:3000, not \(origin)")
                }
                guard origin != "*" else {
                    throw UsageError(description: "--cors-origin * cannot be used: the API sends credentials, so name each origin")
                }
                config.corsOrigins.append(origin)
            }
        },
        Option(flag: "--threads", variable: "PULLDOWN_THREADS", valueName: "N",
               help: "server threads (default: one per core)") { config, value throws(UsageError) in
            config.server.threads = try integer(value, flag: "--threads", in: 1...256)
        },
        Option(flag: "--connection-timeout", variable: "PULLDOWN_CONNECTION_TIMEOUT", valueName: "SECONDS",
               help: "close a connection silent this long (default 15)") { config, value throws(UsageError) in
            config.server.connectionTimeout = UInt32(try integer(value, flag: "--connection-timeout", in: 1...3600))
        },
        Option(flag: "--connection-limit", variable: "PULLDOWN_CONNECTION_LIMIT", valueName: "N",
               help: "connections open at once (default 4000)") { config, value throws(UsageError) in
            config.server.connectionLimit = UInt32(try integer(value, flag: "--connection-limit", in: 1...1_000_000))
        },
        Option(flag: "--max-streams", variable: "PULLDOWN_MAX_STREAMS", valueName: "N",
               help: "event streams (/api/events) open at once, besides --connection-limit (default 10000)") { config, value throws(UsageError) in
            config.maxStreams = try integer(value, flag: "--max-streams", in: 0...1_000_000)
        },
        Option(flag: "--heartbeat-seconds", variable: "PULLDOWN_HEARTBEAT_SECONDS", valueName: "SECONDS",
               help: "a comment on every event stream this often, so proxies keep it open (default 15)") { config, value throws(UsageError) in
            config.heartbeatSeconds = try number(value, flag: "--heartbeat-seconds", in: 0.1...3600)
        },
        Option(flag: "--page-cache-mb", variable: "PULLDOWN_PAGE_CACHE_MB", valueName: "MB",
               help: "memory for pages that can never change, kept ready to send (default 16, 0 for none)") { config, value throws(UsageError) in
            config.pageCacheBytes = try integer(value, flag: "--page-cache-mb", in: 0...65_536) << 20
        },
        Option(flag: "--quiet", variable: "PULLDOWN_QUIET", valueName: nil,
               help: "no access log") { config, value throws(UsageError) in
            config.server.accessLog = !(try boolean(value, flag: "--quiet"))
        },
        Option(flag: "--qr", variable: "PULLDOWN_QR", valueName: nil,
               help: "print the QR code of the network address even when standard output is not a terminal") { config, value throws(UsageError) in
            if try boolean(value, flag: "--qr") { config.qrCode = .always }
        },
        Option(flag: "--no-qr", variable: "PULLDOWN_NO_QR", valueName: nil,
               help: "never print the QR code of the network address") { config, value throws(UsageError) in
            if try boolean(value, flag: "--no-qr") { config.qrCode = .never }
        },
        Option(flag: "--help", variable: "", valueName: nil, help: "show this help") { config, _ throws(UsageError) in
            config.showHelp = true
        },
    ]

    /// Parses `arguments` (without the program name) over `environment`.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Configuration {
        var config = Configuration()
        for option in options where !option.variable.isEmpty {
            if let value = environment[option.variable] {
                do {
                    try option.apply(&config, value)
                } catch {
                    throw UsageError(description: "\(option.variable): \(error.description)")
                }
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let flag = String(parts[0])
            guard let option = options.first(where: { $0.flag == flag }) else {
                if flag == "-h" { config.showHelp = true; continue }
                throw UsageError(description: "unknown option \(argument) (see --help)")
            }
            if option.valueName == nil {
                try option.apply(&config, parts.count > 1 ? String(parts[1]) : "true")
                continue
            }
            if parts.count > 1 {
                try option.apply(&config, String(parts[1]))
            } else {
                guard index < arguments.count else {
                    throw UsageError(description: "\(flag) needs a value: \(flag) \(option.valueName!)")
                }
                try option.apply(&config, arguments[index])
                index += 1
            }
        }
        return config
    }

    /// The text of `--help`.
    public static var helpText: String {
        var lines = [
            "Usage: pulldown [options]",
            "",
            "A pull-to-refresh and infinite-scroll demo backend: serves the page in --public",
            "and a JSON API under /api/. Every option can also be set with the variable",
            "shown; the option wins.",
            "",
        ]
        let names = options.map { option in option.valueName.map { "\(option.flag) \($0)" } ?? option.flag }
        let width = (names.map(\.count).max() ?? 0) + 2
        for (option, name) in zip(options, names) {
            let variable = option.variable.isEmpty ? "" : "  [\(option.variable)]"
            lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + variable)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func integer(_ text: String, flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(flag) needs a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return value
    }

    private static func number(_ text: String, flag: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(description: "\(flag) needs a number from \(format(range.lowerBound)) to \(format(range.upperBound)), not \"\(text)\"")
        }
        return value
    }

    private static func boolean(_ text: String, flag: String) throws(UsageError) -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw UsageError(description: "\(flag) takes no value, or true/false, not \"\(text)\"")
        }
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}
