import Foundation

/// An answer that is not a success, as the server explains it (RFC 9457, problem+json).
///
/// Every 4xx and 5xx the client receives is thrown as this: its status, the problem's `type`,
/// `title` and `detail`, each bad parameter the server named, and how long to wait before trying
/// again when the server said so (`Retry-After`, on 429 and 503). An answer without a problem
/// body still gives its status.
public struct ProblemDetails: Error, Sendable, Hashable, CustomStringConvertible {
    /// One bad query parameter, body field or header, and why.
    public struct InvalidParam: Sendable, Hashable, Decodable {
        public let name: String
        public let reason: String
    }

    public let status: Int
    /// `about:blank` when the status says it all.
    public let type: String
    public let title: String?
    /// What went wrong, for a developer (not words for the reader of the feed).
    public let detail: String?
    /// Each bad parameter, for validation errors; empty otherwise.
    public let invalidParams: [InvalidParam]
    /// `Retry-After`: wait this long before asking again.
    public let retryAfter: Duration?

    /// A page or item asked for by the name of a feed the server no longer serves (410): the feed
    /// started over; drop what you hold and start again from the newest page.
    public var isFeedChanged: Bool { status == 410 && type.hasSuffix(":feed-changed") }
    /// A page asked for by a link older than the server keeps cursors (410): start again from
    /// the newest page, or jump back to an item held with ``PageQuery/around(_:feed:limit:)``.
    public var isCursorExpired: Bool { status == 410 && type.hasSuffix(":cursor-expired") }

    public var description: String {
        let params = invalidParams.map { "\($0.name): \($0.reason)" }.joined(separator: "; ")
        return "\(status) \(title ?? "") \(detail ?? "")\(params.isEmpty ? "" : " (\(params))")"
    }

    public init(status: Int, type: String = "about:blank", title: String? = nil, detail: String? = nil,
                invalidParams: [InvalidParam] = [], retryAfter: Duration? = nil) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.invalidParams = invalidParams
        self.retryAfter = retryAfter
    }

    /// The problem an answer of `status` describes in `body`, with the `Retry-After` it carried
    /// (seconds, or an HTTP date read against `now`).
    init(status: Int, body: Data, retryAfter: String?, now: Date = Date()) {
        let problem = try? JSONDecoder().decode(Body.self, from: body)
        self.init(status: status, type: problem?.type ?? "about:blank", title: problem?.title,
                  detail: problem?.detail, invalidParams: problem?.invalidParams ?? [],
                  retryAfter: retryAfter.flatMap { Self.delay($0, now: now) })
    }

    /// `Retry-After` as a wait: delta-seconds, or an HTTP date (a past one is no wait).
    static func delay(_ header: String, now: Date) -> Duration? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }

    private struct Body: Decodable {
        let type: String?
        let title: String?
        let detail: String?
        let invalidParams: [InvalidParam]?

        enum CodingKeys: String, CodingKey {
            case type, title, detail
            case invalidParams = "invalid_params"
        }
    }
}

/// An answer the client could not read as the API describes it.
public struct UnexpectedAnswer: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL asked.
    public let url: URL
    public let status: Int
    /// What was wrong with it.
    public let reason: String

    public var description: String { "\(status) from \(url): \(reason)" }
}
