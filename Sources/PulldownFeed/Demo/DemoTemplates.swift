import Synchronization

/// What a made-up demo item looks like: the generated demo text with its pictures, or, once the
/// feed was filled from a data file, one of that file's first entries (`Feed.useDemoTemplates`),
/// cycled through, with its own fields, so added items have the shape of the user's.
public final class DemoTemplates: Sendable {
    /// Entries kept as templates at most: the first ones of the file, however long it is.
    public static let maximumCount = 50
    private let templates = Mutex<[NewItem]>([])

    func use(_ items: [NewItem]) {
        templates.withLock { $0 = Array(items.prefix(Self.maximumCount)) }
    }

    /// Demo item `number` as it is stored, made `createdAt`.
    func draft(number: Int64, createdAt: Int64) -> ItemDraft {
        // Templates passed these checks when the file was imported; stored as a post would be.
        guard let template = template(number), let valid = try? Validation.check(template) else {
            return DemoContent.draft(number: number, createdAt: createdAt)
        }
        return ItemDraft(title: valid.title, body: valid.body, author: valid.author, createdAt: createdAt,
                         userFields: valid.userFields)
    }

    private func template(_ number: Int64) -> NewItem? {
        templates.withLock { templates in
            templates.isEmpty ? nil : templates[Int(UInt64(bitPattern: number) % UInt64(templates.count))]
        }
    }
}

extension Feed {
    /// Demo items (`--new-items-every`, the demo control API) copy these from now on.
    public func useDemoTemplates(_ items: [NewItem]) {
        generator.templates.use(items)
    }

    /// Adds the next `count` items of the demo sequence (`DemoSequence`) now, in one
    /// transaction; `completion` gets them newest first (or the failure) later, on the writer
    /// queue. Requests that arrive together are committed together, in order.
    public func addDemoItems(count: Int, completion: @escaping @Sendable (Result<[Item], any Error>) -> Void) {
        demoItems.submit(count, completion: completion)
    }
}
