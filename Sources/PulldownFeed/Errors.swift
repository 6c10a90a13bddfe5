import InvalidInput

/// Errors caused by the caller's input.
public enum FeedError: Error, Equatable {
    /// Every bad field, in the order title, body, author.
    case invalid([InvalidParam])
    /// No item ever had this id.
    case noSuchItem(Int64)
    /// The item with this id was deleted.
    case deleted(Int64)
    /// The changes after this sequence number are no longer all kept (the log keeps the newest
    /// `FeedConfiguration.changesKept`, and a reset starts it anew): start over from the
    /// newest page.
    case changesExpired(since: Int64)
}
