import InvalidInput

/// Errors caused by the caller's input.
public enum FeedError: Error, Equatable {
    /// Every bad field, in the order title, body, author.
    case invalid([InvalidParam])
}
