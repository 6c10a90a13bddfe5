import CNettle

/// Compares a guess with a secret (a token, a MAC) in time that depends on the secret's length
/// alone, by Nettle's `memeql_sec`, so the time taken says nothing of how much of a guess was right.
public enum ConstantTime {
    public static func equal(_ given: UnsafeRawBufferPointer, _ expected: UnsafeRawBufferPointer) -> Bool {
        guard let secret = expected.baseAddress else { return given.isEmpty }
        // A guess of another length costs the same comparison, of the secret with itself.
        let guess = given.count == expected.count ? given.baseAddress : secret
        return nettle_memeql_sec(guess, secret, expected.count) != 0 && given.count == expected.count
    }

    public static func equal(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        given.withUnsafeBytes { given in expected.withUnsafeBytes { expected in equal(given, expected) } }
    }
}
