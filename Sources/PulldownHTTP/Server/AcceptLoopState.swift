import Glibc

/// Whether the accept loop may take another connection, as a pure state machine.
///
/// The loop asks before every `accept`; connections are counted from the moment they are
/// accepted until libmicrohttpd reports them closed. At the limit the loop stops accepting and
/// the kernel's backlog holds the rest; the close that frees a slot wakes it. Out of file
/// descriptors it backs off instead of spinning on a backlog it cannot drain, and says so once.
struct AcceptLoopState: Equatable {
    enum Step: Equatable {
        /// Accept the next connection (or wait for one to arrive).
        case accept
        /// At the limit: wait until a connection closes.
        case waitForClose
        /// Accepting failed for want of resources: wait this long, then try again.
        case backOff(milliseconds: Int32)
    }

    /// How long to wait after the system refused a descriptor or memory for a new connection.
    static let backOffMilliseconds: Int32 = 100

    let limit: Int
    private(set) var open = 0
    /// The loop is waiting for a close; the next one under the limit must wake it.
    private(set) var waitingForClose = false
    private var reportedShortage = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Before each accept: may another connection be taken now?
    mutating func nextStep() -> Step {
        guard open < limit else {
            waitingForClose = true
            return .waitForClose
        }
        return .accept
    }

    /// A connection was accepted and handed over.
    mutating func accepted() {
        open += 1
    }

    /// A connection closed (or was refused after it was counted). True when the loop is waiting
    /// for exactly this and must be woken.
    mutating func closed() -> Bool {
        open -= 1
        guard waitingForClose, open < limit else { return false }
        waitingForClose = false
        return true
    }

    /// `accept` failed with `error`: what to do, and the line to print, the first time only,
    /// when the system is out of descriptors or memory.
    mutating func acceptFailed(error: Int32) -> (step: Step, warning: String?) {
        switch error {
        case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO, EPERM:
            // Nothing waiting, or a client that left before it was accepted: carry on.
            return (.accept, nil)
        default:
            let warning: String?
            if reportedShortage {
                warning = nil
            } else {
                reportedShortage = true
                let reason = error == EMFILE || error == ENFILE ? "out of file descriptors" : "the system refused"
                warning = "cannot accept connections (\(reason): \(String(cString: strerror(error)))); "
                    + "new connections wait in the backlog and are retried every \(Self.backOffMilliseconds) ms"
            }
            return (.backOff(milliseconds: Self.backOffMilliseconds), warning)
        }
    }
}
