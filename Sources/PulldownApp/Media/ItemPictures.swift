import CJansson
import ItemFields
import PulldownFeed

/// An item's avatar and image as its own fields (`Item.userFields`) carry them: what its article
/// draws. Each URL is read again as a link (http(s) or a path here) and dropped otherwise, so the
/// markup never holds any other kind, whatever the store gave.
struct ItemPictures: Equatable {
    struct Image: Equatable {
        let url: String
        let width: Int64
        let height: Int64
        let alt: String
    }

    var avatar: String?
    var image: Image?

    init(avatar: String? = nil, image: Image? = nil) {
        self.avatar = avatar
        self.image = image
    }

    init(of item: Item) {
        guard !item.userFields.isEmpty, let root = json_loads(item.userFields, 0, nil) else { return }
        defer { json_decref(root) }
        avatar = Self.link(json_object_get(root, "avatar"))
        guard let image = json_object_get(root, "image"), image.pointee.type == JSON_OBJECT,
              let url = Self.link(json_object_get(image, "url")),
              let width = json_object_get(image, "width").flatMap(UserFields.integer), width > 0,
              let height = json_object_get(image, "height").flatMap(UserFields.integer), height > 0 else { return }
        let alt = json_object_get(image, "alt").flatMap(UserFields.string) ?? ""
        self.image = Image(url: url, width: width, height: height, alt: alt)
    }

    private static func link(_ value: UnsafeMutablePointer<json_t>?) -> String? {
        value.flatMap(UserFields.string).flatMap { UserFields.isLink($0) ? $0 : nil }
    }
}
