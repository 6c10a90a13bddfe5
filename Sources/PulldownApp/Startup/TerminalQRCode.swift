import CQRencode

/// A QR code for a terminal: upper half blocks (`▀`), two rows of modules a character, each
/// drawn in explicit colours, black modules on white, with the quiet zone of four modules the
/// standard asks for. Drawn in the terminal's own colours instead, a code is the right way round
/// on a dark background and inverted on a light one, and phones do not read inverted codes.
///
/// The colours are the 256-colour cube's black and white (16 and 231), which colour themes leave
/// as they are, unlike the sixteen basic colours. Each line sets its colours, changes them only
/// where a character differs from the one before, and resets them at its end.
enum TerminalQRCode {
    static let quietZone = 4
    static let dark = 16
    static let light = 231
    static let reset = "\u{1B}[0m"

    /// The lines of the code for `text`, or nil when libqrencode cannot encode it.
    static func lines(for text: String) -> [String]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // libqrencode's lowest bit of each byte: 1 for a dark module. Around the code, and below
        // its last row when the rows are odd, is quiet zone: light.
        func isDark(_ x: Int, _ y: Int) -> Bool {
            guard (0..<width).contains(x), (0..<width).contains(y) else { return false }
            return modules[y * width + x] & 1 == 1
        }
        let range = -quietZone..<(width + quietZone)
        return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { y in
            var line = ""
            var drawn: (top: Bool, bottom: Bool)?
            for x in range {
                let cell = (top: isDark(x, y), bottom: isDark(x, y + 1))
                if drawn.map({ $0 != cell }) ?? true { line += colours(top: cell.top, bottom: cell.bottom) }
                drawn = cell
                line += "▀"
            }
            return line + reset
        }
    }

    /// The top half is the foreground, the bottom half the background.
    private static func colours(top: Bool, bottom: Bool) -> String {
        "\u{1B}[38;5;\(top ? dark : light);48;5;\(bottom ? dark : light)m"
    }
}
