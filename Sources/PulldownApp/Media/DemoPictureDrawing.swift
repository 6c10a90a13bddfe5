import PulldownFeed

/// Draws the demo's pictures (`DemoPictures`), the same bytes every time for the same picture,
/// without the network. An item's image is a PNG, as a feed's photographs are raster files: the
/// browser decodes it off its main thread, where an SVG image would be a document of its own to
/// parse, lay out and paint there (docs/performance.md). An avatar stays SVG: white initials on a
/// disc, one per author, so a feed holds only a few of them.
enum DemoPictureDrawing {
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

    static func avatar(_ avatar: DemoPictures.Avatar) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img">"#
            + #"<title>\#(avatar.initials)</title><circle cx="48" cy="48" r="48" fill="\#(avatar.background.hex)"/>"#
            + #"<text x="48" y="48" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-size="40" "#
            + #"fill="white">\#(avatar.initials)</text></svg>"#
    }

    /// The picture a name under `DemoPictures.routePrefix` names (`avatar-3.svg`,
    /// `image-41.png`) and its media type, nil for any other name; a body of nil when it could
    /// not be drawn.
    static func picture(named name: String) -> (body: [UInt8]?, contentType: String)? {
        if name.hasPrefix("avatar-"), name.hasSuffix(".svg"),
           let index = DecimalDigits.parse(String(name.dropFirst(7).dropLast(4))),
           let avatar = DemoPictures.avatar(authorIndex: Int(index)) {
            return (Array(self.avatar(avatar).utf8), "image/svg+xml")
        }
        if name.hasPrefix("image-"), name.hasSuffix(".png"),
           let number = DecimalDigits.parse(String(name.dropFirst(6).dropLast(4))),
           let image = DemoPictures.image(number: number) {
            return (self.image(image), "image/png")
        }
        return nil
    }
}
