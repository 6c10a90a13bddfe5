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

    func testTheCodeIsSquareHalfBlocksWithAQuietZone() throws {
        let rows = try XCTUnwrap(TerminalQRCode.lines(for: "http://192.168.1.20:8080/"))
        let width = rows[0].count
        XCTAssertTrue(rows.allSatisfy { $0.count == width })
        XCTAssertEqual(rows.count, (width + 1) / 2, "two rows of modules a line")
        XCTAssertTrue(rows[0].allSatisfy { $0 == "█" }, "the top of the quiet zone is light")
        XCTAssertTrue(rows.joined().allSatisfy { "█▀▄ ".contains($0) })
    }
}
