/// One rejected input field and why.
public struct FieldError: Sendable, Equatable {
    /// The field as the client named it: "title", "body" or "author".
    public let name: String
    /// A short human sentence, e.g. "must be 1 to 200 characters after trimming".
    public let reason: String

    init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// Errors caused by the caller's input.
public enum FeedError: Error, Equatable {
    /// Every bad field, in the order title, body, author.
    case invalid([FieldError])
}
