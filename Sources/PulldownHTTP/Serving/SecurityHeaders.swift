import Foundation
import Hashing

/// Security headers added to responses unless the handler set its own: `all` on every
/// response, the content policy on documents a browser renders.
///
/// The policy allows scripts, styles, fetches and pictures from the same origin only: the page
/// needs nothing else, and an injected inline script is refused by the browser even if one ever
/// got into the markup. The exceptions are a document's own `<style>` elements, each allowed by
/// its hash (`contentSecurityPolicy(for:imageSources:)`): the build writes the page's stylesheet
/// into it, so that the first paint waits for no second round trip, and an injected one still
/// matches no hash; and the picture origins a page that draws a feed names, exactly those the
/// feed holds (the application knows them).
public enum SecurityHeaders {
    static let contentSecurityPolicy = policy(styleSources: "'self'", imageSources: [])

    /// The policy for `document`, which allows the stylesheets written inside it, and pictures
    /// from `imageSources` (source expressions such as `https://cdn.example`) besides its own origin.
    public static func contentSecurityPolicy(for document: [UInt8], imageSources: [String] = []) -> String {
        let hashes = InlineStyles.texts(in: document).map { "'sha256-\(Data(ContentHash.digest(of: $0)).base64EncodedString())'" }
        return policy(styleSources: (["'self'"] + hashes).joined(separator: " "), imageSources: imageSources)
    }

    private static func policy(styleSources: String, imageSources: [String]) -> String {
        "default-src 'self'; script-src 'self'; style-src \(styleSources); img-src \((["'self'"] + imageSources).joined(separator: " ")); "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    /// On every response.
    static let all: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// Whether a response of this type is a document a browser could run scripts in, and so
    /// needs the policy. JSON and the other files do not: sending 190 bytes of policy with
    /// every API answer only costs time.
    static func needsPolicy(contentType: String?) -> Bool {
        guard let contentType else { return false }
        return contentType.hasPrefix("text/html") || contentType.hasPrefix("image/svg+xml")
    }
}
