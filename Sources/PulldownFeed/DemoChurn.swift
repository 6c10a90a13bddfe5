import Foundation

/// How many edits (or deletions) are due at a rate a minute, kept as the time up to which they
/// were made: a pure function of that time, the rate and now, so every instance on a shared
/// store, going on from the same stored time, makes them at the rate together, not each.
struct ChurnSchedule: Equatable {
    /// Changes to make now.
    let due: Int
    /// The time up to which changes are made once these are: a fraction of a change carries
    /// over to the next time.
    let through: Double

    /// At most a second's worth at once (at least one), so a rate turned up after a long while
    /// is not a burst of everything missed.
    static func cap(perMinute rate: Double) -> Int {
        max(1, Int((rate / 60).rounded(.up)))
    }

    /// What is due at `rate` a minute since `last` (nil: never; start counting now), at `now`.
    init(perMinute rate: Double, since last: Double?, now: Double) {
        guard rate > 0, let last, now > last else {
            self.init(due: 0, through: rate > 0 ? (last.map { min($0, now) } ?? now) : now)
            return
        }
        // A hair more, so a change due exactly now is not lost to rounding.
        let owed = ((now - last) * rate / 60 + 1e-9).rounded(.down)
        let cap = Self.cap(perMinute: rate)
        if owed > Double(cap) {
            self.init(due: cap, through: now)
        } else {
            self.init(due: Int(owed), through: last + owed * 60 / rate)
        }
    }

    init(due: Int, through: Double) {
        self.due = due
        self.through = through
    }
}

/// An edit the demo makes to an item, as a real one would look: a title reworded, a picture
/// swapped, a like count that moves.
public enum DemoEdit: Sendable, Equatable {
    case title(String)
    /// The JSON object of one of the demo's pictures (`DemoPictures`), with its size and alt text.
    case image(String)
    /// Added to the item's `likes` (an item without one starts from a few).
    case likes(Int)

    /// The edit the demo makes to `item`: the same item at the same version always gets the same
    /// one, so a seeded demo stays the same demo.
    public static func of(_ item: Item) -> DemoEdit {
        var rng = SplitMix64(seed: UInt64(bitPattern: item.id) &* 0x9E37_79B9 ^ UInt64(bitPattern: item.version) ^ 0x6564_6974)
        switch rng.next() % 10 {
        case 0..<4:
            return .title(reworded(item.title, using: &rng))
        case 4..<7:
            // One of the demo's pictures, another one than it may have.
            let numbers = (1...40).map { Int64($0 * 10 + [1, 4, 7][$0 % 3]) }
            return .image(imageJSON(number: rng.pick(numbers)))
        default:
            return .likes(Int(rng.next() % 12) - 2)
        }
    }

    /// `title` in other words: another opener or ending where it has one of the demo's, else with
    /// "(updated)" added once.
    static func reworded(_ title: String, using rng: inout SplitMix64) -> String {
        if let opener = DemoContent.openers.first(where: { title.hasPrefix($0 + " ") }) {
            let other = rng.pick(DemoContent.openers.filter { $0 != opener })
            return other + title.dropFirst(opener.count)
        }
        if let ending = DemoContent.titleEndings.first(where: { title.hasSuffix(" " + $0) }) {
            return title.dropLast(ending.count) + rng.pick(DemoContent.titleEndings.filter { $0 != ending })
        }
        return title.hasSuffix(" (updated)") ? String(title.dropLast(" (updated)".count)) : String(title.prefix(190)) + " (updated)"
    }

    /// Demo picture `number` (one that ends in 1, 4 or 7, as `of` picks) as an item's `image`.
    static func imageJSON(number: Int64) -> String {
        let image = DemoPictures.image(number: number)!
        return #"{"url":"\#(DemoPictures.routePrefix)image-\#(number).png","width":\#(image.width),"#
            + #""height":\#(image.height),"alt":"\#(image.alt)"}"#
    }
}

/// The demo's edits and deletions: when they are due, and on which items.
extension Feed {
    /// How many edits and deletions are due now at these rates a minute (see `ChurnSchedule`),
    /// counted off in the store: on a shared store the instances make them at the rates together.
    public func dueChurn(editsPerMinute: Double, deletesPerMinute: Double) throws -> (edits: Int, deletes: Int) {
        let now = clock.now().timeIntervalSince1970
        return try store.write { store in
            try store.lockForInserts()
            let edits = ChurnSchedule(perMinute: editsPerMinute, since: try store.metaDouble(MetaKey.churnEditsTime), now: now)
            let deletes = ChurnSchedule(perMinute: deletesPerMinute, since: try store.metaDouble(MetaKey.churnDeletesTime), now: now)
            try store.setMeta(MetaKey.churnEditsTime, double: edits.through)
            try store.setMeta(MetaKey.churnDeletesTime, double: deletes.through)
            return (edits.due, deletes.due)
        }
    }

    /// `count` different items to change, about half among the newest and half anywhere in the
    /// feed (recent and older items alike); fewer when the feed has fewer. Chosen from the feed's
    /// sequence and the demo's seed, so the same history chooses the same items.
    public func churnTargets(count: Int) throws -> [Int64] {
        guard count > 0, let newest = try newestID() else { return [] }
        var rng = SplitMix64(seed: configuration.demoSeed ^ 0x6368_7572_6E00, position: UInt64(bitPattern: try sequence()))
        let recent = try page(before: nil, limit: 50).items.map(\.id)
        var chosen: [Int64] = []
        for index in 0..<(count * 3) where chosen.count < count {
            let candidate: Int64?
            if index % 2 == 0 || recent.isEmpty {
                // The item at or below a place anywhere in the feed.
                let place = Int64(rng.next() % UInt64(newest)) + 1
                candidate = try page(before: place + 1, limit: 20).items.first?.id
            } else {
                candidate = rng.pick(recent)
            }
            if let candidate, !chosen.contains(candidate) { chosen.append(candidate) }
        }
        return chosen
    }
}
