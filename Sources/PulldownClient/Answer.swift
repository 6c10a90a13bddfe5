import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer as the client keeps it: what was asked, the status, the headers it reads and
/// the body.
struct Answer: Sendable {
    let url: URL
    let status: Int
    /// Header names lowercased.
    let headers: [String: String]
    let body: Data
    /// A 304 stood for this earlier answer.
    var notModified = false

    init(url: URL, response: HTTPURLResponse, body: Data) {
        self.url = url
        status = response.statusCode
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields {
            headers[name.lowercased()] = value
        }
        self.headers = headers
        self.body = body
    }

    /// The body as `type`, its links resolved against the URL asked.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try Answer.decoder(base: url).decode(type, from: body)
        } catch {
            throw UnexpectedAnswer(url: url, status: status, reason: "\(error)")
        }
    }

    /// How the API's JSON is read: dates as ISO 8601, links against `base`.
    static func decoder(base: URL) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.userInfo[.pulldownBase] = base
        return decoder
    }
}

/// The last answers that carried an `ETag`, by URL, so that asking again sends `If-None-Match`
/// and a 304 can stand for the answer kept. Bounded: the oldest goes first.
struct ETagCache: Sendable {
    let capacity: Int
    private var answers: [URL: Answer] = [:]
    private var order: [URL] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The answer kept for `url`, if any.
    func answer(for url: URL) -> Answer? { answers[url] }

    /// Keeps `answer` if it has a validator.
    mutating func keep(_ answer: Answer) {
        guard answer.headers["etag"] != nil else { return }
        if answers.updateValue(answer, forKey: answer.url) == nil { order.append(answer.url) }
        if order.count > capacity { answers[order.removeFirst()] = nil }
    }
}
