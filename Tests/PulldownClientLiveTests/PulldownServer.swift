import Foundation
import XCTest

/// A real `pulldown` on a free loopback port, as the live tests in Python start one: its own
/// folder, a store in memory unless told, no demo items over time, quiet. Stopped by its PID.
///
/// The binary is PULLDOWN_BIN, else the one `swift build` put beside this test bundle.
final class PulldownServer: @unchecked Sendable {
    let folder: URL
    private(set) var url: URL
    private(set) var port: Int
    private var process: Process?

    /// Starts one with `arguments` after the defaults (`--seed 0`, `--db :memory:` unless given; a
    /// relative `db` is in the server's folder).
    init(_ arguments: [String] = [], seed: Int = 0, db: String? = nil) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pulldown-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("public"), withIntermediateDirectories: true)
        url = URL(string: "http://127.0.0.1")!
        port = 0
        try await start(["--port", "0", "--db", db ?? ":memory:", "--seed", String(seed)] + arguments)
    }

    /// Starts the binary with `arguments` and waits for its `Listening on http://HOST:PORT` line.
    func start(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments + ["--public", folder.appendingPathComponent("public").path,
                                         "--new-items-every", "0", "--quiet"]
        process.currentDirectoryURL = folder
        let stdout = Pipe()
        process.standardOutput = stdout
        let stderr = folder.appendingPathComponent("stderr-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let log = try FileHandle(forWritingTo: stderr)
        process.standardError = log
        try process.run()
        try log.close() // the server has its own
        self.process = process
        let line = await Self.firstLine(stdout.fileHandleForReading, orKill: process)
        guard line.hasPrefix("Listening on http://"), let url = URL(string: String(line.dropFirst("Listening on ".count))),
              let port = url.port else {
            stop()
            throw ServerDidNotStart(line: line, stderr: (try? String(contentsOf: stderr, encoding: .utf8)) ?? "")
        }
        self.url = url
        self.port = port
    }

    /// SIGTERM to its PID, then waits for it to exit.
    func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Stops it and starts it again on the same port with `arguments`.
    func restart(_ arguments: [String]) async throws {
        stop()
        try await start(["--port", String(port)] + arguments)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The first line of standard output; the rest is read and dropped so the server never blocks
    /// on a full pipe. A server silent for 15 s is killed, which ends the line.
    private static func firstLine(_ handle: FileHandle, orKill process: Process) async -> String {
        let answered = Flag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 15) {
            if !answered.isSet, process.isRunning { process.terminate() }
        }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes.append(chunk)
                    if !answered.isSet, let end = bytes.firstIndex(of: 0x0A) {
                        answered.set()
                        continuation.resume(returning: String(decoding: bytes[..<end], as: UTF8.self))
                    }
                }
                if !answered.isSet {
                    answered.set()
                    continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                }
            }
        }
    }

    private static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["PULLDOWN_BIN"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pulldown")
    }
}

struct ServerDidNotStart: Error, CustomStringConvertible {
    let line: String
    let stderr: String
    var description: String { "pulldown did not start: \(line.debugDescription); stderr: \(stderr)" }
}

/// Set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
