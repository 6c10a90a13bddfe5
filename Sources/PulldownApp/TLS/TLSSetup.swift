import Foundation
import LocalCA
import PulldownFeed
import PulldownHTTP

/// `--https`: where this machine's certificate authority is kept, which names the server
/// certificate covers, and the identity the TLS port serves.
enum TLSSetup {
    /// The folder of the authority: `--tls-dir`, else beside a SQLite file (`feed.sqlite.tls`,
    /// so each store's folder is found again with it), else, for a store that is no file
    /// (`:memory:`, PostgreSQL), the user's own data folder, so a phone trusts one root however
    /// often a throwaway store starts.
    static func folder(for configuration: Configuration, environment: [String: String]) -> String? {
        if let folder = configuration.tlsFolder { return folder }
        if let file = FeedStores.file(configuration.databasePath) { return file + ".tls" }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/pulldown/tls" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/pulldown/tls" }
        return nil
    }

    /// The names the server certificate must cover for a server listening on `host`: this
    /// machine's loopback names always, and the host itself, or every interface address when
    /// it listens on all of them; and the host of `--public-url`, which clients are sent to.
    static func names(host: String, interfaceAddresses: [String], publicURL: String? = nil) -> [String] {
        let publicHost = publicURL.flatMap(BaseURL.host(ofPublicOrigin:)).map { [$0] } ?? []
        if NetworkAddresses.isLoopback(host) { return ServerNames.normalized(ServerNames.loopback + [host] + publicHost) }
        return ServerNames.normalized(ServerNames.loopback + (NetworkAddresses.isWildcard(host) ? interfaceAddresses : [host]) + publicHost)
    }

    /// Opens (or creates) the authority and the server certificate for this start.
    static func open(_ configuration: Configuration, environment: [String: String]) throws(Application.StartupError) -> LocalCA {
        guard let folder = folder(for: configuration, environment: environment) else {
            throw Application.StartupError(description: "--https needs a folder for its certificate authority: "
                                           + "give --tls-dir DIR (no HOME to keep it in)")
        }
        let host = configuration.server.host
        let names = names(host: host, interfaceAddresses: StartupBanner.interfaceAddresses(forHost: host),
                          publicURL: configuration.publicURL)
        do {
            return try LocalCA.open(folder: folder, names: names)
        } catch {
            throw Application.StartupError(description: error.description)
        }
    }

    static func identity(_ ca: LocalCA) -> TLSIdentity {
        TLSIdentity(privateKeyPEM: ca.serverKeyPEM, certificateChainPEM: ca.serverCertificatePEM)
    }
}
