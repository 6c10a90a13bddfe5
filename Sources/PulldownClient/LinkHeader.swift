import Foundation

/// RFC 8288 `Link` headers: the target of a relation, resolved against the URL that was asked.
///
/// The server writes one link (`</api/items?limit=10&before=41&feed=…>; rel="next"`); a path, as
/// today, or an absolute URL resolve the same way.
enum LinkHeader {
    /// The target of the first link whose `rel` includes `relation` (case-insensitive), or nil.
    static func target(_ header: String, relation: String, base: URL) -> URL? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = rest[rest.index(after: open)..<close]
            // Parameters run to the next link, a comma outside quotes.
            var end = rest.index(after: close)
            var quoted = false
            while end < rest.endIndex, quoted || rest[end] != "," {
                if rest[end] == "\"" { quoted.toggle() }
                end = rest.index(after: end)
            }
            if relations(rest[rest.index(after: close)..<end]).contains(relation.lowercased()) {
                return URL(string: String(target), relativeTo: base)?.absoluteURL
            }
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
        }
        return nil
    }

    /// The relation types of one link's parameters (`; rel="next prev"`), lowercased.
    private static func relations(_ parameters: Substring) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.lowercased().split(separator: " ").map(String.init)
        }
        return []
    }
}
