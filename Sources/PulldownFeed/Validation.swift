import Foundation
import InvalidInput

/// The rules for `NewItem`, collecting every bad field instead of stopping at the first.
enum Validation {
    struct Valid: Sendable {
        let title: String
        let body: String
        let author: String
        let userFields: String
    }

    static let titleLength = 1...200
    static let bodyLength = 0...2000
    static let authorLength = 0...80
    static let anonymous = "Anonymous"

    static func check(_ new: NewItem) throws(FeedError) -> Valid {
        var errors: [InvalidParam] = []
        let title = new.title.trimmingCharacters(in: .whitespacesAndNewlines)
        check("title", title, length: titleLength, allowingLineBreaks: false, into: &errors)
        // Browsers submit textarea line breaks as CRLF; store them as plain LF.
        let body = new.body.replacingOccurrences(of: "\r\n", with: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        check("body", body, length: bodyLength, allowingLineBreaks: true, into: &errors)
        let author = (new.author ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        check("author", author, length: authorLength, allowingLineBreaks: false, into: &errors)
        guard errors.isEmpty else { throw .invalid(errors) }
        return Valid(title: title, body: body, author: author.isEmpty ? anonymous : author, userFields: new.userFields)
    }

    /// One trimmed text's length, then its control characters.
    private static func check(_ name: String, _ text: String, length: ClosedRange<Int>, allowingLineBreaks: Bool,
                              into errors: inout [InvalidParam]) {
        if !length.contains(text.count) {
            errors.append(InvalidParam(name: name, reason: InvalidParameters.Reason.trimmed(length: length)))
        } else if hasControlCharacters(text, allowingLineBreaks: allowingLineBreaks) {
            errors.append(InvalidParam(name: name, reason: InvalidParameters.Reason.controlCharacters(allowingLineBreaks: allowingLineBreaks)))
        }
    }

    /// C0 controls (U+0000 to U+001F); newline and tab are allowed where text may have lines.
    static func hasControlCharacters(_ text: String, allowingLineBreaks: Bool) -> Bool {
        text.unicodeScalars.contains { scalar in
            guard scalar.value < 0x20 else { return false }
            return !(allowingLineBreaks && (scalar == "\n" || scalar == "\t"))
        }
    }
}
