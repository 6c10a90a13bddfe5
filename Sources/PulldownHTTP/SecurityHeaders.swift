/// Headers every response carries unless the handler set its own.
///
/// The policy allows scripts, styles, images and fetches from the same origin only: the page
/// needs nothing else, and an injected inline script is refused by the browser even if one
/// ever got into the markup.
public enum SecurityHeaders {
    public static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    public static let all: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
