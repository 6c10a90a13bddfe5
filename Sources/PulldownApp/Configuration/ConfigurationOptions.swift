import PulldownFeed

extension ConfigurationParser {
    /// One option: its flag, its environment variable, and what it sets.
    struct Option: Sendable {
        let flag: String
        /// `PULLDOWN_` and the flag's name in capitals (`--page-size`: `PULLDOWN_PAGE_SIZE`);
        /// empty for an option no variable sets.
        let variable: String
        /// nil for a switch that takes no value.
        let valueName: String?
        let help: String
        let apply: @Sendable (inout Configuration, String) throws(UsageError) -> Void

        init(_ flag: String, value valueName: String?, help: String, hasVariable: Bool = true,
             apply: @escaping @Sendable (inout Configuration, String) throws(UsageError) -> Void) {
            self.flag = flag
            self.variable = hasVariable ? "PULLDOWN_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_") : ""
            self.valueName = valueName
            self.help = help
            self.apply = apply
        }

        /// An option taking a whole number within `range`.
        static func integer(_ flag: String, _ valueName: String, _ help: String, in range: ClosedRange<Int>,
                            _ set: @escaping @Sendable (inout Configuration, Int) -> Void) -> Option {
            Option(flag, value: valueName, help: help) { config, value throws(UsageError) in
                set(&config, try ConfigurationParser.integer(value, flag: flag, in: range))
            }
        }

        /// An option taking `on` or `off`.
        static func onOff(_ flag: String, _ help: String, _ set: @escaping @Sendable (inout Configuration, Bool) -> Void) -> Option {
            Option(flag, value: "MODE", help: help) { config, value throws(UsageError) in
                switch value {
                case "on": set(&config, true)
                case "off": set(&config, false)
                default: throw UsageError(description: "\(flag) must be on or off, not \(value)")
                }
            }
        }

        /// An option taking a number within `range`.
        static func number(_ flag: String, _ valueName: String, _ help: String, in range: ClosedRange<Double>,
                           _ set: @escaping @Sendable (inout Configuration, Double) -> Void) -> Option {
            Option(flag, value: valueName, help: help) { config, value throws(UsageError) in
                set(&config, try ConfigurationParser.number(value, flag: flag, in: range))
            }
        }
    }

    /// What `--help` calls the defaults.
    private static let defaults = Configuration()

    /// Every option, once: parsing and `--help` both read this list.
    static let options: [Option] = [
        Option("--host", value: "HOST", help: "address to listen on (default \(defaults.server.host))") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--host needs an address") }
            config.server.host = value
        },
        .integer("--port", "PORT", "port to listen on, 0 for any free one (default \(defaults.server.port))",
                 in: 0...65535) { $0.server.port = UInt16($1) },
        Option("--public", value: "DIR", help: "folder of the page's files (default ./\(defaults.publicFolder))") { config, value in
            config.publicFolder = value
        },
        Option("--db", value: "PATH", help: "SQLite database file, :memory:, or a postgres://user@host:port/dbname URL "
               + "shared by several instances (default ./\(defaults.databasePath))") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--db needs a path") }
            config.databasePath = value
        },
        .integer("--seed", "N", "demo items to create when the store is empty (default \(defaults.seedCount), 0 for none)",
                 in: 0...10_000_000) { config, count in
                     config.seedCount = count
                     config.seedGiven = true
                 },
        Option("--data", value: "FILE", help: "serve the items of this JSON or NDJSON file instead of demo items "
               + "(the demo generator is off then)") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--data needs a file") }
            config.dataFile = value
        },
        Option("--collection", value: "NAME", help: "with --data: the member of a JSON object that holds the items "
               + "(json-server's db.json: posts; default: items, else the first array of objects)") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--collection needs a member name") }
            config.dataCollection = value
        },
        Option("--reset", value: nil, help: "empty the store (items and sessions) and fill it again: with the demo seed, or with --data's file",
               hasVariable: false) { config, value throws(UsageError) in
            config.resetStore = try boolean(value, flag: "--reset")
        },
        Option("--watch", value: nil, help: "with --data: add the entries appended to the file while the server runs",
               hasVariable: false) { config, value throws(UsageError) in
            config.watchData = try boolean(value, flag: "--watch")
        },
        .integer("--page-size", "N", "items per page when a request gives no limit (default \(defaults.pageSize), 1..\(Feed.maxPageSize))",
                 in: 1...Feed.maxPageSize) { $0.pageSize = $1 },
        .number("--new-items-every", "SECONDS",
                "a refresh after this long finds 1 to 3 new demo items (default \(format(defaults.demo.newItemsEvery)), 0 turns it off)",
                in: DemoKnobs.newItemsEveryRange) { config, seconds in
                    config.demo.newItemsEvery = seconds
                    config.newItemsEveryGiven = true
                },
        .number("--edits-per-minute", "N",
                "the demo edits this many items a minute: a title reworded, a picture swapped, a like count that moves (default 0)",
                in: DemoKnobs.churnRange) { $0.demo.editsPerMinute = $1 },
        .number("--deletes-per-minute", "N", "the demo deletes this many items a minute, recent and older alike (default 0)",
                in: DemoKnobs.churnRange) { $0.demo.deletesPerMinute = $1 },
        .number("--short-pages", "SHARE", "this share of pages (0..1) holds fewer items than asked while more exist (default 0)",
                in: DemoKnobs.shortPagesRange) { $0.demo.shortPages = $1 },
        .integer("--cursor-ttl-seconds", "N", "cursors in links expire after this long, a 410 (default 0: never)",
                 in: DemoKnobs.cursorTtlRange) { $0.demo.cursorTtlSeconds = $1 },
        .number("--session-ttl-days", "DAYS", "forget sessions idle this long (default \(format(defaults.feed.sessionTTL / 86_400)))",
                in: 0.001...36_500) { $0.feed.sessionTTL = $1 * 86_400 },
        .integer("--changes-kept", "N",
                 "edits and deletions GET /api/changes keeps; a client further behind starts over (default \(defaults.feed.changesKept))",
                 in: 1...10_000_000) { $0.feed.changesKept = $1 },
        .integer("--delay-ms", "MS", "delay every /api/ answer (default \(defaults.demo.delayMilliseconds))",
                 in: DemoKnobs.delayRange) { $0.demo.delayMilliseconds = $1 },
        .integer("--jitter-ms", "MS", "add a random 0..MS to each delay (default \(defaults.demo.jitterMilliseconds))",
                 in: DemoKnobs.delayRange) { $0.demo.jitterMilliseconds = $1 },
        .number("--fail-rate", "F", "answer this fraction of /api/ requests with 503 (0..1, default \(format(defaults.demo.failRate)))",
                in: DemoKnobs.failRateRange) { $0.demo.failRate = $1 },
        Option("--cors-origin", value: "ORIGIN",
               help: "allow this origin to call the API with credentials (cookies); any origin may without "
               + "(repeatable; comma-separated in the variable)") { config, value throws(UsageError) in
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
        Option("--public-url", value: "URL",
               help: "the URL clients reach this server at behind a proxy (https://feed.example): links and "
               + "pictures in answers begin with it (default: each request's own Host)") { config, value throws(UsageError) in
            guard let origin = BaseURL.publicOrigin(value) else {
                throw UsageError(description: "--public-url needs http(s)://HOST[:PORT] without a path, not \(value)")
            }
            config.publicURL = origin
        },
        Option("--https", value: nil, help: "serve HTTPS with a certificate from this machine's own authority, "
               + "created on first use beside the store; plain http:// on the port gets the trust page /trust "
               + "and a redirect") { config, value throws(UsageError) in
            config.https = try boolean(value, flag: "--https")
        },
        .integer("--https-port", "PORT", "serve HTTPS on this port and all of plain HTTP on --port (implies --https)",
                 in: 0...65535) { config, port in
            config.https = true
            config.httpsPort = UInt16(port)
        },
        Option("--tls-dir", value: "DIR", help: "where --https keeps its certificate authority (default: beside the "
               + "--db file as FILE.tls; for :memory: and PostgreSQL, ~/.local/share/pulldown/tls)") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--tls-dir needs a folder") }
            config.tlsFolder = value
        },
        .integer("--threads", "N", "server threads (default: one per core)", in: 1...256) { $0.server.threads = $1 },
        .integer("--connection-timeout", "SECONDS", "close a connection silent this long, or still sending a request this long "
                 + "after it opened or after its last answer (default \(defaults.server.connectionTimeout))",
                 in: 1...3600) { $0.server.connectionTimeout = UInt32($1) },
        .integer("--connection-limit", "N", "connections open at once (default \(defaults.server.connectionLimit))",
                 in: 1...1_000_000) { $0.server.connectionLimit = UInt32($1) },
        .integer("--max-streams", "N",
                 "event streams (/api/events) open at once, besides --connection-limit (default \(defaults.maxStreams))",
                 in: 0...1_000_000) { $0.maxStreams = $1 },
        .number("--heartbeat-seconds", "SECONDS",
                "a comment on every event stream this often, so proxies keep it open (default \(format(defaults.heartbeatSeconds)))",
                in: 0.1...3600) { $0.heartbeatSeconds = $1 },
        .integer("--page-cache-mb", "MB",
                 "memory for pages and items kept ready to send until an edit or a deletion touches them (default \(defaults.pageCacheBytes >> 20), 0 for none)",
                 in: 0...65_536) { $0.pageCacheBytes = $1 << 20 },
        .onOff("--demo-api", "on: serve the demo control API at /api/demo; off: 404 there (default on)") { $0.demoAPI = $1 },
        Option("--demo-token", value: "TOKEN",
               help: "the bearer token /api/demo and /api/doctor need when listening beyond loopback (default: a random one, printed at start)") { config, value throws(UsageError) in
            guard DemoAccess.isUsableToken(value) else {
                throw UsageError(description: "--demo-token needs 8 to 200 letters, digits or -._~+/ characters")
            }
            config.demoToken = value
        },
        Option("--script", value: "FILE", help: "play this demo script (JSON steps, see docs/scripts/) from the start") { config, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "--script needs a file") }
            config.scriptFile = value
        },
        Option("--clock", value: "MODE", help: "system, or manual[:2026-01-01T00:00:00Z]: the demo's time stands still at "
               + "that instant until POST /api/demo/clock moves it (default system)") { config, value throws(UsageError) in
            guard let setting = DemoClock.Setting(value) else {
                throw UsageError(description: "--clock must be system, manual or manual:YYYY-MM-DDTHH:MM:SSZ, not \(value)")
            }
            config.clock = setting
        },
        .onOff("--doctor", "on: the client doctor watches the API's clients, at /api/doctor; off: it records nothing (default on)") {
            $0.doctor = $1
        },
        Option("--doctor-log", value: nil, help: "print each new finding of the client doctor on standard error") { config, value throws(UsageError) in
            config.doctorLog = try boolean(value, flag: "--doctor-log")
        },
        Option("--quiet", value: nil, help: "no access log") { config, value throws(UsageError) in
            config.server.accessLog = !(try boolean(value, flag: "--quiet"))
        },
        Option("--qr", value: nil,
               help: "print the QR code of the network address even when standard output is not a terminal") { config, value throws(UsageError) in
            if try boolean(value, flag: "--qr") { config.qrCode = .always }
        },
        Option("--no-qr", value: nil, help: "never print the QR code of the network address") { config, value throws(UsageError) in
            if try boolean(value, flag: "--no-qr") { config.qrCode = .never }
        },
        Option("--help", value: nil, help: "show this help", hasVariable: false) { config, _ in
            config.showHelp = true
        },
    ]
}
