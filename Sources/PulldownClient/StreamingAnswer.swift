import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer read as it arrives: its head, then its body in chunks as they come.
///
/// Through a URLSessionDataDelegate: FoundationNetworking on Linux has no `bytes(for:)`, and the
/// delegate works the same on Apple platforms. Each answer has a URLSession of its own (a
/// delegate is given per session), let go of when its task ends.
struct StreamingAnswer: Sendable {
    let response: HTTPURLResponse
    /// Ends when the answer does, with the transport's error if it failed; stopping to read it
    /// cancels the request.
    let body: AsyncThrowingStream<Data, any Error>

    /// Sends `request`; returns once the answer's head has arrived. Cancelling the calling task
    /// cancels the request.
    static func open(_ request: URLRequest, configuration: URLSessionConfiguration) async throws -> StreamingAnswer {
        let delegate = Delegate()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = Unchecked(session.dataTask(with: request))
        delegate.body.onTermination = { _ in task.value.cancel() }
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { head in
                delegate.awaitHead(head)
                task.value.resume()
                session.finishTasksAndInvalidate() // the session lets go of its delegate once the task ends
            }
        } onCancel: {
            task.value.cancel()
        }
        return StreamingAnswer(response: response, body: delegate.chunks)
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let head = Locked<CheckedContinuation<HTTPURLResponse, any Error>?>(nil)
        let chunks: AsyncThrowingStream<Data, any Error>
        let body: AsyncThrowingStream<Data, any Error>.Continuation

        override init() {
            (chunks, body) = AsyncThrowingStream.makeStream()
        }

        func awaitHead(_ continuation: CheckedContinuation<HTTPURLResponse, any Error>) {
            head.withLock { $0 = continuation }
        }

        private func takeHead() -> CheckedContinuation<HTTPURLResponse, any Error>? {
            head.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            guard let response = response as? HTTPURLResponse else {
                completionHandler(.cancel)
                return
            }
            takeHead()?.resume(returning: response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            body.yield(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            takeHead()?.resume(throwing: error ?? URLError(.badServerResponse))
            body.finish(throwing: error)
        }
    }
}

/// A value URLSession's types do not mark Sendable, handed across only to call its thread-safe
/// methods (`URLSessionTask.resume` and `cancel`).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
