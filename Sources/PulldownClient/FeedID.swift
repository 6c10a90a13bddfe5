/// The name of the feed an answer comes from.
///
/// The server creates it with its store and renews it at every reset. Ids are unique within one
/// feed only, so a cursor is sent with the name of the feed it came from (`feed=`); an answer
/// naming another feed, or a 410 ``ProblemDetails/isFeedChanged``, means the feed started over:
/// drop what you hold and start again from the newest page.
public struct FeedID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(rawValue)
    }

    public var description: String { rawValue }
}
