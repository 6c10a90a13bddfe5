import LocalCA
import PulldownHTTP
import Synchronization

/// How a phone comes to trust this machine's authority (`--https`): the trust page
/// (`Public/trust.html`, plain HTTP is fine for it) at `/trust`, the root certificate it offers
/// for download, and `/trust/open`, which sends the phone on to the page over HTTPS.
///
/// The same routes are on every port, so a phone can also fetch the root again over HTTPS; without
/// `--https` they answer 404 and say how to turn it on.
struct TrustRoutes: Sendable {
    static let page = "trust.html"
    /// The files the page is made of, served on the cleartext side of a TLS port as well.
    static let pageFiles = [page, "trust.js", "trust.css"]

    let files: StaticFiles
    /// Where `/trust/open` sends a phone that asked over plain HTTP: `--https-port` once that
    /// server is up; until then (and on a port that speaks both) the port it asked on.
    let httpsPort = HTTPSPort()
    /// The root as `.pem`, `.crt` and an iOS profile; nil without `--https`, when every route
    /// here answers 404 and says so.
    private let downloads: [String: PreparedBody]?

    /// The port of the HTTPS server, set once it listens.
    final class HTTPSPort: Sendable {
        private let port = Atomic<UInt16>(0)

        var value: UInt16? {
            get { port.load(ordering: .acquiring).nonZero }
            set { port.store(newValue ?? 0, ordering: .releasing) }
        }
    }

    init(ca: LocalCA?, files: StaticFiles) {
        self.files = files
        // Downloads: the browser saves them (or iOS offers to install them) under these names.
        func download(_ name: String) -> HTTPHeaders {
            HTTPHeaders([("Cache-Control", CacheControl.noCache), ("Content-Disposition", "attachment; filename=\"\(name)\"")])
        }
        downloads = ca.map { ca in [
            "pulldown-ca.pem": PreparedBody(Array(ca.rootPEM.utf8), contentType: "application/x-pem-file",
                                            headers: download("pulldown-ca.pem")),
            // DER with the type iOS and Android take for a CA certificate to install.
            "pulldown-ca.crt": PreparedBody(ca.rootDER, contentType: "application/x-x509-ca-cert", headers: download("pulldown-ca.crt")),
            "pulldown-ca.mobileconfig": PreparedBody(ConfigurationProfile.profile(for: ca), contentType: ConfigurationProfile.contentType,
                                                     headers: download("pulldown-ca.mobileconfig")),
        ] }
    }

    static let httpsIsOff = Problem.notFound("This server does not serve HTTPS: start it with --https to trust it from here.")

    func addRoutes(to router: inout Router) {
        let files = files
        let isOn = downloads != nil
        router.get("/trust") { request in
            guard isOn else { return Self.httpsIsOff.response }
            return files.file(Self.page)?.response(to: request)
                ?? Problem.notFound("The trust page (\(Self.page)) is missing from the page's folder.").response
        }
        for name in ["pulldown-ca.pem", "pulldown-ca.crt", "pulldown-ca.mobileconfig"] {
            let body = downloads?[name]
            router.get("/trust/" + name) { request in body?.response(to: request) ?? Self.httpsIsOff.response }
        }
        let port = httpsPort
        router.get("/trust/open") { request in
            guard isOn else { return Self.httpsIsOff.response }
            guard let location = HTTPSRedirect.location(hostHeader: request.headers["Host"],
                                                        port: request.isTLS ? nil : port.value) else {
                return Problem.badRequest("The request names no host to open over HTTPS.").response
            }
            // 303: look at the page there. A browser keeps the fragment (#demo=TOKEN) it came with.
            var response = HTTPResponse(status: 303)
            response.headers.add("Location", location)
            response.headers.add("Cache-Control", CacheControl.noStore)
            return response
        }
    }

    /// The handler for plain HTTP on a TLS port: the trust page, its files and the downloads;
    /// every other request is sent to HTTPS (`HTTPSRedirect`).
    func cleartextHandler() -> HTTPHandler {
        let files = files
        var router = Router(fallback: { request in
            if let name = request.target.segments.last, request.target.segments.count == 1, Self.pageFiles.contains(name) {
                return files.respond(to: request)
            }
            return HTTPSRedirect.response(to: request)
        })
        addRoutes(to: &router)
        return router.handler
    }
}

private extension UInt16 {
    var nonZero: UInt16? { self == 0 ? nil : self }
}
