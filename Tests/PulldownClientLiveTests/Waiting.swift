import Foundation
import Observation
import PulldownClient
import XCTest

/// The longest any wait in these tests may take: past it the test fails rather than hang.
let patience = Duration.seconds(20)

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Waits until `condition`, which reads observable state, holds: checked again at each change of
/// what it read, never on a timer. Throws past `patience`.
@MainActor
func until(_ what: String, _ condition: @MainActor () -> Bool) async throws {
    let (changes, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    if checked(condition, signal) { return }
    let deadline = Task {
        try? await Task.sleep(for: patience)
        signal.finish() // ends the loop below: the change never came
    }
    defer { deadline.cancel() }
    for await _ in changes {
        if checked(condition, signal) { return }
    }
    throw TimedOut(what: what)
}

/// `condition` now, and a signal at the next change of what it read.
@MainActor
private func checked(_ condition: @MainActor () -> Bool, _ signal: AsyncStream<Void>.Continuation) -> Bool {
    withObservationTracking { condition() } onChange: { signal.yield() }
}

/// The events of one stream as they come, observable, so a test can wait for the one it needs.
@MainActor
@Observable
final class EventLog {
    private(set) var events: [LiveEvent] = []
    /// How the stream ended, if it did.
    private(set) var ending: Result<Void, any Error>?
    @ObservationIgnored private var task: Task<Void, Never>?

    init(_ stream: AsyncThrowingStream<LiveEvent, any Error>) {
        task = Task {
            do {
                for try await event in stream { events.append(event) }
                ending = .success(())
            } catch {
                ending = .failure(error)
            }
        }
    }

    /// The ids of every `items` event, in the order they came.
    var itemIDs: [Int64] {
        events.flatMap { event -> [Int64] in
            if case .items(let batch) = event { return batch.items.map(\.id) }
            return []
        }
    }

    /// Stops reading: the stream's connection closes.
    func stop() {
        task?.cancel()
    }
}

/// Something that happens once, observable: a test waits for it with `until`.
@MainActor
@Observable
final class Happened {
    private(set) var yet = false

    func now() { yet = true }
}
