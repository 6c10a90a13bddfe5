import PulldownFeed

/// Draws the demo's pictures (`DemoPictures`) as SVG: small, exact at any size, made without the
/// network or an image library, and the same bytes every time for the same picture.
enum DemoPictureSVG {
    static func image(_ image: DemoPictures.Image) -> String {
        let (width, height) = (image.width, image.height)
        var bits = image.layout
        func next(_ range: Int) -> Int {
            defer { bits = bits >> 7 | bits << 57 }
            return Int(bits % UInt64(range))
        }
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" "#
            + #"viewBox="0 0 \#(width) \#(height)" role="img"><title>\#(image.alt)</title>"#
            + #"<rect width="\#(width)" height="\#(height)" fill="\#(image.background.hex)"/>"#
        let band = height / 6
        for index in 0..<2 {
            svg += #"<rect x="0" y="\#(band * (1 + 2 * index) + next(band))" width="\#(width)" height="\#(band / 2)" "#
                + #"fill="\#(image.foreground.hex)" opacity="0.35"/>"#
        }
        let shortSide = min(width, height)
        for _ in 0..<3 {
            svg += #"<circle cx="\#(next(width))" cy="\#(next(height))" r="\#(shortSide / 8 + next(shortSide / 4))" "#
                + #"fill="\#(image.foreground.hex)" opacity="0.8"/>"#
        }
        return svg + "</svg>"
    }

    static func avatar(_ avatar: DemoPictures.Avatar) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img">"#
            + #"<title>\#(avatar.initials)</title><circle cx="48" cy="48" r="48" fill="\#(avatar.background.hex)"/>"#
            + #"<text x="48" y="48" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-size="40" "#
            + #"fill="white">\#(avatar.initials)</text></svg>"#
    }

    /// The picture a name under `DemoPictures.routePrefix` names (`avatar-3.svg`,
    /// `image-41.svg`), nil for any other name.
    static func picture(named name: String) -> String? {
        guard name.hasSuffix(".svg") else { return nil }
        let stem = name.dropLast(4)
        if stem.hasPrefix("avatar-"), let index = DecimalDigits.parse(String(stem.dropFirst(7))),
           let avatar = DemoPictures.avatar(authorIndex: Int(index)) {
            return self.avatar(avatar)
        }
        if stem.hasPrefix("image-"), let number = DecimalDigits.parse(String(stem.dropFirst(6))),
           let image = DemoPictures.image(number: number) {
            return self.image(image)
        }
        return nil
    }
}
