import Foundation
import LocalCA
import PulldownHTTP

extension Application {
    /// The servers: without `--https`, one plain; with `--https` alone, one on TLS whose plain
    /// HTTP gets the trust page and redirects; with `--https-port`, a plain one serving everything
    /// on `--port` too, started once the TLS one listens (so the trust page knows its port).
    static func startServers(_ configuration: ServerConfiguration, handler: @escaping HTTPHandler, ca: LocalCA?,
                                     trust: TrustRoutes, httpsPort: UInt16?) throws(HTTPServer.StartError) -> (HTTPServer, HTTPServer?) {
        guard let ca else { return (try HTTPServer(configuration: configuration, handler: handler), nil) }
        var secure = configuration
        secure.tls = TLSSetup.identity(ca)
        if let httpsPort { secure.port = httpsPort }
        let tlsServer = try HTTPServer(configuration: secure, handler: handler, cleartextHandler: trust.cleartextHandler())
        trust.httpsPort.value = tlsServer.port
        guard httpsPort != nil else { return (tlsServer, nil) }
        do {
            return (try HTTPServer(configuration: configuration, handler: handler), tlsServer)
        } catch {
            tlsServer.stop()
            throw error
        }
    }

    /// The `--script` file, read and checked whole.
    static func readScript(_ file: String) throws(StartupError) -> DemoScript {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw StartupError(description: "--script \(file): cannot read the file")
        }
        do {
            return try DemoScript.parse(Array(data))
        } catch {
            throw StartupError(description: "--script \(file): \(error)")
        }
    }

    /// Every connection is a file descriptor: raise the limit as far as the system allows, and
    /// say so at start if that is still less than the connection limits need.
    static func raiseFileLimit(for server: ServerConfiguration, servers: Int = 1) {
        // The listening socket, the database, standard streams and a margin.
        let needed = Int(server.connectionLimit) * servers + 64
        let limit = FileLimit.raise(toward: needed)
        if limit < needed {
            ErrorLog.write("the open-file limit is \(limit), below the \(needed) that --connection-limit and "
                           + "--max-streams need; connections past it will wait or be refused (raise ulimit -n)")
        }
    }
}
