import PulldownFeed

/// What front-end developers ask of a fake backend: slow answers, failures on demand, new items
/// now and then, and items edited and deleted under the reader. One value: start-up gives its first state, `GET /api/demo` shows it and
/// `PATCH /api/demo` changes it while the server runs (see `DemoControl`).
public struct DemoKnobs: Sendable, Equatable {
    public var delayMilliseconds = 0
    public var jitterMilliseconds = 0
    public var failRate = 0.0
    /// Seconds between generated demo items; 0 turns the generator off.
    public var newItemsEvery: Double = FeedConfiguration().newItemsEvery
    /// Items the demo edits a minute (`DemoChurn`), and deletes; 0 for none.
    public var editsPerMinute: Double = 0
    public var deletesPerMinute: Double = 0
    /// Paging's awkward cases (`PagePlan`): the share of pages answered short while more exist,
    /// and how long a cursor in a link lasts (0: for ever).
    public var shortPages = 0.0
    public var cursorTtlSeconds = 0

    public init() {}

    init(delayMilliseconds: Int = 0, jitterMilliseconds: Int = 0, failRate: Double = 0,
         newItemsEvery: Double = FeedConfiguration().newItemsEvery, editsPerMinute: Double = 0, deletesPerMinute: Double = 0) {
        self.delayMilliseconds = delayMilliseconds
        self.jitterMilliseconds = jitterMilliseconds
        self.failRate = failRate
        self.newItemsEvery = newItemsEvery
        self.editsPerMinute = editsPerMinute
        self.deletesPerMinute = deletesPerMinute
    }

    /// The values each knob may take, from the command line and from `PATCH /api/demo` alike.
    static let delayRange: ClosedRange<Int> = 0...600_000
    static let failRateRange: ClosedRange<Double> = 0...1
    static let newItemsEveryRange: ClosedRange<Double> = 0...86_400
    /// Up to a thousand a second.
    static let churnRange: ClosedRange<Double> = 0...60_000
    static let shortPagesRange: ClosedRange<Double> = 0...1
    /// Up to a day.
    static let cursorTtlRange: ClosedRange<Int> = 0...86_400

    /// The largest `_delay`, so a typo cannot hold a connection for an hour.
    static let maxDelayMilliseconds = 10_000
    static let failableStatuses: [Int: String] = [
        429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
    ]
}
