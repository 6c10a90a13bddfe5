import CCairo
import CPNG

/// A picture drawn by cairo in flat colours and written as PNG by libpng: filled rectangles and
/// circles, antialiased, on an opaque canvas.
final class PNGCanvas {
    private let width: Int
    private let height: Int
    private let surface: OpaquePointer
    private let cairo: OpaquePointer

    /// A `width` x `height` canvas filled with `background` ("#rrggbb").
    init(width: Int, height: Int, background: String) {
        (self.width, self.height) = (width, height)
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        cairo = cairo_create(surface)
        rectangle(x: 0, y: 0, width: width, height: height, colour: background)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    func rectangle(x: Int, y: Int, width: Int, height: Int, colour: String, opacity: Double = 1) {
        cairo_rectangle(cairo, Double(x), Double(y), Double(width), Double(height))
        fill(colour, opacity)
    }

    func circle(x: Int, y: Int, radius: Int, colour: String, opacity: Double = 1) {
        cairo_arc(cairo, Double(x), Double(y), Double(radius), 0, 2 * Double.pi)
        fill(colour, opacity)
    }

    /// The canvas as a PNG file; nil only if libpng cannot write it (memory).
    func png() -> [UInt8]? {
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        // cairo keeps a pixel as one native-endian 32-bit xRGB word; PNG wants the bytes R, G, B.
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * height) { words in
            for y in 0..<height {
                for x in 0..<width {
                    let word = words[y * stride / 4 + x], at = (y * width + x) * 3
                    rgb[at] = UInt8(truncatingIfNeeded: word >> 16)
                    rgb[at + 1] = UInt8(truncatingIfNeeded: word >> 8)
                    rgb[at + 2] = UInt8(truncatingIfNeeded: word)
                }
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_RGB)
        // Fast: no per-row filter search and light compression, a quarter of the time for files
        // about a quarter larger (docs/performance.md); flat colours compress well either way.
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        // Room for the pixels stored uncompressed, with PNG's and zlib's framing.
        var size = rgb.count + height + rgb.count / 100 + 1024
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBytes { out in
            png_image_write_to_memory(&image, out.baseAddress, &size, 0, rgb, 0, nil)
        }
        png_image_free(&image)
        guard written != 0 else { return nil }
        return Array(bytes.prefix(size))
    }

    private func fill(_ hex: String, _ opacity: Double) {
        let value = UInt32(hex.dropFirst(), radix: 16) ?? 0
        let channel = { (shift: UInt32) in Double(value >> shift & 0xff) / 255 }
        cairo_set_source_rgba(cairo, channel(16), channel(8), channel(0), opacity)
        cairo_fill(cairo)
    }
}
