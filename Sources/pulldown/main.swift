// pulldown: parse the command line, start, wait for SIGINT or SIGTERM, stop cleanly.
import Foundation
import PulldownApp

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("pulldown: \(message)\n".utf8))
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

let application: Application
do {
    application = try Application(configuration: configuration)
} catch {
    fail(error.description, code: 1)
}

// Signals are handled on a queue, not in a signal handler, so stopping may take locks.
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let stopped = DispatchSemaphore(value: 0)
let signalQueue = DispatchQueue(label: "pulldown.signals")
let sources = [SIGINT, SIGTERM].map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
    source.setEventHandler { stopped.signal() }
    source.resume()
    return source
}

let shownHost = configuration.server.host.contains(":") ? "[\(configuration.server.host)]" : configuration.server.host
// Written straight to the descriptor: scripts wait for this line, so it must not sit in a buffer.
FileHandle.standardOutput.write(Data("Listening on http://\(shownHost):\(application.port)\n".utf8))
stopped.wait()
application.stop()
exit(0)
