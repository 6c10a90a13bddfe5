import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PulldownClient {
    /// The live stream: the items added from now on (after `after`, when given: the newest id
    /// you hold), resets and demo changes, as they happen.
    ///
    /// It reconnects by itself as a browser's `EventSource` does: after a drop it opens again
    /// after the server's `retry:` time and sends `Last-Event-ID`, so it receives exactly what it
    /// missed, none twice, none lost; a refused stream (429, 503 past the server's stream limit)
    /// waits as its `Retry-After` says. It ends with an error only when the server will not serve
    /// it as asked (a 400 for a bad cursor), and when the loop stops reading it the connection
    /// closes. A stream silent for a minute (the server pings every 15 s) is taken for dropped.
    public func events(after: Int64? = nil) -> AsyncThrowingStream<LiveEvent, any Error> {
        AsyncThrowingStream { output in
            let task = Task { await self.follow(after: after, into: output) }
            output.onTermination = { _ in task.cancel() }
        }
    }

    private func follow(after: Int64?, into output: AsyncThrowingStream<LiveEvent, any Error>.Continuation) async {
        var parser = EventStreamParser()
        var reconnection = Reconnection()
        let configuration = Self.configuration(timeout: 60)
        while !Task.isCancelled {
            var opened = false
            let ending: Reconnection.Ending
            do {
                let request = try eventsRequest(after: after, lastEventID: parser.lastEventID)
                let answer = try await StreamingAnswer.open(request, configuration: configuration)
                noteSession(answer.response.value(forHTTPHeaderField: "X-Session-Id"))
                if let refusal = try await refusal(answer, url: request.url!) {
                    ending = refusal
                } else {
                    opened = true
                    reconnection.opened()
                    parser.reconnected()
                    for try await chunk in answer.body {
                        for read in parser.consume(chunk) {
                            switch read {
                            case .retry(let milliseconds): reconnection.retry(milliseconds: milliseconds)
                            case .event(let event): output.yield(LiveEvent(event, base: request.url!))
                            }
                        }
                    }
                    ending = .ended
                }
            } catch {
                if Task.isCancelled { break }
                ending = opened ? .ended : .unreachable
            }
            switch reconnection.ended(ending, random: Double.random(in: 0...1)) {
            case .reconnect(let delay):
                try? await Task.sleep(for: delay)
            case .finish(let error):
                output.finish(throwing: error)
                return
            }
        }
        output.finish()
    }

    /// `GET /api/events` from the last event id, else from `after`.
    private func eventsRequest(after: Int64?, lastEventID: String) throws -> URLRequest {
        let query = lastEventID.isEmpty ? after.map { [URLQueryItem(name: "after", value: String($0))] } ?? [] : []
        return try request(url("api/events", query: query), accept: "text/event-stream",
                           headers: lastEventID.isEmpty ? [:] : ["Last-Event-ID": lastEventID])
    }

    /// Why `answer` is no event stream to read (WHATWG: a 200 of another type fails the
    /// connection), or nil when it is one.
    private func refusal(_ answer: StreamingAnswer, url: URL) async throws -> Reconnection.Ending? {
        let status = answer.response.statusCode
        let type = answer.response.value(forHTTPHeaderField: "Content-Type") ?? ""
        if status == 200, type.lowercased().hasPrefix("text/event-stream") { return nil }
        var body = Data()
        for try await chunk in answer.body where body.count < 65_536 { body.append(chunk) }
        if status == 200 {
            return .rejected(UnexpectedAnswer(url: url, status: status, reason: "not an event stream: \(type)"))
        }
        let problem = ProblemDetails(status: status, body: body,
                                     retryAfter: answer.response.value(forHTTPHeaderField: "Retry-After"))
        return status == 429 || status >= 500 ? .refused(problem) : .rejected(problem)
    }
}
