import Foundation
import PulldownDataFile
import PulldownFeed
import PulldownHTTP

/// Where the feed's items come from: the demo seed (`--seed`) or a data file (`--data`), taken in
/// at start, and again from scratch by a reset (`--reset` at start, `POST /api/demo/reset` while
/// the server runs).
struct FeedOrigin: Sendable {
    let seedCount: Int
    /// Whether `--seed` was given: only then is a seed that was not applied said.
    let seedGiven: Bool
    /// nil: the demo seed.
    let dataFile: DataFileReference?

    init(_ configuration: Configuration) {
        seedCount = configuration.seedCount
        seedGiven = configuration.seedGiven
        dataFile = configuration.dataFile.map { DataFileReference(path: $0, collection: configuration.dataCollection) }
    }

    /// Fills the feed: anew when `reset` (the demo seed, or the data file as it is now); else
    /// seeds an empty store or takes the data file in (see `DataFileImport`). Returns what the
    /// data file left, for `--watch`; nil without one.
    func fill(_ feed: Feed, reset: Bool) throws -> DataFileImport.Loaded? {
        if let dataFile { return try DataFileImport.load(dataFile, reset: reset, into: feed, say: ErrorLog.write) }
        if reset {
            try feed.resetToDemo(count: seedCount)
        } else if try feed.seedIfEmpty(count: seedCount) == 0, seedGiven && seedCount > 0 {
            // A seed fills an empty store only: say so rather than leave a user wondering.
            let held = try feed.itemCount()
            ErrorLog.write("the store already holds \(held) item\(held == 1 ? "" : "s"); --seed \(seedCount) was not applied (--reset applies it)")
        }
        return nil
    }
}
