/// Whole numbers as the README writes them, a comma between thousands: an import's progress
/// line, and start-up's line of what it serves.
public enum Thousands {
    /// "0", "999", "1,200", "-12,345".
    public static func grouped<N: BinaryInteger>(_ value: N) -> String {
        let digits = Array(String(value.magnitude))
        let grouped = digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
        return value < 0 ? "-" + grouped : grouped
    }
}
