import Foundation
import CZlib
import XCTest
@testable import PulldownHTTP

/// Decompresses a gzip stream with zlib directly (windowBits 15 + 16 = gzip only).
func gunzip(_ data: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, 31, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var input = data
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    var status: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { inBuffer in
        stream.next_in = inBuffer.baseAddress
        stream.avail_in = uInt(inBuffer.count)
        while status == Z_OK {
            let produced = chunk.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                status = inflate(&stream, Z_NO_FLUSH)
                return outBuffer.count - Int(stream.avail_out)
            }
            output.append(contentsOf: chunk[0..<produced])
            if status == Z_BUF_ERROR && stream.avail_in == 0 { break }
        }
    }
    return status == Z_STREAM_END && stream.avail_in == 0 ? output : nil
}

/// `data` as gzip from zlib at `level`, to compare with.
func zlibGzip(_ data: [UInt8], level: Int32) -> [UInt8]? {
    var stream = z_stream()
    guard deflateInit2_(&stream, level, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                        Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))))
    var input = data
    let status = input.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            return deflate(&stream, Z_FINISH)
        }
    }
    guard status == Z_STREAM_END else { return nil }
    return Array(output.prefix(Int(stream.total_out)))
}

final class GzipTests: XCTestCase {
    func testCompressedTextRoundTripsAndIsSmaller() throws {
        let text = Array(String(repeating: "<li class=\"item\">Pull down to refresh…</li>\n", count: 200).utf8)
        let compressed = try XCTUnwrap(Gzip.compress(text))
        XCTAssertLessThan(compressed.count, text.count / 4)
        XCTAssertEqual(Array(compressed.prefix(3)), [0x1f, 0x8b, 0x08], "a gzip header, not a zlib one")
        XCTAssertEqual(gunzip(compressed), text)
    }

    func testEmptyInputRoundTrips() throws {
        let compressed = try XCTUnwrap(Gzip.compress([]))
        XCTAssertEqual(gunzip(compressed), [])
    }

    func testRandomBytesLargerThanOneChunkRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        let data = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let compressed = try XCTUnwrap(Gzip.compress(data))
        XCTAssertEqual(gunzip(compressed), data)
    }

    /// What the compressor was chosen for: the page's own script smaller than at zlib's best.
    func testThePagesScriptComesOutSmallerThanAtZlibsBestLevel() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Public/feed.js").standardized
        let text = try [UInt8](Data(contentsOf: script))
        let ours = try XCTUnwrap(Gzip.compress(text))
        let zlibBest = try XCTUnwrap(zlibGzip(text, level: Z_BEST_COMPRESSION))
        XCTAssertEqual(gunzip(ours), text)
        XCTAssertLessThan(ours.count, zlibBest.count)
    }

    func testTrailerCarriesTheInputLength() throws {
        let data = Array(repeating: UInt8(ascii: "a"), count: 1234)
        let compressed = try XCTUnwrap(Gzip.compress(data))
        let isize = compressed.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(isize, 1234)
    }
}
