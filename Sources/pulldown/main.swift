// pulldown: parse the command line, start, wait for SIGINT or SIGTERM, stop cleanly.
import Foundation
import PulldownApp
import PulldownHTTP

func fail(_ message: String, code: Int32) -> Never {
    ErrorLog.write(message)
    exit(code)
}

let configuration: Configuration
do {
    configuration = try ConfigurationParser.parse(Array(CommandLine.arguments.dropFirst()),
                                                  environment: ProcessInfo.processInfo.environment)
} catch {
    fail(error.description, code: 2)
}
if configuration.showHelp {
    FileHandle.standardOutput.write(Data(ConfigurationParser.helpText.utf8))
    exit(0)
}

// A client that goes away mid-answer must not kill the process.
signal(SIGPIPE, SIG_IGN)

// SIGINT and SIGTERM are blocked before any thread starts, so every thread inherits the mask
// and the main thread collects them with sigwait: a signal sent the moment the server is up
// is waited for, never lost and never delivered to a worker thread.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let application: Application
do {
    application = try Application(configuration: configuration)
} catch {
    fail(error.description, code: 1)
}

let shownHost = configuration.server.host.contains(":") ? "[\(configuration.server.host)]" : configuration.server.host
// Written straight to the descriptor: scripts wait for this line, so it must not sit in a buffer,
// and it comes first. With --https-port, plain HTTP's line first, then HTTPS's; then what is served.
var listening = [(application.httpsPort == application.port ? "https" : "http", application.port)]
if let httpsPort = application.httpsPort, httpsPort != application.port { listening.append(("https", httpsPort)) }
FileHandle.standardOutput.write(Data(listening.map { "Listening on \($0)://\(shownHost):\($1)\n" }.joined().utf8))
FileHandle.standardOutput.write(Data((application.servingLine + "\n").utf8))
let host = configuration.server.host
let https = application.httpsPort.map { StartupBanner.HTTPS(port: $0, trustPort: application.port) }
var banner = application.certificateAuthority.map { StartupBanner.tlsLines($0, host: host, trustPort: application.port) } ?? []
banner += StartupBanner.lines(host: host, port: application.port,
                              interfaceAddresses: StartupBanner.interfaceAddresses(forHost: host),
                              qrCode: configuration.qrCode, isTerminal: isatty(STDOUT_FILENO) == 1,
                              presenterToken: application.presenterToken, https: https)
if !banner.isEmpty { FileHandle.standardOutput.write(Data((banner.joined(separator: "\n") + "\n").utf8)) }

var received: Int32 = 0
sigwait(&stopSignals, &received)
application.stop()
// _exit, not exit: answers that were delayed past the stop may still be finishing on Dispatch
// threads, and exit would run the C libraries' exit-time cleanup under them (OpenSSL's, which
// libpq loads, and GnuTLS's); it crashed a stop when sessions were still signed with OpenSSL.
// Nothing is left buffered to flush: every line goes out in its own write(2).
_exit(0)
