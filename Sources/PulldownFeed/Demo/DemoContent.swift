/// SplitMix64: a tiny, fast, seedable generator, so demo content is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The generator `seed` gives after `position` draws: its state moves by a constant each time.
    init(seed: UInt64, position: UInt64) {
        state = seed &+ position &* Self.step
    }

    private static let step: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> UInt64 {
        state &+= Self.step
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(next() % UInt64(choices.count))]
    }
}

/// Plausible demo items. Item number `n` always gets the same title, body and author.
enum DemoContent {
    struct Text {
        let title: String
        let body: String
        let author: String
    }

    static func text(number: Int64) -> Text {
        // Mixed with a constant so item 0 and item 1 do not start from neighbouring states.
        var rng = SplitMix64(seed: UInt64(bitPattern: number) ^ 0x5075_6C6C_646F_776E)
        let subject = rng.pick(subjects)
        let title = "\(rng.pick(openers)) \(subject) \(rng.pick(titleEndings))"
        var body = "\(rng.pick(bodyStarts)) \(subject) \(rng.pick(bodyMiddles))."
        if rng.next() % 2 == 0 {
            body += " \(rng.pick(secondSentences))"
        }
        return Text(title: title, body: body, author: rng.pick(authors))
    }

    /// Demo item `number` as it is stored, with its pictures (`DemoPictures`).
    static func draft(number: Int64, createdAt: Int64) -> ItemDraft {
        let text = text(number: number)
        return ItemDraft(title: text.title, body: text.body, author: text.author, createdAt: createdAt,
                         userFields: DemoPictures.userFields(number: number, author: text.author))
    }

    static let openers = [
        "Why the", "A closer look at the", "Notes on the", "What we learned from the", "Inside the",
        "Rethinking the", "Three tips for the", "The quiet rise of the", "A field guide to the",
        "Fixing the", "Measuring the", "Small wins with the", "Shipping the", "Debugging the",
    ]

    static let subjects = [
        "pull-to-refresh gesture", "infinite scroll", "sticky header", "loading spinner",
        "offline cache", "night market", "harbour ferry", "rooftop garden", "sourdough starter",
        "city bike lane", "morning standup", "release train", "keyboard shortcut", "dark mode toggle",
        "coffee grinder", "weekend hike", "library card", "tram timetable", "hot-reload loop",
        "screen reader path", "empty state", "skeleton screen", "retry button", "photo backup",
    ]

    static let titleEndings = [
        "matters", "in practice", "this week", "at scale", "on a budget", "explained", "revisited",
        "for beginners", "in 5 minutes", "after a year", "done right", "without the hype",
    ]

    static let bodyStarts = [
        "We spent the afternoon with the", "Readers keep asking about the", "Nobody expected the",
        "Here is a short update on the", "Our team finally tried the", "It turns out the",
        "A neighbour showed us the", "After many small experiments, the",
    ]

    static let bodyMiddles = [
        "and came away impressed", "and it behaves better than it looks", "which surprised everyone",
        "and the numbers speak for themselves", "which still needs some polish",
        "and we wrote down what worked", "which is easier than it sounds", "and it saved us an hour",
    ]

    static let secondSentences = [
        "More next week.", "Tell us what you think.", "Photos are in the thread.",
        "The details are below.", "Thanks to everyone who helped.", "We will keep an eye on it.",
        "It is not perfect, but it is a start.", "Try it and report back.",
    ]

    static let authors = [
        "Ada Park", "Bruno Silva", "Chen Wei", "Dana Okafor", "Elif Yilmaz", "Farah Haddad",
        "Gustav Lind", "Hana Sato", "Ivan Petrov", "Jade Moreau", "Kofi Mensah", "Lena Novak",
        "Mateo Rossi", "Nadia Rahman", "Omar Aziz", "Priya Nair", "Quinn Murphy", "Rosa Vega",
        "Sami Korhonen", "Tomás Ortega", "Uma Iyer", "Victor Dubois", "Wen Li", "Ximena Cruz",
        "Yara Costa", "Zoe Fischer", "Aiko Tanaka", "Ben Carter", "Clara Jensen", "Diego Ramos",
        "Esther Cohen", "Felix Wagner",
    ]
}
