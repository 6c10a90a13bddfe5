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
        if !titleLength.contains(title.count) {
            errors.append(InvalidParam(name: "title", reason: "must be 1 to 200 characters after trimming"))
        } else if hasControlCharacters(title, allowingLineBreaks: false) {
            errors.append(InvalidParam(name: "title", reason: "must not contain control characters"))
        }

        // Browsers submit textarea line breaks as CRLF; store them as plain LF.
        let body = new.body.replacingOccurrences(of: "\r\n", with: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if !bodyLength.contains(body.count) {
            errors.append(InvalidParam(name: "body", reason: "must be at most 2000 characters after trimming"))
        } else if hasControlCharacters(body, allowingLineBreaks: true) {
            errors.append(InvalidParam(name: "body", reason: "must not contain control characters other than newline and tab"))
        }

        let author = (new.author ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if !authorLength.contains(author.count) {
            errors.append(InvalidParam(name: "author", reason: "must be at most 80 characters after trimming"))
        } else if hasControlCharacters(author, allowingLineBreaks: false) {
            errors.append(InvalidParam(name: "author", reason: "must not contain control characters"))
        }

        guard errors.isEmpty else { throw .invalid(errors) }
        return Valid(title: title, body: body, author: author.isEmpty ? anonymous : author, userFields: new.userFields)
    }

    /// C0 controls (U+0000 to U+001F); newline and tab are allowed where text may have lines.
    static func hasControlCharacters(_ text: String, allowingLineBreaks: Bool) -> Bool {
        text.unicodeScalars.contains { scalar in
            guard scalar.value < 0x20 else { return false }
            return !(allowingLineBreaks && (scalar == "\n" || scalar == "\t"))
        }
    }
}
