import Foundation

/// One entry of the feed, as every page, refresh and event carries it.
///
/// An item keeps its id and its place in the feed for life: ids only grow, and a newer item has a
/// larger id. `avatar`, `image` and `url` are resolved against the server's address, so a path
/// the server gives (`/media/demo/image-17.png`) is a URL a picture view can load as it is. Every
/// other member the item was posted or imported with is in `fields`, as given; a member this
/// version does not know never makes an item unreadable.
public struct Item: Sendable, Hashable, Identifiable, Decodable {
    public let id: Int64
    public let title: String
    /// May be empty.
    public let body: String
    /// `Anonymous` when none was given.
    public let author: String
    /// UTC, whole seconds.
    public let createdAt: Date
    /// The author's picture.
    public let avatar: URL?
    /// A picture with its size, so a view can reserve its box before it arrives.
    public let image: ItemImage?
    /// A link for the item.
    public let url: URL?
    /// Every other member, as given (`likes`, `user`, `tags`…).
    public let fields: [String: JSONValue]

    public init(id: Int64, title: String, body: String = "", author: String = "Anonymous", createdAt: Date,
                avatar: URL? = nil, image: ItemImage? = nil, url: URL? = nil, fields: [String: JSONValue] = [:]) {
        self.id = id
        self.title = title
        self.body = body
        self.author = author
        self.createdAt = createdAt
        self.avatar = avatar
        self.image = image
        self.url = url
        self.fields = fields
    }

    private static let known: Set<String> = ["id", "title", "body", "author", "createdAt", "avatar", "image", "url"]

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: AnyKey.self)
        id = try members.decode(Int64.self, forKey: AnyKey("id"))
        title = try members.decode(String.self, forKey: AnyKey("title"))
        body = try members.decodeIfPresent(String.self, forKey: AnyKey("body")) ?? ""
        author = try members.decodeIfPresent(String.self, forKey: AnyKey("author")) ?? "Anonymous"
        createdAt = try members.decode(Date.self, forKey: AnyKey("createdAt"))
        // A picture or link that cannot be read is left out, not the item with it.
        let base = decoder.userInfo[.pulldownBase] as? URL
        avatar = (try? members.decodeIfPresent(String.self, forKey: AnyKey("avatar"))).flatMap { resolve($0, base) }
        image = (try? members.decodeIfPresent(ItemImage.self, forKey: AnyKey("image"))) ?? nil
        url = (try? members.decodeIfPresent(String.self, forKey: AnyKey("url"))).flatMap { resolve($0, base) }
        var fields: [String: JSONValue] = [:]
        for key in members.allKeys where !Self.known.contains(key.stringValue) {
            fields[key.stringValue] = try members.decode(JSONValue.self, forKey: key)
        }
        self.fields = fields
    }
}

/// A picture and its size in points (CSS pixels): the box to reserve before it loads.
public struct ItemImage: Sendable, Hashable, Decodable {
    public let url: URL
    public let width: Int
    public let height: Int
    /// Text for readers who cannot see the picture.
    public let alt: String?

    public init(url: URL, width: Int, height: Int, alt: String? = nil) {
        self.url = url
        self.width = width
        self.height = height
        self.alt = alt
    }

    private enum CodingKeys: String, CodingKey { case url, width, height, alt }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        let link = try members.decode(String.self, forKey: .url)
        guard let url = resolve(link, decoder.userInfo[.pulldownBase] as? URL) else {
            throw DecodingError.dataCorruptedError(forKey: .url, in: members, debugDescription: "not a URL: \(link)")
        }
        self.url = url
        width = try members.decode(Int.self, forKey: .width)
        height = try members.decode(Int.self, forKey: .height)
        alt = try members.decodeIfPresent(String.self, forKey: .alt)
    }
}

/// An item to post: the title, and whatever else the item should carry.
public struct NewItem: Sendable, Hashable, Encodable {
    public var title: String
    public var body: String?
    public var author: String?
    /// Members of the item's own (`likes`, `image`, `user`…), stored and returned as given.
    public var fields: [String: JSONValue]

    public init(title: String, body: String? = nil, author: String? = nil, fields: [String: JSONValue] = [:]) {
        self.title = title
        self.body = body
        self.author = author
        self.fields = fields
    }

    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in fields { try members.encode(value, forKey: AnyKey(name)) }
        try members.encode(title, forKey: AnyKey("title"))
        try members.encodeIfPresent(body, forKey: AnyKey("body"))
        try members.encodeIfPresent(author, forKey: AnyKey("author"))
    }
}

extension CodingUserInfoKey {
    /// The URL answers are resolved against (a JSONDecoder's userInfo).
    static let pulldownBase = CodingUserInfoKey(rawValue: "pulldownBase")!
}

/// A link as the server gives it (a path on the server, or an absolute URL) as an absolute URL.
func resolve(_ link: String, _ base: URL?) -> URL? {
    URL(string: link, relativeTo: base)?.absoluteURL
}
