import PulldownFeed
import PulldownHTTP

/// Finds the caller's session in `X-Session-Id` or the `pulldown_session` cookie, or issues a
/// new one. Only ids this server signed are accepted; anything else is replaced, not trusted.
struct SessionResolver: Sendable {
    static let cookieName = "pulldown_session"
    static let headerName = "X-Session-Id"
    /// A year: the session is meant to outlive browser restarts; the store expires idle ones.
    static let cookieMaxAge = 365 * 24 * 3600

    let tokens: SessionTokens

    struct Resolved {
        let id: SessionID
        let token: String
        /// True when the caller sent no valid id and was given a new one.
        let isNew: Bool
        /// The request came over TLS: its cookie is `Secure`, never sent back over plain HTTP.
        var isTLS = false
    }

    func resolve(_ request: HTTPRequest) -> Resolved {
        // The header first; the cookies are parsed only when it carries no valid id.
        if let found = firstValid(request.headers.values(for: Self.headerName)) ?? firstValid(request.cookie(Self.cookieName)) {
            return found
        }
        let issued = tokens.issue()
        return Resolved(id: issued.id, token: issued.token, isNew: true, isTLS: request.isTLS)
    }

    private func firstValid(_ candidates: [String]) -> Resolved? {
        for candidate in candidates {
            if let id = tokens.verify(candidate) { return Resolved(id: id, token: candidate, isNew: false) }
        }
        return nil
    }

    /// Echoes the id, and sets the cookie when the id is new.
    func stamp(_ response: inout HTTPResponse, with session: Resolved) {
        response.headers.set(Self.headerName, session.token)
        if session.isNew {
            response.headers.add("Set-Cookie", "\(Self.cookieName)=\(session.token); Path=/; Max-Age=\(Self.cookieMaxAge); HttpOnly; "
                                 + (session.isTLS ? "Secure; SameSite=Lax" : "SameSite=Lax"))
        }
    }
}
