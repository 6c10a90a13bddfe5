import CQRencode

/// A QR code drawn with half-block characters, two rows of modules a line, for a terminal.
///
/// Light modules are drawn (`█`, `▀`, `▄`) and dark ones left blank, as `qrencode -t UTF8` does:
/// on the usual light-on-dark terminal that shows dark modules on a light ground, which is what
/// a phone's camera expects. A quiet zone of two modules surrounds the code.
enum TerminalQRCode {
    static let quietZone = 2

    /// The lines of the code for `text`, or nil when libqrencode cannot encode it.
    static func lines(for text: String) -> [String]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // libqrencode's lowest bit of each byte: 1 for a dark module.
        func isDark(_ x: Int, _ y: Int) -> Bool {
            guard (0..<width).contains(x), (0..<width).contains(y) else { return false }
            return modules[y * width + x] & 1 == 1
        }
        let range = -quietZone..<(width + quietZone)
        return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { y in
            String(range.map { x -> Character in
                switch (isDark(x, y), isDark(x, y + 1) || y + 1 >= range.upperBound) {
                case (false, false): return "█"
                case (false, true): return "▀"
                case (true, false): return "▄"
                case (true, true): return " "
                }
            })
        }
    }
}
