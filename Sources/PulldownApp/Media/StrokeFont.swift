/// Capital letters as strokes, for the initials on the demo's avatars: each letter a few lines
/// and elliptic arcs on a grid 10 units tall, drawn by `PNGCanvas.stroke`. A font file and
/// FreeType would draw nicer letters, but bring a file the program must find at run time, and a
/// rasterizer whose output may change with its version: these bytes are promised forever
/// (`DemoPictureNamesTests`). So every point is made with additions and multiplications of
/// fixed numbers only, which give the same bits on every machine.
enum StrokeFont {
    /// A letter: its width in units (its strokes lie within 0...width by 0...10) and its strokes,
    /// each a polyline.
    struct Glyph {
        let width: Double
        let strokes: [[(x: Double, y: Double)]]
    }

    static let height = 10.0

    /// The glyph of a capital letter, nil for any other character.
    static func glyph(_ letter: Character) -> Glyph? {
        switch letter {
        case "A": Glyph(width: 8, strokes: [[(0, 10), (4, 0), (8, 10)], [(1.6, 6.5), (6.4, 6.5)]])
        case "B": Glyph(width: 7, strokes: [[(0, 0), (0, 10)],
                                            [(0, 0), (4, 0)] + arc(4, 2.5, 2.5, 2.5, 270, 450) + [(0, 5)],
                                            [(0, 5), (4, 5)] + arc(4, 7.5, 3, 2.5, 270, 450) + [(0, 10)]])
        case "C": Glyph(width: 7.7, strokes: [arc(4.5, 5, 4.5, 5, 315, 45)])
        case "D": Glyph(width: 8, strokes: [[(0, 0), (0, 10)], [(0, 0), (3, 0)] + arc(3, 5, 5, 5, 270, 450) + [(0, 10)]])
        case "E": Glyph(width: 6.5, strokes: [[(6.5, 0), (0, 0), (0, 10), (6.5, 10)], [(0, 5), (5.5, 5)]])
        case "F": Glyph(width: 6.5, strokes: [[(6.5, 0), (0, 0), (0, 10)], [(0, 5), (5.5, 5)]])
        case "G": Glyph(width: 9, strokes: [arc(4.5, 5, 4.5, 5, 315, 0) + [(5, 5)]])
        case "H": Glyph(width: 7, strokes: [[(0, 0), (0, 10)], [(7, 0), (7, 10)], [(0, 5), (7, 5)]])
        case "I": Glyph(width: 0, strokes: [[(0, 0), (0, 10)]])
        case "J": Glyph(width: 5.5, strokes: [[(5.5, 0), (5.5, 7.25)] + arc(2.75, 7.25, 2.75, 2.75, 0, 165)])
        case "K": Glyph(width: 7, strokes: [[(0, 0), (0, 10)], [(7, 0), (0, 6.5)], [(2.6, 4.1), (7, 10)]])
        case "L": Glyph(width: 6, strokes: [[(0, 0), (0, 10), (6, 10)]])
        case "M": Glyph(width: 9, strokes: [[(0, 10), (0, 0), (4.5, 7), (9, 0), (9, 10)]])
        case "N": Glyph(width: 7.5, strokes: [[(0, 10), (0, 0), (7.5, 10), (7.5, 0)]])
        case "O": Glyph(width: 9, strokes: [arc(4.5, 5, 4.5, 5, 0, 360)])
        case "P": Glyph(width: 7, strokes: [[(0, 10), (0, 0), (4, 0)] + arc(4, 2.75, 3, 2.75, 270, 450) + [(0, 5.5)]])
        case "Q": Glyph(width: 9, strokes: [arc(4.5, 5, 4.5, 5, 0, 360), [(5.6, 7), (9, 10.5)]])
        case "R": Glyph(width: 7, strokes: [[(0, 10), (0, 0), (4, 0)] + arc(4, 2.75, 3, 2.75, 270, 450) + [(0, 5.5)],
                                            [(3.6, 5.5), (7, 10)]])
        case "S": Glyph(width: 7.5, strokes: [arc(3.75, 2.5, 3.5, 2.5, 330, 90) + arc(3.75, 7.5, 3.75, 2.5, 270, 510)])
        case "T": Glyph(width: 7, strokes: [[(0, 0), (7, 0)], [(3.5, 0), (3.5, 10)]])
        case "U": Glyph(width: 7.5, strokes: [[(0, 0), (0, 6.25)] + arc(3.75, 6.25, 3.75, 3.75, 180, 0) + [(7.5, 0)]])
        case "V": Glyph(width: 8, strokes: [[(0, 0), (4, 10), (8, 0)]])
        case "W": Glyph(width: 11, strokes: [[(0, 0), (2.75, 10), (5.5, 2), (8.25, 10), (11, 0)]])
        case "X": Glyph(width: 7.5, strokes: [[(0, 0), (7.5, 10)], [(7.5, 0), (0, 10)]])
        case "Y": Glyph(width: 8, strokes: [[(0, 0), (4, 5), (8, 0)], [(4, 5), (4, 10)]])
        case "Z": Glyph(width: 7, strokes: [[(0, 0), (7, 0), (0, 10), (7, 10)]])
        default: nil
        }
    }

    /// Points of the ellipse around (cx, cy) with radii rx, ry, every 15 degrees from `from` to
    /// `to` (multiples of 15, either way round; 0 points right and 90 down, as y grows down).
    static func arc(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, _ from: Int, _ to: Int) -> [(x: Double, y: Double)] {
        let step = to >= from ? 15 : -15
        return stride(from: from, through: to, by: step).map { degrees in
            let turn = ((degrees / 15) % 24 + 24) % 24
            return (cx + rx * cosines[turn], cy + ry * cosines[(turn + 18) % 24])
        }
    }

    /// cos(15° · n) for n = 0..<24, written out (sin(a) is cos(a - 90°)): the same numbers on
    /// every machine, where a library's cosine need not be.
    private static let cosines: [Double] = {
        let quarter = [1, 0.9659258262890683, 0.8660254037844387, 0.7071067811865476, 0.5, 0.25881904510252074]
        return quarter + [0] + quarter.dropFirst().reversed().map { -$0 } + [-1] + quarter.dropFirst().map { -$0 } + [0]
            + quarter.dropFirst().reversed()
    }()
}
