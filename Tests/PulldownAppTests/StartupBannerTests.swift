import XCTest
@testable import PulldownApp

final class StartupBannerTests: XCTestCase {
    func testLoopbackHostsPrintNothingSinceNoOtherDeviceCanReachThem() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost"] {
            XCTAssertEqual(StartupBanner.lines(host: host, port: 8080, interfaceAddresses: ["192.168.1.20"],
                                               qrCode: .always, isTerminal: true), [], host)
        }
    }

    func testEveryInterfaceAddressIsOneURLAndTheCodeShowsOnlyOnATerminal() {
        let quiet = StartupBanner.lines(host: "0.0.0.0", port: 8080, interfaceAddresses: ["192.168.1.20", "10.0.0.5"],
                                        qrCode: .whenTerminal, isTerminal: false)
        XCTAssertEqual(quiet, ["On your network: http://192.168.1.20:8080/", "On your network: http://10.0.0.5:8080/"])
        let shown = StartupBanner.lines(host: "0.0.0.0", port: 8080, interfaceAddresses: ["192.168.1.20"],
                                        qrCode: .whenTerminal, isTerminal: true)
        XCTAssertEqual(shown[1], "Scan it with a phone on the same network (http://192.168.1.20:8080/):")
        XCTAssertGreaterThan(shown.count, 12)
    }

    func testNoQRMeansNoCodeEvenOnATerminal() {
        let lines = StartupBanner.lines(host: "0.0.0.0", port: 80, interfaceAddresses: ["192.168.1.20"],
                                        qrCode: .never, isTerminal: true)
        XCTAssertEqual(lines, ["On your network: http://192.168.1.20:80/"])
    }

    func testASpecificAddressIsTheOnlyURLAndIPv6IsBracketed() {
        XCTAssertEqual(StartupBanner.lines(host: "192.168.1.7", port: 9000, interfaceAddresses: ["10.0.0.5"],
                                           qrCode: .never, isTerminal: false), ["On your network: http://192.168.1.7:9000/"])
        XCTAssertEqual(StartupBanner.lines(host: "2001:db8::7", port: 9000, interfaceAddresses: [],
                                           qrCode: .never, isTerminal: false), ["On your network: http://[2001:db8::7]:9000/"])
    }

    func testNoAddressAtAllIsSaid() {
        XCTAssertEqual(StartupBanner.lines(host: "0.0.0.0", port: 8080, interfaceAddresses: [], qrCode: .always,
                                           isTerminal: true), ["On your network: no address found (is this machine connected to one?)"])
    }

    func testThePresenterURLsCarryTheTokenInTheFragmentBeforeTheCodeWhichTheCaptionDoesNotRepeat() {
        let lines = StartupBanner.lines(host: "0.0.0.0", port: 8080, interfaceAddresses: ["192.168.1.20", "10.0.0.5"],
                                        qrCode: .always, isTerminal: false, presenterToken: "s3cret-token")
        XCTAssertEqual(Array(lines.prefix(5)), [
            "On your network: http://192.168.1.20:8080/", "On your network: http://10.0.0.5:8080/",
            "Presenter: http://192.168.1.20:8080/#demo=s3cret-token", "Presenter: http://10.0.0.5:8080/#demo=s3cret-token",
            "Scan it with a phone on the same network to steer the demo from it (the first Presenter URL):",
        ])
        XCTAssertEqual(lines.filter { $0.contains("s3cret-token") }.count, 2, "the token is printed once per presenter URL")
        XCTAssertEqual(Array(lines.dropFirst(5)), TerminalQRCode.lines(for: "http://192.168.1.20:8080/#demo=s3cret-token"),
                       "the code is the first presenter's URL")
        XCTAssertEqual(StartupBanner.lines(host: "0.0.0.0", port: 8080, interfaceAddresses: [], qrCode: .never,
                                           isTerminal: false, presenterToken: "s3cret-token").last,
                       "Presenter: http://localhost:8080/#demo=s3cret-token")
    }

    /// The modules `lines` draw, dark true, from the colours each upper half block is drawn in.
    private func modules(_ lines: [String]) -> [[Bool]] {
        lines.flatMap { line -> [[Bool]] in
            var top: [Bool] = [], bottom: [Bool] = []
            var colours = (top: false, bottom: false)
            let parts = line.replacingOccurrences(of: TerminalQRCode.reset, with: "").split(separator: "\u{1B}", omittingEmptySubsequences: true)
            for part in parts {
                let codes = part.dropFirst().prefix(while: { $0 != "m" }).split(separator: ";").compactMap { Int($0) }
                XCTAssertEqual(codes.count, 6, "explicit foreground and background: \(part)")
                colours = (codes[2] == TerminalQRCode.dark, codes[5] == TerminalQRCode.dark)
                for character in part.drop(while: { $0 != "m" }).dropFirst() {
                    XCTAssertEqual(character, "▀")
                    top.append(colours.top)
                    bottom.append(colours.bottom)
                }
            }
            return [top, bottom]
        }
    }

    func testTheCodeIsDrawnInExplicitColoursWithItsQuietZone() throws {
        let lines = try XCTUnwrap(TerminalQRCode.lines(for: "http://192.168.1.20:8080/"))
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("\u{1B}[38;5;") && $0.hasSuffix(TerminalQRCode.reset) },
                      "every line sets its colours and gives the terminal's back")
        let grid = modules(lines)
        let width = grid[0].count
        XCTAssertTrue(grid.allSatisfy { $0.count == width })
        XCTAssertEqual(lines.count, (width + 1) / 2, "two rows of modules a line")
        let quiet = TerminalQRCode.quietZone
        XCTAssertEqual(quiet, 4)
        for row in grid.prefix(quiet) + grid.suffix(quiet) { XCTAssertFalse(row.contains(true), "the quiet zone is light") }
        for row in grid { XCTAssertFalse(row.prefix(quiet).contains(true) || row.suffix(quiet).contains(true)) }
        XCTAssertEqual(Array(grid[quiet].dropFirst(quiet).prefix(7)), Array(repeating: true, count: 7), "a finder pattern's dark top")
    }
}
