import Dispatch
import Foundation
import LocalCA
import PulldownDataFile
import PulldownFeed
import PulldownHTTP
import Synchronization

/// Pulldown assembled: the store, the feed, the page's files and the API behind one server.
public final class Application: Sendable {
    /// The server on `--port`: over TLS with `--https` alone, plain HTTP otherwise.
    private let server: HTTPServer
    /// With `--https-port`, the HTTPS server there.
    private let secureServer: HTTPServer?
    /// With `--https`: this machine's certificate authority and the certificate served.
    public let certificateAuthority: LocalCA?
    private let feed: Feed
    private let live: LiveEvents
    private let maintenance: Maintenance
    private let watcher: DataFileWatcher?
    private let doctor: ClientDoctor?
    /// The token `/api/demo` needs, for the presenter's URL; nil when it needs none (loopback
    /// only) or is not served.
    public let presenterToken: String?
    /// What the feed held at start and where from, to say after `Listening on` (`ServingLine`).
    public let servingLine: String

    /// Why the application could not start: a message for standard error (exit code 1).
    public struct StartupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens (and if new, seeds) the store, loads the page's files and starts listening.
    public convenience init(configuration: Configuration) throws(StartupError) {
        try self.init(configuration: configuration, clock: DemoClock(configuration.clock))
    }

    /// The same on a clock of the caller's (tests move one by hand).
    init(configuration: Configuration, clock base: any FeedClock) throws(StartupError) {
        // The demo clock: `--clock manual`'s, or one that reads `base`.
        let clock = base as? DemoClock ?? DemoClock(base: base)
        let script = try configuration.scriptFile.map { file throws(StartupError) in try Self.readScript(file) }
        let opened: FeedStores.Opened
        let staticFiles: StaticFiles
        do {
            // A postgres:// URL shares one PostgreSQL database between instances; a pooled
            // connection per server thread, plus one for the maintenance timer.
            opened = try FeedStores.openFeed(configuration.databasePath, connections: configuration.server.threads + 1,
                                            clock: clock, configuration: Self.feedConfiguration(configuration))
        } catch {
            throw StartupError(description: "\(error)")
        }
        let feed = opened.feed
        let tokens = opened.tokens
        do {
            staticFiles = try StaticFiles(root: configuration.publicFolder)
        } catch {
            throw StartupError(description: error.description)
        }
        guard let openAPI = OpenAPIDocument.response else {
            throw StartupError(description: "the OpenAPI document is missing from the program's resources")
        }
        let origin = FeedOrigin(configuration)
        let data: DataFileImport.Loaded?
        do {
            data = try origin.fill(feed, reset: configuration.resetStore)
            try feed.expireIdleSessions()
            servingLine = ServingLine.text(state: try feed.dataSourceState(), count: try feed.itemCount(),
                                           dataFile: configuration.dataFile,
                                           store: FeedStores.describe(configuration.databasePath))
        } catch let error as DataFileError {
            throw StartupError(description: error.description)
        } catch {
            // The store's error names the database itself, with any password masked; the --db
            // value as given could carry one.
            throw StartupError(description: "cannot prepare the database: \(error)")
        }
        var watcher: DataFileWatcher?
        if configuration.watchData, let file = origin.dataFile, let data {
            watcher = DataFileWatcher(file, mark: data.mark, feed: feed, say: ErrorLog.write)
        }

        let live = LiveEvents(source: feed, settings: .init(
            maxStreams: configuration.maxStreams, heartbeatSeconds: configuration.heartbeatSeconds))
        let demoSync: DemoKnobsSync?
        do {
            demoSync = try feed.sharedDemoKnobs.map { try DemoKnobsSync(store: $0, flags: Self.startingKnobs(configuration)) }
        } catch {
            throw StartupError(description: "cannot prepare the database: \(error)")
        }
        let demo = demoSync?.control ?? DemoControl(Self.startingKnobs(configuration))
        // The knobs joined on a shared store may not be this start's.
        feed.newItemsEvery = demo.knobs.newItemsEvery
        demo.observe { knobs in
            feed.newItemsEvery = knobs.newItemsEvery
            // Every open page hears the new knobs; pages that listen only for `items` ignore it.
            live.broadcast(ServerSentEvents.event("demo", id: nil, data: knobs.json))
        }
        // One token steers the demo and reads the doctor.
        let steering = DemoAccess(host: configuration.server.host, configured: configuration.demoToken,
                                  baseURL: BaseURL(configured: configuration.publicURL))
        let access = configuration.demoAPI ? steering : nil
        // Each change of a client's profile reaches every open page as a `demo` event too.
        let profiles = access.map { _ in
            NetworkProfiles(tokens: tokens, clock: clock) { live.broadcast(ServerSentEvents.event("demo", id: nil, data: $0)) }
        }
        let doctor = configuration.doctor
            ? ClientDoctor(clock: clock, pageSize: configuration.pageSize, log: configuration.doctorLog,
                           heartbeatSeconds: configuration.heartbeatSeconds) : nil
        let ca: LocalCA?
        do {
            ca = configuration.https ? try TLSSetup.open(configuration, environment: ProcessInfo.processInfo.environment) : nil
        } catch {
            live.stop()
            watcher?.cancel()
            doctor?.stop()
            throw error
        }
        let trust = TrustRoutes(ca: ca, files: staticFiles)
        let scripting = access.map { _ in
            ScriptWiring(clock: clock, stage: .init(feed: feed, control: demo, sync: demoSync, churn: DemoChurn(feed: feed), live: live,
                                                    gate: ScriptGate(clock: clock)))
        }
        if let script { scripting?.player.load(script) }
        let handler = Self.handler(feed: feed, tokens: tokens, staticFiles: staticFiles, openAPI: openAPI,
                                   live: live, demo: demo, demoSync: demoSync, demoAccess: access,
                                   reset: DemoReset(feed: feed, origin: origin, watcher: watcher),
                                   configuration: configuration, dataPictures: origin.dataFile?.pictures, trust: trust,
                                   profiles: profiles, doctor: doctor.map { ($0, steering) }, scripting: scripting)
        var serverConfiguration = configuration.server
        // Streams get their own share of connections, so a full house of them never keeps
        // ordinary requests out.
        serverConfiguration.connectionLimit += UInt32(configuration.maxStreams)
        Self.raiseFileLimit(for: serverConfiguration, servers: configuration.httpsPort == nil ? 1 : 2)
        do {
            (server, secureServer) = try Self.startServers(serverConfiguration, handler: handler, ca: ca, trust: trust,
                                                           httpsPort: configuration.httpsPort)
        } catch {
            live.stop()
            watcher?.cancel()
            doctor?.stop()
            throw StartupError(description: error.description)
        }
        self.certificateAuthority = ca
        self.feed = feed
        self.live = live
        self.presenterToken = access?.presenterToken
        self.maintenance = Maintenance(feed: feed, staticFiles: staticFiles, live: live, demo: demo)
        self.watcher = watcher
        self.doctor = doctor
    }


    /// The port the server listens on (`--port`).
    public var port: UInt16 { server.port }

    /// The port HTTPS is served on: `--port` with `--https` alone, else `--https-port`; nil without HTTPS.
    public var httpsPort: UInt16? { secureServer?.port ?? (certificateAuthority == nil ? nil : server.port) }

    /// Stops accepting, finishes in-flight requests and stops the server.
    public func stop() {
        maintenance.cancel()
        watcher?.cancel()
        live.stop()
        doctor?.stop()
        // Both at once, so two grace periods are one.
        let servers = [server] + (secureServer.map { [$0] } ?? [])
        DispatchQueue.concurrentPerform(iterations: servers.count) { servers[$0].stop() }
        // Fold the write-ahead log back into the database, so a stopped demo leaves one file
        // that is complete on its own (the -wal beside it is emptied).
        feed.compactStorage()
    }

    /// The feed's settings; its generator's interval is the demo knob's, and `--seed` orders the
    /// demo items it adds, so the same seed gives the same feed.
    private static func feedConfiguration(_ configuration: Configuration) -> FeedConfiguration {
        var feed = configuration.feed
        feed.newItemsEvery = startingKnobs(configuration).newItemsEvery
        feed.demoSeed = UInt64(configuration.seedCount)
        return feed
    }

    /// The demo knobs at start: with a data file, only the user's items, and with `--seed 0`, the
    /// empty feed, so no demo generator unless `--new-items-every` asks for one (a PATCH of
    /// newItemsEvery can turn it on too).
    private static func startingKnobs(_ configuration: Configuration) -> DemoKnobs {
        var knobs = configuration.demo
        if (configuration.dataFile != nil || configuration.seedCount == 0) && !configuration.newItemsEveryGiven {
            knobs.newItemsEvery = 0
        }
        return knobs
    }
}
