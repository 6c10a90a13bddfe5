import PulldownDataFile
import PulldownFeed

/// The line start-up prints after `Listening on …`, saying what the feed holds and where from:
/// `Serving the demo feed (50 items) from pulldown.sqlite`, `Serving 40 items from blog.json`.
enum ServingLine {
    /// `state` and `count` as the store holds them now; `dataFile` is `--data` as given, and
    /// `store` where the store is (`FeedStores.describe`).
    static func text(state: DataSourceState, count: Int64, dataFile: String?, store: String) -> String {
        switch state {
        case .empty:
            return "Serving an empty feed from \(store)"
        case .demo:
            return "Serving the demo feed (\(items(count))) from \(store)"
        case .otherItems:
            return "Serving \(items(count)) from \(store)"
        case .filled(let mark):
            guard let file = dataFile else { return "Serving \(items(count)) from \(store), taken in from a data file" }
            let entries = Int64(mark.entriesTakenIn ?? 0)
            guard count > entries else { return "Serving \(items(count)) from \(file)" }
            return "Serving \(items(count)): \(Thousands.grouped(entries)) from \(file), \(Thousands.grouped(count - entries)) added since"
        }
    }

    /// "1 item", "40 items", "1,200 items".
    static func items(_ count: Int64) -> String {
        "\(Thousands.grouped(count)) item\(count == 1 ? "" : "s")"
    }
}
