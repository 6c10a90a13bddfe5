import XCTest
@testable import PulldownApp

/// `/` tells the page who may press its Demo button: the template's hidden button is shown at
/// once on an open demo API, waits for a token beyond loopback, and stays hidden when it is off.
final class HomePageDemoButtonTests: XCTestCase {
    private let template = #"<header><button type="button" id="demo" data-t="demo" hidden>Demo</button></header>"#

    private func written(_ button: HomePage.DemoButton) -> String {
        String(decoding: button.write(into: Array(template.utf8)), as: UTF8.self)
    }

    func testOnLoopbackTheButtonIsShown() {
        XCTAssertEqual(HomePage.DemoButton(access: DemoAccess(host: "127.0.0.1", configured: nil)), .open)
        XCTAssertEqual(written(.open), #"<header><button type="button" id="demo" data-t="demo">Demo</button></header>"#)
    }

    func testBeyondLoopbackTheButtonWaitsForAToken() {
        XCTAssertEqual(HomePage.DemoButton(access: DemoAccess(host: "0.0.0.0", configured: "presenter-token")), .token)
        let page = written(.token)
        XCTAssertEqual(page, #"<header><button type="button" id="demo" data-t="demo" data-demo="token" hidden>Demo</button></header>"#)
        XCTAssertFalse(page.contains("presenter-token"), "the token is never in the page")
    }

    func testWithTheDemoAPIOffTheButtonStaysHidden() {
        XCTAssertEqual(HomePage.DemoButton(access: nil), .off)
        XCTAssertEqual(written(.off), template)
    }

    func testAPageWithoutTheButtonIsLeftAsItIs() {
        let page = Array("<p>no button</p>".utf8)
        XCTAssertEqual(HomePage.DemoButton.open.write(into: page), page)
    }
}
