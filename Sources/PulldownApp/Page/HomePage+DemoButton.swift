extension HomePage {
    /// Who may press the page's Demo button, known at start and written into `/`, so the page
    /// need not ask. `index.html` has the button hidden (`marker`: shown to nobody, the safe
    /// default); `/` shows it on an open demo API, and on one that needs a token marks it
    /// `data-demo="token"`, which the page shows once it has a token (a presenter's `#demo=TOKEN`).
    enum DemoButton: Sendable {
        /// Listening on loopback only: the demo API is open.
        case open
        /// Beyond loopback: every demo request needs the bearer token.
        case token
        /// `--demo-api off`: no endpoints, no button.
        case off

        /// The button for a server whose demo API is guarded by `access` (nil: not served).
        init(access: DemoAccess?) {
            self = access.map { $0.token == nil ? .open : .token } ?? .off
        }

        /// The button's opening tag in `index.html`.
        static let marker = Array(#"<button type="button" id="demo" data-t="demo" hidden>"#.utf8)

        /// The opening tag `/` has instead.
        var tag: [UInt8] {
            switch self {
            case .open: Array(#"<button type="button" id="demo" data-t="demo">"#.utf8)
            case .token: Array(#"<button type="button" id="demo" data-t="demo" data-demo="token" hidden>"#.utf8)
            case .off: Self.marker
            }
        }

        /// `page` with this button's tag in place of the template's; as it is without one.
        func write(into page: [UInt8]) -> [UInt8] {
            HomePage.replacing(Self.marker, with: tag, in: page)
        }
    }
}
