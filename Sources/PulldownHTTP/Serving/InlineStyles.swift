/// The stylesheets written inside an HTML document: the text of each `<style>` element, exactly
/// as the browser hashes it for the content policy (between the start tag's `>` and `</style>`).
enum InlineStyles {
    private static let open = Array("<style".utf8)
    private static let close = Array("</style>".utf8)

    static func texts(in document: [UInt8]) -> [ArraySlice<UInt8>] {
        var texts: [ArraySlice<UInt8>] = []
        var rest = document[...]
        while let start = rest.firstRange(of: open) {
            // `<style>` or `<style attributes>`, not `<styles>` or another name that begins so.
            guard let next = rest[start.upperBound...].first, next == UInt8(ascii: ">") || next == UInt8(ascii: " ") else {
                rest = rest[start.upperBound...]
                continue
            }
            guard let tagEnd = rest[start.upperBound...].firstIndex(of: UInt8(ascii: ">")),
                  let end = rest[(tagEnd + 1)...].firstRange(of: close) else { break }
            texts.append(rest[(tagEnd + 1)..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return texts
    }
}
