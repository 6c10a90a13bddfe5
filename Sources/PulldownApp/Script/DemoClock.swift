import Foundation
import PulldownFeed
import Synchronization

/// The demo's one clock: the wall clock, or with `--clock manual` one that starts at a fixed
/// instant and stands still until `POST /api/demo/clock` moves it. The feed reads it (new items'
/// `createdAt`, `lastUpdated`, when generated items are due), and so do the script, the rate
/// limit's windows and their `Retry-After`; those that wait on it hear each move (`observe`).
final class DemoClock: FeedClock {
    enum Setting: Sendable, Equatable {
        case system
        case manual(Date)

        /// `manual` starts here unless told otherwise.
        static let manualStart = Date(timeIntervalSince1970: 1_767_225_600)   // 2026-01-01T00:00:00Z

        /// `system`, `manual` or `manual:2026-01-01T00:00:00Z`; nil for anything else.
        init?(_ text: String) {
            if text == "system" {
                self = .system
            } else if text == "manual" {
                self = .manual(Self.manualStart)
            } else if text.hasPrefix("manual:"), let start = ISO8601DateFormatter().date(from: String(text.dropFirst(7))) {
                self = .manual(start)
            } else {
                return nil
            }
        }
    }

    private let base: (any FeedClock)?
    private let manual: Mutex<Date>
    private let observers = Mutex<[@Sendable (Date) -> Void]>([])

    /// Reads `base` (the wall clock, or a test's).
    init(base: any FeedClock) {
        self.base = base
        manual = Mutex(Date(timeIntervalSince1970: 0))
    }

    /// Stands at `start` until moved.
    init(manualFrom start: Date) {
        base = nil
        manual = Mutex(start)
    }

    convenience init(_ setting: Setting) {
        switch setting {
        case .system: self.init(base: SystemClock())
        case .manual(let start): self.init(manualFrom: start)
        }
    }

    var isManual: Bool { base == nil }

    func now() -> Date {
        base?.now() ?? manual.withLock { $0 }
    }

    /// Moves a manual clock on by `seconds` and tells every observer, in the order they came;
    /// nil for the wall clock, which no one moves.
    func advance(by seconds: Double) -> Date? {
        guard isManual else { return nil }
        let now = manual.withLock { current in
            current = current.addingTimeInterval(seconds)
            return current
        }
        for observer in observers.withLock({ $0 }) { observer(now) }
        return now
    }

    /// Calls `observer` after each move of a manual clock.
    func observe(_ observer: @escaping @Sendable (Date) -> Void) {
        observers.withLock { $0.append(observer) }
    }
}
