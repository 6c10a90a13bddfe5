import CPNG
import Glibc

/// A picture in flat colours, written as PNG by libpng: filled rectangles, circles and lines,
/// their edges antialiased, on an opaque canvas. Drawing these shapes takes a few lines; a vector
/// library (cairo) would bring X11, fontconfig and a dozen more libraries into the server's
/// memory to draw them (docs/performance.md).
final class PNGCanvas {
    private let width: Int
    private let height: Int
    private var rgb: [UInt8] // R, G, B for each pixel, row after row

    /// A `width` x `height` canvas filled with `background` ("#rrggbb").
    init(width: Int, height: Int, background: String) {
        (self.width, self.height) = (width, height)
        let colour = Self.channels(background)
        rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { pixels, count in
            for at in stride(from: 0, to: pixels.count, by: 3) {
                (pixels[at], pixels[at + 1], pixels[at + 2]) = (UInt8(colour.x), UInt8(colour.y), UInt8(colour.z))
            }
            count = pixels.count
        }
    }

    func rectangle(x: Int, y: Int, width: Int, height: Int, colour: String, opacity: Double = 1) {
        let colour = Self.channels(colour)
        let canvasWidth = self.width, rows = max(0, y)..<min(self.height, y + height)
        let columns = max(0, x)..<min(canvasWidth, x + width)
        rgb.withUnsafeMutableBufferPointer { pixels in
            for row in rows {
                for column in columns { Self.blend(pixels, row * canvasWidth + column, colour, opacity) }
            }
        }
    }

    /// A disc centred on the point (x, y): a pixel that the edge crosses is covered in proportion
    /// to how far its centre lies inside, up to half a pixel either way.
    func circle(x: Int, y: Int, radius: Int, colour: String, opacity: Double = 1) {
        let colour = Self.channels(colour), r = Double(radius), width = self.width
        let rows = max(0, y - radius - 1)..<min(height, y + radius + 1)
        let columns = max(0, x - radius - 1)..<min(width, x + radius + 1)
        rgb.withUnsafeMutableBufferPointer { pixels in
            for row in rows {
                let dy = Double(row - y) + 0.5
                for column in columns {
                    let dx = Double(column - x) + 0.5
                    let coverage = min(1, r + 0.5 - (dx * dx + dy * dy).squareRoot())
                    if coverage > 0 { Self.blend(pixels, row * width + column, colour, opacity * coverage) }
                }
            }
        }
    }

    /// Lines through each of `polylines` (points in pixels), `lineWidth` wide with round ends and
    /// joins, their edges antialiased as a circle's are. A pixel is covered as much as the line
    /// nearest it covers it, so where lines meet nothing is drawn twice.
    func strokes(_ polylines: [[(x: Double, y: Double)]], lineWidth: Double, colour: String) {
        let colour = Self.channels(colour), half = lineWidth / 2, canvasWidth = width
        var coverage = [Double](repeating: 0, count: width * height)
        for line in polylines {
            for (a, b) in zip(line, line.dropFirst()) {
                let rows = max(0, Int((min(a.y, b.y) - half - 1).rounded(.down)))..<min(height, Int((max(a.y, b.y) + half + 1).rounded(.up)))
                let columns = max(0, Int((min(a.x, b.x) - half - 1).rounded(.down)))..<min(canvasWidth, Int((max(a.x, b.x) + half + 1).rounded(.up)))
                let (dx, dy) = (b.x - a.x, b.y - a.y), length = dx * dx + dy * dy
                for row in rows {
                    for column in columns {
                        let (px, py) = (Double(column) + 0.5 - a.x, Double(row) + 0.5 - a.y)
                        let t = length == 0 ? 0 : min(1, max(0, (px * dx + py * dy) / length))
                        let (ex, ey) = (px - t * dx, py - t * dy)
                        let covered = min(1, half + 0.5 - (ex * ex + ey * ey).squareRoot())
                        coverage[row * canvasWidth + column] = max(coverage[row * canvasWidth + column], covered)
                    }
                }
            }
        }
        rgb.withUnsafeMutableBufferPointer { pixels in
            for (index, covered) in coverage.enumerated() where covered > 0 { Self.blend(pixels, index, colour, covered) }
        }
    }

    /// The R, G and B of pixel (x, y).
    func pixel(x: Int, y: Int) -> [UInt8] {
        Array(rgb[(y * width + x) * 3..<(y * width + x) * 3 + 3])
    }

    /// The canvas as a PNG file; nil only if libpng cannot write it (memory).
    func png() -> [UInt8]? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_RGB)
        // Fast: no per-row filter search and light compression, a quarter of the time for files
        // about a quarter larger (docs/performance.md); flat colours compress well either way.
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        // libpng writes to a stream that grows as it is written (the file is about 2% of the pixels).
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let written = png_image_write_to_stdio(&image, stream, 0, rgb, 0, nil)
        fclose(stream)
        defer { free(buffer) }
        png_image_free(&image)
        guard written != 0, let buffer else { return nil }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: size) { Array(UnsafeBufferPointer(start: $0, count: size)) }
    }

    /// `colour` laid over pixel `index` at `alpha`.
    @inline(__always)
    private static func blend(_ pixels: UnsafeMutableBufferPointer<UInt8>, _ index: Int, _ colour: SIMD3<Double>, _ alpha: Double) {
        let at = index * 3
        let old = SIMD3(Double(pixels[at]), Double(pixels[at + 1]), Double(pixels[at + 2]))
        let new = old + (colour - old) * alpha + 0.5 // rounded by the conversion below
        (pixels[at], pixels[at + 1], pixels[at + 2]) = (UInt8(new.x), UInt8(new.y), UInt8(new.z))
    }

    private static func channels(_ hex: String) -> SIMD3<Double> {
        let value = UInt32(hex.dropFirst(), radix: 16) ?? 0
        return SIMD3(Double(value >> 16 & 0xff), Double(value >> 8 & 0xff), Double(value & 0xff))
    }
}
