import Synchronization

/// The objects a stop must reach (suspended answers, open streams), until the stop closes the
/// registry: from then on nothing more can be registered, and the caller acts at once instead.
final class ClosingRegistry<Element: AnyObject & Sendable>: Sendable {
    private let state = Mutex<(closed: Bool, elements: [ObjectIdentifier: Element])>((false, [:]))

    /// Records `element`; false once the registry is closed.
    func register(_ element: Element) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.elements[ObjectIdentifier(element)] = element
            return true
        }
    }

    func unregister(_ element: Element) {
        _ = state.withLock { $0.elements.removeValue(forKey: ObjectIdentifier(element)) }
    }

    /// Closes the registry and hands over what it held (it keeps nothing, so no element is held
    /// past the stop through the registry).
    func close() -> [Element] {
        state.withLock { state in
            state.closed = true
            defer { state.elements.removeAll() }
            return Array(state.elements.values)
        }
    }
}
