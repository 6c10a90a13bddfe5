/// One refused input, named as the client named it (a JSON field, a query parameter, a header),
/// and why: what the feed's validation returns and what a problem+json answer lists under
/// `invalid_params` (RFC 9457). Its own module, so that the feed and the HTTP layer share it
/// without either knowing the other.
public struct InvalidParam: Sendable, Equatable, Error {
    /// As the client named it: "title", "limit", "image.width".
    public let name: String
    /// A short human sentence, e.g. "must be 1 to 200 characters after trimming".
    public let reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}
