/// The demo's pictures: an avatar for each author and, for three items in ten, an image of one
/// of several shapes. Only their descriptions live here (size, colours, alt text), made from the
/// item's number alone, so item `n` always gets the same pictures as it gets the same text; the
/// app draws them (`DemoPictureDrawing`) under `routePrefix`.
public enum DemoPictures {
    /// Where the pictures are served: `avatar-<author index>.png`, `image-<item number>.png`.
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

    /// Colour families, each a pale and a deep shade of one muted hue: an image is the deep
    /// shade's shapes on the pale one, an avatar the deep shade under white initials, so that a
    /// feed of them reads calm, as photographs in a real feed mostly do.
    static let tones: [(pale: Colour, deep: Colour)] = [
        (Colour(name: "pale sage", hex: "#dfe9de"), Colour(name: "sage", hex: "#5e7f67")),
        (Colour(name: "pale sea", hex: "#d6e6ee"), Colour(name: "sea blue", hex: "#4c7890")),
        (Colour(name: "pale sand", hex: "#f1e6d2"), Colour(name: "ochre", hex: "#96703f")),
        (Colour(name: "pale lilac", hex: "#e6dcea"), Colour(name: "plum", hex: "#74598a")),
        (Colour(name: "pale clay", hex: "#f3ddd4"), Colour(name: "terracotta", hex: "#a65f48")),
        (Colour(name: "pale slate", hex: "#dfe3e9"), Colour(name: "slate", hex: "#525f76")),
        (Colour(name: "pale moss", hex: "#e4e8cf"), Colour(name: "moss", hex: "#66713a")),
    ]

    /// Width, height and the words for the shape: tall, wide, square and in between, since
    /// pictures of varied height are what a windowed list must place. The pixels are the file's:
    /// 800 wide fills a phone's column at twice its CSS pixels.
    static let shapes: [(width: Int, height: Int, name: String)] = [
        (800, 450, "wide"), (450, 800, "tall"), (600, 600, "square"), (600, 400, "landscape"),
        (400, 600, "portrait"), (750, 250, "panoramic"), (540, 675, "portrait"),
    ]

    /// The image of demo item `number`, nil for seven items in ten.
    public static func image(number: Int64) -> Image? {
        guard number > 0, [1, 4, 7].contains(number % 10) else { return nil }
        var rng = SplitMix64(seed: UInt64(bitPattern: number) ^ 0x7069_6374_7572_6573)
        let shape = rng.pick(shapes)
        let tone = rng.pick(tones)
        return Image(width: shape.width, height: shape.height, background: tone.pale, foreground: tone.deep,
                     layout: rng.next(),
                     alt: "A \(shape.name) abstract picture: \(tone.deep.name) circles and bands on \(tone.pale.name)")
    }

    /// The avatar of the author at `index` in `DemoContent.authors`, nil past the end.
    public static func avatar(authorIndex index: Int) -> Avatar? {
        guard DemoContent.authors.indices.contains(index) else { return nil }
        let initials = DemoContent.authors[index].split(separator: " ").compactMap(\.first).prefix(2)
        return Avatar(initials: String(initials), background: tones[index % tones.count].deep)
    }

    /// The own fields of a demo item (`Item.userFields`): its author's avatar and its image.
    static func userFields(number: Int64, author: String) -> String {
        var fields: [String] = []
        if let index = DemoContent.authors.firstIndex(of: author) {
            fields.append(#""avatar":"\#(routePrefix)avatar-\#(index).png""#)
        }
        if let image = image(number: number) {
            // Alt text is made of plain words: nothing in it needs escaping.
            fields.append(#""image":{"url":"\#(routePrefix)image-\#(number).png","width":\#(image.width),"#
                          + #""height":\#(image.height),"alt":"\#(image.alt)"}"#)
        }
        return fields.isEmpty ? "" : "{" + fields.joined(separator: ",") + "}"
    }
}
