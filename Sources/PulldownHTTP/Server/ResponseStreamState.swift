/// A response body written while it is being sent (server-sent events), as a pure state machine.
///
/// Writers on any thread append chunks; libmicrohttpd's content reader, on the connection's
/// thread, takes them. When there is nothing to take, the reader suspends the connection (so
/// it costs no thread and no busy loop), and the next write or the close resumes it: the
/// `Suspension` machine, shared with requests waiting for their answer, with "work" meaning
/// bytes to send or the end to send.
///
/// Chunks are kept as the arrays they were written as, so one event written to many streams is
/// one buffer shared by all of them, never copied until it goes into a socket's buffer.
struct ResponseStreamState {
    /// What the writer must do once it has released the lock.
    typealias Wake = Suspension.Wake

    /// What the content reader returns.
    enum Read: Equatable {
        /// This many bytes were copied into the buffer.
        case wrote(Int)
        /// Closed and drained: end the body.
        case end
        /// Nothing to send: suspend the connection, return 0, then report `suspended()`.
        case suspend
    }

    /// Bytes written and not yet sent past which the reader is taken to be too slow: the
    /// stream is closed (a client that reconnects catches up from its own cursor).
    let maxPendingBytes: Int
    private(set) var suspension = Suspension()
    private(set) var isClosed = false
    /// True when the stream was closed because its reader fell too far behind.
    private(set) var overflowed = false
    private(set) var pendingBytes = 0
    private var pending: [[UInt8]] = []
    /// Where the first pending chunk starts: `pending` is consumed from the front.
    private var head = 0
    private var offsetInHead = 0

    init(maxPendingBytes: Int) {
        self.maxPendingBytes = maxPendingBytes
    }

    /// Appends a chunk and wakes the connection if it waits.
    mutating func write(_ chunk: [UInt8]) -> Wake {
        append(chunk)
        return wake()
    }

    /// Appends a chunk without waking the connection: `wake()` does that later (a writer that
    /// fills many streams at once wakes them a few at a time, so the server's threads keep
    /// serving other connections in between).
    mutating func append(_ chunk: [UInt8]) {
        guard !isClosed, !chunk.isEmpty else { return }
        guard pendingBytes + chunk.count <= maxPendingBytes else {
            // Dropping what is pending ends the body at a chunk boundary: the client never sees
            // half an event.
            overflowed = true
            dropPending()
            isClosed = true
            return
        }
        pending.append(chunk)
        pendingBytes += chunk.count
    }

    /// Ends the body once what was written has been sent.
    mutating func close() -> Wake {
        guard !isClosed else { return .none }
        isClosed = true
        return wake()
    }

    /// The content reader: copies pending bytes into `buffer`.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        suspension.calledAgain()
        guard hasWork else {
            suspension.beginSuspending()
            return .suspend
        }
        guard pendingBytes > 0 else { return .end }
        var written = 0
        while written < buffer.count, head < pending.count {
            let chunk = pending[head]
            let count = min(chunk.count - offsetInHead, buffer.count - written)
            chunk.withUnsafeBytes { bytes in
                buffer.baseAddress!.advanced(by: written)
                    .copyMemory(from: bytes.baseAddress!.advanced(by: offsetInHead), byteCount: count)
            }
            written += count
            offsetInHead += count
            if offsetInHead == chunk.count {
                head += 1
                offsetInHead = 0
            }
        }
        pendingBytes -= written
        if head == pending.count {
            dropPending()
        } else if head > 64 {
            // Consumed chunks are let go in batches, so reading stays O(bytes), not O(chunks²).
            pending.removeFirst(head)
            head = 0
        }
        return .wrote(written)
    }

    /// The connection is now suspended; a write or close that came meanwhile resumes it at once.
    mutating func suspended() -> Wake {
        suspension.suspended(workArrived: hasWork)
    }

    /// Resumes a waiting connection that has something to send (or to end).
    mutating func wake() -> Wake {
        hasWork ? suspension.workArrived() : .none
    }

    /// Bytes to send, or the end to send.
    private var hasWork: Bool { pendingBytes > 0 || isClosed }

    private mutating func dropPending() {
        pending.removeAll(keepingCapacity: false)
        head = 0
        offsetInHead = 0
        pendingBytes = 0
    }
}
