import PulldownFeed

/// `--data` at start-up: fills an empty store from the file, and replaces the untouched demo feed
/// (or, with `--reset`, anything); keeps a store already filled from it, adding the entries the
/// file gained since (a file that still begins with exactly the bytes the store took in is the
/// same file, grown: see `DataSourceMark`); refuses any other store with items.
public enum DataFileImport {
    public struct Loaded: Sendable {
        /// What the store now remembers, where `--watch` goes on from.
        public let mark: DataSourceMark
    }

    /// Takes the file in; `say` hears what the operator should know (the file grew, or replaced the demo feed).
    public static func load(_ reference: DataFileReference, reset: Bool, into feed: Feed,
                            say: (String) -> Void) throws -> Loaded {
        let path = reference.path
        let state: DataSourceState = reset ? .empty : try feed.dataSourceState()
        if state == .otherItems { throw DataFileError(path: path, DataFile.refusal(fromAnotherFile: false)) }
        let previous: DataSourceMark? = if case .filled(let mark) = state { mark } else { nil }
        let file = try DataFile(reference, after: previous)
        let progress = ImportProgressLine.forImport(of: path)
        file.progressLine = progress
        do {
            if let previous {
                let added = try feed.appendItems(from: file, after: previous)
                if added > 0 {
                    say("\(path) grew since the store took it in: \(added) entr\(added == 1 ? "y" : "ies") added as the newest items")
                }
            } else {
                let replacing: ImportReplacing = reset ? .everything : state == .demo ? .demoFeed : .nothing
                _ = try feed.importItems(from: file, replacing: replacing)
                if replacing == .demoFeed {
                    say("\(path) replaces the demo feed the store held (nothing had been posted to it)")
                }
            }
        } catch {
            progress?.clear()
            throw file.describe(error) ?? error
        }
        progress?.finish()
        feed.useDemoTemplates(templates(reference))
        // The store reads the file through `forEachEntry`, which sets the mark.
        guard let mark = file.mark else { throw DataFileError(path: path, "was not read to its end") }
        return Loaded(mark: mark)
    }

    /// The file's first entries (`DemoTemplates.maximumCount`), read from its start whatever
    /// the store took in, for demo items in their shape.
    private static func templates(_ reference: DataFileReference) -> [NewItem] {
        struct Enough: Error {}
        var items: [NewItem] = []
        guard let file = try? DataFile(reference, after: nil, strict: false) else { return [] }
        _ = try? file.forEachEntry { entry in
            items.append(entry.new)
            if items.count == DemoTemplates.maximumCount { throw Enough() }
        }
        return items
    }
}
