// swift-tools-version:6.0
// Pulldown: a pull-to-refresh and infinite-scroll demo backend on libmicrohttpd.
import PackageDescription

let package = Package(
    name: "Pulldown",
    // For PulldownClient on Apple platforms (Observation, async URLSession); the server is Linux only.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "pulldown", targets: ["pulldown"]),
        .library(name: "PulldownClient", targets: ["PulldownClient"]),
    ],
    targets: [
        // C libraries from Debian, seen through pkg-config. Each shim is a module map and one header.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CLibdeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CNettle", pkgConfig: "nettle",
            providers: [.apt(["nettle-dev"])]),
        .systemLibrary(
            name: "CJansson", pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .systemLibrary(
            name: "CQRencode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CGnuTLS", pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]),

        // libmicrohttpd 0.9.75's epoll loop can block with 128 connections ready (epoll_drain.c).
        .target(name: "CEpollDrain"),
        // A refused input and why: the one word the feed and the HTTP layer share.
        .target(name: "InvalidInput"),
        // SHA-256 by Nettle: a data file's running digest, an inline stylesheet's hash in the page's policy.
        .target(name: "Hashing", dependencies: ["CNettle"]),
        // The Swift face of libmicrohttpd: lifecycle, requests, responses, routing, streams, static files.
        // GnuTLS (which libmicrohttpd links for its TLS): a small answer's records corked into one.
        .target(name: "PulldownHTTP", dependencies: ["CMicroHTTPD", "CGnuTLS", "CEpollDrain", "CLibdeflate", "Hashing", "InvalidInput"]),
        // The domain: items, keyset pages, refresh, sessions, the stores (SQLite, PostgreSQL), demo data;
        // Jansson reads the picture origins out of an item's own fields.
        .target(name: "PulldownFeed", dependencies: ["CSQLite", "CNettle", "CLibPQ", "CJansson", "Hashing", "InvalidInput"]),
        // A certificate authority of this machine's own, kept in a folder, and the server
        // certificates it issues for --https (GnuTLS's X.509 API; libmicrohttpd does the TLS).
        .target(name: "LocalCA", dependencies: ["CGnuTLS", "Hashing"]),
        // The client doctor: a client's requests in, the mistakes they show out (pure; knows no HTTP server).
        .target(name: "PulldownDoctor", dependencies: ["Hashing"]),
        // An item's own fields (UserFields), checked on the value Jansson parsed: the one rule for
        // a posted item and a data file's entry; and Jansson's messages, for both.
        .target(name: "ItemFields", dependencies: ["CJansson", "InvalidInput"]),
        // The data file (--data, --watch): read as a stream, checked, taken into the feed, followed;
        // nothing of HTTP. Jansson reads its entries; Nettle (through Hashing) names its pictures
        // and tells a file grown from one rewritten.
        .target(name: "PulldownDataFile", dependencies: ["CJansson", "Hashing", "InvalidInput", "ItemFields", "PulldownFeed"]),
        // The JSON API and configuration: HTTP requests in, feed calls, JSON out.
        // Jansson: request bodies (JSONBody), an item's pictures read from its own fields for the
        // page (ItemPictures). libqrencode: start-up's QR code (TerminalQRCode). libpng: the
        // demo's pictures (PNGCanvas).
        .target(name: "PulldownApp", dependencies: ["PulldownHTTP", "PulldownFeed", "PulldownDataFile", "ItemFields",
                                                    "PulldownDoctor", "Hashing", "InvalidInput",
                                                    "CJansson", "CQRencode", "CPNG", "LocalCA"],
                resources: [.copy("Resources/openapi.json")]),
        .executableTarget(name: "pulldown", dependencies: ["PulldownApp", "PulldownHTTP"]),
        // The feed's client for Swift apps: Foundation only, so it builds for iOS as for Linux.
        .target(name: "PulldownClient"),

        // What the test targets share and the program never links: clocks moved by hand, and
        // waiting forms of the feed's calls that answer later.
        .target(name: "PulldownTesting", dependencies: ["PulldownFeed", "PulldownHTTP"]),
        // zlib only decompresses, in the tests: a second implementation reads what libdeflate wrote.
        // LocalCA: a real key and certificate for the server's TLS port.
        .testTarget(name: "PulldownHTTPTests", dependencies: ["PulldownHTTP", "PulldownTesting", "CZlib", "LocalCA"]),
        .testTarget(name: "PulldownFeedTests", dependencies: ["PulldownFeed", "PulldownTesting", "Hashing"]),
        .testTarget(name: "PulldownAppTests", dependencies: ["PulldownApp", "PulldownDataFile", "ItemFields", "PulldownTesting"]),
        .testTarget(name: "PulldownDataFileTests", dependencies: ["PulldownDataFile", "PulldownFeed", "Hashing", "CJansson"]),
        .testTarget(name: "LocalCATests", dependencies: ["LocalCA"]),
        // The client's state machines, without I/O; then the client against a real `pulldown`.
        .testTarget(name: "PulldownClientTests", dependencies: ["PulldownClient"]),
        .testTarget(name: "PulldownClientLiveTests", dependencies: ["PulldownClient"]),
        .testTarget(name: "PulldownDoctorTests", dependencies: ["PulldownDoctor"]),
    ],
    swiftLanguageModes: [.v6]
)
