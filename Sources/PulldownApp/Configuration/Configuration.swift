import PulldownFeed
import PulldownHTTP

/// Everything the command line and the environment can set (see `ConfigurationParser`), with
/// the defaults a demo wants. Each default is set here, or in the configuration of the layer it
/// belongs to, and nowhere else: `--help` reads them from a fresh value.
public struct Configuration: Sendable {
    public var server = ServerConfiguration()
    /// The demo generator's interval and how long idle sessions are kept.
    public var feed = FeedConfiguration()
    public var publicFolder = "Public"
    public var databasePath = "pulldown.sqlite"
    public var seedCount = 50
    /// Whether `--seed` (or its variable) was given: only then is a seed that was not applied said.
    public var seedGiven = false
    /// A file of the user's own items (`DataFile`), imported instead of the demo seed.
    public var dataFile: String?
    /// The member of a JSON object in `dataFile` that holds the items (json-server's `db.json`).
    public var dataCollection: String?
    /// Empty the store (items and sessions) and fill it again: the demo seed, or `dataFile`.
    public var resetStore = false
    /// Add the entries appended to `dataFile` while the server runs (`DataFileWatcher`).
    public var watchData = false
    /// Items per page when a request gives no limit; 1 to `Feed.maxPageSize`.
    public var pageSize = 10
    /// The demo knobs' start-up state; `PATCH /api/demo` changes them while the server runs.
    /// Their `newItemsEvery` is the feed's, which `feed.newItemsEvery` only starts with.
    public var demo = DemoKnobs()
    /// Whether `--new-items-every` was given: with `--data` the generator is off unless it was.
    public var newItemsEveryGiven = false
    /// Whether `/api/demo` is served at all (`--demo-api off` removes it).
    public var demoAPI = true
    /// The bearer token `/api/demo` (and `/api/doctor`) needs when listening beyond loopback; nil
    /// makes a random one.
    public var demoToken: String?
    /// Whether the client doctor watches the API's clients (`--doctor off` records nothing).
    public var doctor = true
    /// Each new finding of the doctor as one line on standard error.
    public var doctorLog = false
    /// Origins that may call the API with credentials (cookies); any origin may without (`CORS`).
    public var corsOrigins: [String] = []
    /// The origin clients reach the server at behind a proxy (`https://feed.example`): absolute
    /// URLs in answers begin with it (`BaseURL`); nil: each request's own scheme and Host.
    public var publicURL: String?
    /// Serve HTTPS with a certificate from this machine's own authority (`TLSSetup`).
    public var https = false
    /// With `https`: the port HTTPS listens on, while `server.port` serves plain HTTP; nil: HTTPS
    /// on `server.port`, where plain HTTP gets the trust page and a redirect.
    public var httpsPort: UInt16?
    /// Where the certificate authority is kept; nil: beside the store (`TLSSetup.folder`).
    public var tlsFolder: String?
    /// Server-sent event streams open at once; they come on top of `server.connectionLimit`.
    public var maxStreams = 10_000
    /// Seconds between `: ping` comments on every event stream.
    public var heartbeatSeconds: Double = 15
    /// Bytes of immutable pages kept ready in memory (see `PageCaching`).
    public var pageCacheBytes = 16 << 20
    /// A demo script to play from the start (`DemoScript`).
    public var scriptFile: String?
    /// The demo's clock: the wall clock, or one that stands still until moved (`DemoClock`).
    var clock = DemoClock.Setting.system
    public var showHelp = false
    /// Whether start-up prints a QR code of the network address (listening beyond loopback only).
    public var qrCode = StartupBanner.QRCode.whenTerminal

    public init() {}
}

/// A command line that cannot be used: the message says why, for standard error (exit code 2).
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
}
