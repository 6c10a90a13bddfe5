/// How a body is sent slowly, as a slow network would deliver it: at a bandwidth, with a pause
/// partway through.
public struct Pacing: Sendable, Equatable {
    /// Bytes a second; 0: as fast as the connection takes them.
    var bytesPerSecond: Int
    /// A pause after `stallAfter` of the body (a share, 0 to 1); zero: none.
    var stall: Duration
    var stallAfter: Double

    public init(bytesPerSecond: Int = 0, stall: Duration = .zero, stallAfter: Double = 0.5) {
        self.bytesPerSecond = max(0, bytesPerSecond)
        self.stall = stall
        self.stallAfter = min(1, max(0, stallAfter))
    }

    /// Nothing to pace: the body goes out as it is.
    public var isNone: Bool { bytesPerSecond == 0 && stall <= .zero }
}

/// When each slice of a paced body goes out, as a pure state machine: `PacedBody` asks `next`
/// at the start and on every wake, and writes or waits as told.
///
/// The schedule is fixed at the start: byte `b` has arrived `b / bytesPerSecond` after it
/// (plus the pause, for the bytes after the stall point). A slice is written once its last
/// byte has arrived, so the head goes out first and the last byte when the whole body would
/// have arrived, and a late wake catches up at once instead of pushing the rest later.
///
/// ```
/// next(now) ─ all sent ──────────────▶ finish
///           ─ next slice has arrived ─▶ write(range), then next again
///           ─ not yet ────────────────▶ wait(until: its arrival)
/// ```
struct PacingState {
    enum Action: Equatable {
        /// Write these bytes of the body, then ask again.
        case write(Range<Int>)
        /// Nothing is due before this instant: ask again then.
        case wait(until: ContinuousClock.Instant)
        /// Every byte was written.
        case finish
    }

    let length: Int
    let pacing: Pacing
    let start: ContinuousClock.Instant
    /// Bytes written at once: about a tenth of a second's worth, so a slow link gets a steady
    /// trickle and a thousand of them still wake the server rarely.
    let sliceBytes: Int
    /// The bytes before the pause; nil when there is none.
    let stallPoint: Int?
    private(set) var sent = 0

    init(length: Int, pacing: Pacing, start: ContinuousClock.Instant, slice: Duration = .milliseconds(100)) {
        self.length = max(0, length)
        self.pacing = pacing
        self.start = start
        if pacing.bytesPerSecond == 0 {
            sliceBytes = max(1, self.length)
        } else {
            let perSlice = Double(pacing.bytesPerSecond) * Self.seconds(slice)
            sliceBytes = Int(min(max(perSlice, 512), Double(1 << 20)))
        }
        let point = Int((Double(self.length) * pacing.stallAfter).rounded(.down))
        stallPoint = pacing.stall > .zero && point < self.length ? point : nil
    }

    mutating func next(now: ContinuousClock.Instant) -> Action {
        guard sent < length else { return .finish }
        var target = min(sent + sliceBytes, length)
        if let stallPoint, sent < stallPoint { target = min(target, stallPoint) }
        let arrival = arrival(of: target)
        guard now >= arrival else { return .wait(until: arrival) }
        let from = sent
        sent = max(target, due(at: now))
        return .write(from..<sent)
    }

    /// When the first `bytes` bytes have arrived.
    func arrival(of bytes: Int) -> ContinuousClock.Instant {
        var at = start + transfer(bytes)
        if let stallPoint, bytes > stallPoint { at += pacing.stall }
        return at
    }

    /// How many bytes have arrived by `now`.
    func due(at now: ContinuousClock.Instant) -> Int {
        let elapsed = Self.seconds(now - start)
        var bytes = arrived(in: elapsed)
        if let stallPoint, bytes > stallPoint {
            bytes = max(stallPoint, arrived(in: elapsed - Self.seconds(pacing.stall)))
        }
        return min(max(0, bytes), length)
    }

    private func arrived(in seconds: Double) -> Int {
        guard seconds >= 0 else { return 0 }
        guard pacing.bytesPerSecond > 0 else { return length }
        return Int(min(Double(length), (seconds * Double(pacing.bytesPerSecond)).rounded(.down)))
    }

    private func transfer(_ bytes: Int) -> Duration {
        guard pacing.bytesPerSecond > 0 else { return .zero }
        // Rounded up, so that at `arrival(of: b)` at least `b` bytes are due.
        return .nanoseconds(Int64((Double(bytes) * 1e9 / Double(pacing.bytesPerSecond)).rounded(.up)))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
