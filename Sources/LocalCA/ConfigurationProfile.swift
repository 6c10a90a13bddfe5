import Foundation
import Hashing

/// An iOS configuration profile (`.mobileconfig`) that installs the root certificate: a property
/// list with one `com.apple.security.root` payload. It is unsigned, so iOS marks it "Not Signed"
/// while installing; signing would need a certificate Apple's devices already trust.
///
/// The identifiers and UUIDs come from the root's fingerprint: the same root always gives the
/// same profile, and installing it again replaces the one installed instead of adding another.
public enum ConfigurationProfile {
    public static let contentType = "application/x-apple-aspen-config"

    public static func profile(for ca: LocalCA) -> [UInt8] {
        let fingerprint = Hex.encode(ca.rootSHA256)
        let payloadUUID = uuid(from: Array(ca.rootSHA256[0..<16]))
        let profileUUID = uuid(from: Array(ca.rootSHA256[16..<32]))
        let name = escaped(ca.rootName)
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>PayloadContent</key>
        \t<array>
        \t\t<dict>
        \t\t\t<key>PayloadCertificateFileName</key>
        \t\t\t<string>pulldown-ca.crt</string>
        \t\t\t<key>PayloadContent</key>
        \t\t\t<data>\(Data(ca.rootDER).base64EncodedString())</data>
        \t\t\t<key>PayloadDescription</key>
        \t\t\t<string>Adds the root certificate of a Pulldown demo server.</string>
        \t\t\t<key>PayloadDisplayName</key>
        \t\t\t<string>\(name)</string>
        \t\t\t<key>PayloadIdentifier</key>
        \t\t\t<string>dev.pulldown.ca.\(fingerprint.prefix(16)).root</string>
        \t\t\t<key>PayloadType</key>
        \t\t\t<string>com.apple.security.root</string>
        \t\t\t<key>PayloadUUID</key>
        \t\t\t<string>\(payloadUUID)</string>
        \t\t\t<key>PayloadVersion</key>
        \t\t\t<integer>1</integer>
        \t\t</dict>
        \t</array>
        \t<key>PayloadDescription</key>
        \t<string>Lets this device trust the HTTPS of a Pulldown server. After installing, turn on full trust in Settings › General › About › Certificate Trust Settings.</string>
        \t<key>PayloadDisplayName</key>
        \t<string>\(name)</string>
        \t<key>PayloadIdentifier</key>
        \t<string>dev.pulldown.ca.\(fingerprint.prefix(16))</string>
        \t<key>PayloadRemovalDisallowed</key>
        \t<false/>
        \t<key>PayloadType</key>
        \t<string>Configuration</string>
        \t<key>PayloadUUID</key>
        \t<string>\(profileUUID)</string>
        \t<key>PayloadVersion</key>
        \t<integer>1</integer>
        </dict>
        </plist>

        """
        return Array(text.utf8)
    }

    /// 16 bytes as a UUID's text, marked as version 8 (made by the application) and RFC 4122's variant.
    static func uuid(from bytes: [UInt8]) -> String {
        var b = bytes
        b[6] = (b[6] & 0x0f) | 0x80
        b[8] = (b[8] & 0x3f) | 0x80
        let hex = Hex.uppercase(b)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
