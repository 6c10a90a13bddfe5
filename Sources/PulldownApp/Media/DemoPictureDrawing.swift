import PulldownFeed

/// Draws the demo's pictures (`DemoPictures`), the same bytes every time for the same picture,
/// without the network, all PNG, which every client draws (`UIImage`, Android's `Bitmap`, React
/// Native's `<Image>` draw no SVG). An item's image is a PNG, as a feed's photographs are raster
/// files: the browser decodes it off its main thread, where an SVG image would be a document
/// of its own to parse, lay out and paint there (docs/performance.md). An avatar is the
/// author's initials in white on a square of their colour (`StrokeFont`), one per author, so a
/// feed holds only a few of them; a page rounds it.
enum DemoPictureDrawing {
    /// An avatar's side in pixels: 40 CSS pixels on a screen of 2.4 device pixels to one.
    static let avatarSide = 96

    static func image(_ image: DemoPictures.Image) -> [UInt8]? {
        let (width, height) = (image.width, image.height)
        var bits = image.layout
        func next(_ range: Int) -> Int {
            defer { bits = bits >> 7 | bits << 57 }
            return Int(bits % UInt64(range))
        }
        let canvas = PNGCanvas(width: width, height: height, background: image.background.hex)
        let band = height / 6
        for index in 0..<2 {
            canvas.rectangle(x: 0, y: band * (1 + 2 * index) + next(band), width: width, height: band / 2,
                             colour: image.foreground.hex, opacity: 0.35)
        }
        let shortSide = min(width, height)
        for _ in 0..<3 {
            canvas.circle(x: next(width), y: next(height), radius: shortSide / 8 + next(shortSide / 4),
                          colour: image.foreground.hex, opacity: 0.8)
        }
        return canvas.png()
    }

    /// The initials centred on the author's colour, their capitals 30 pixels tall.
    static func avatar(_ avatar: DemoPictures.Avatar) -> [UInt8]? {
        let side = Double(avatarSide), scale = 3.0, gap = 2.5
        let canvas = PNGCanvas(width: avatarSide, height: avatarSide, background: avatar.background.hex)
        let glyphs = avatar.initials.compactMap(StrokeFont.glyph)
        let width = glyphs.map(\.width).reduce(0, +) + gap * Double(max(0, glyphs.count - 1))
        var left = (side - width * scale) / 2
        let top = (side - StrokeFont.height * scale) / 2
        var lines: [[(x: Double, y: Double)]] = []
        for glyph in glyphs {
            lines += glyph.strokes.map { stroke in stroke.map { (left + $0.x * scale, top + $0.y * scale) } }
            left += (glyph.width + gap) * scale
        }
        canvas.strokes(lines, lineWidth: 4.5, colour: "#ffffff")
        return canvas.png()
    }

    /// The page's icon: an arrow pulling down, white on the demo's sea blue; drawn once.
    static let favicon: [UInt8]? = {
        let canvas = PNGCanvas(width: 64, height: 64, background: "#4c7890")
        canvas.strokes([[(32, 13), (32, 49)], [(19, 36), (32, 49), (45, 36)]], lineWidth: 7, colour: "#ffffff")
        return canvas.png()
    }()

    /// The picture a name under `DemoPictures.routePrefix` names (`avatar-3.png`,
    /// `image-41.png`), nil for any other name; a body of nil when it could not be drawn.
    static func picture(named name: String) -> (body: [UInt8]?, contentType: String)? {
        if let avatar = avatar(named: name, suffix: ".png") {
            return (self.avatar(avatar), "image/png")
        }
        if name.hasPrefix("image-"), name.hasSuffix(".png"),
           let number = DecimalDigits.parse(String(name.dropFirst(6).dropLast(4))),
           let image = DemoPictures.image(number: number) {
            return (self.image(image), "image/png")
        }
        return nil
    }

    /// Where an avatar's old name (`avatar-3.svg`, when avatars were SVG) now is: its PNG's
    /// name; nil for any other name.
    static func movedPicture(named name: String) -> String? {
        avatar(named: name, suffix: ".svg") == nil ? nil : String(name.dropLast(4)) + ".png"
    }

    /// The avatar `avatar-<index><suffix>` names, nil for none.
    private static func avatar(named name: String, suffix: String) -> DemoPictures.Avatar? {
        guard name.hasPrefix("avatar-"), name.hasSuffix(suffix),
              let index = DecimalDigits.parse(String(name.dropFirst(7).dropLast(suffix.count))) else { return nil }
        return DemoPictures.avatar(authorIndex: Int(index))
    }
}
