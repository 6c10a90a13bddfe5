/// The demo's pictures: an avatar for each author and, for three items in ten, an image of one
/// of several shapes. Only their descriptions live here (size, colours, alt text), made from the
/// item's number alone, so item `n` always gets the same pictures as it gets the same text; the
/// app draws them (`DemoPictureSVG`) under `routePrefix`.
public enum DemoPictures {
    /// Where the pictures are served: `avatar-<author index>.svg`, `image-<item number>.svg`.
    public static let routePrefix = "/media/demo/"

    public struct Colour: Sendable, Equatable {
        public let name: String
        public let hex: String
    }

    public struct Image: Sendable, Equatable {
        public let width: Int
        public let height: Int
        public let background: Colour
        public let foreground: Colour
        /// Where the shapes go: the same bits give the same picture.
        public let layout: UInt64
        public let alt: String
    }

    public struct Avatar: Sendable, Equatable {
        public let initials: String
        public let background: Colour
    }

    static let palette = [
        Colour(name: "teal", hex: "#0f766e"), Colour(name: "amber", hex: "#b45309"),
        Colour(name: "indigo", hex: "#4338ca"), Colour(name: "rose", hex: "#be123c"),
        Colour(name: "olive", hex: "#4d7c0f"), Colour(name: "slate", hex: "#334155"),
        Colour(name: "violet", hex: "#6d28d9"), Colour(name: "sand", hex: "#d6c6a5"),
        Colour(name: "sky", hex: "#7dd3fc"), Colour(name: "cream", hex: "#fef3c7"),
    ]

    /// Width, height and the words for the shape: tall, wide, square and in between, since
    /// pictures of varied height are what a windowed list must place.
    static let shapes: [(width: Int, height: Int, name: String)] = [
        (1600, 900, "wide"), (900, 1600, "tall"), (1200, 1200, "square"), (1200, 800, "landscape"),
        (800, 1200, "portrait"), (1500, 500, "panoramic"), (1080, 1350, "portrait"),
    ]

    /// The image of demo item `number`, nil for seven items in ten.
    public static func image(number: Int64) -> Image? {
        guard number > 0, [1, 4, 7].contains(number % 10) else { return nil }
        var rng = SplitMix64(seed: UInt64(bitPattern: number) ^ 0x7069_6374_7572_6573)
        let shape = rng.pick(shapes)
        let background = rng.pick(palette)
        var foreground = rng.pick(palette)
        if foreground == background { foreground = palette[(palette.firstIndex(of: background)! + 3) % palette.count] }
        return Image(width: shape.width, height: shape.height, background: background, foreground: foreground,
                     layout: rng.next(),
                     alt: "A \(shape.name) abstract picture: \(foreground.name) circles and bands on \(background.name)")
    }

    /// The avatar of the author at `index` in `DemoContent.authors`, nil past the end.
    public static func avatar(authorIndex index: Int) -> Avatar? {
        guard DemoContent.authors.indices.contains(index) else { return nil }
        let initials = DemoContent.authors[index].split(separator: " ").compactMap(\.first).prefix(2)
        return Avatar(initials: String(initials), background: palette[index % 7])
    }

    /// The own fields of a demo item (`Item.userFields`): its author's avatar and its image.
    static func userFields(number: Int64, author: String) -> String {
        var fields: [String] = []
        if let index = DemoContent.authors.firstIndex(of: author) {
            fields.append(#""avatar":"\#(routePrefix)avatar-\#(index).svg""#)
        }
        if let image = image(number: number) {
            // Alt text is made of plain words: nothing in it needs escaping.
            fields.append(#""image":{"url":"\#(routePrefix)image-\#(number).svg","width":\#(image.width),"#
                          + #""height":\#(image.height),"alt":"\#(image.alt)"}"#)
        }
        return fields.isEmpty ? "" : "{" + fields.joined(separator: ",") + "}"
    }
}
