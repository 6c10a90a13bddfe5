import XCTest
@testable import PulldownHTTP

final class ClosingRegistryTests: XCTestCase {
    private final class Element: Sendable {}

    func testCloseHandsOverWhatIsRegisteredAndRefusesMore() {
        let registry = ClosingRegistry<Element>()
        let kept = Element(), left = Element()
        XCTAssertTrue(registry.register(kept))
        XCTAssertTrue(registry.register(left))
        registry.unregister(left)
        let handed = registry.close()
        XCTAssertEqual(handed.map(ObjectIdentifier.init), [ObjectIdentifier(kept)])
        XCTAssertFalse(registry.register(Element()), "closed: the caller acts at once instead")
        XCTAssertTrue(registry.close().isEmpty, "nothing is kept after the first close")
        registry.unregister(kept)   // late, harmless
    }

    func testAClosedRegistryHoldsNoReference() {
        weak var weakElement: Element?
        let registry = ClosingRegistry<Element>()
        do {
            let element = Element()
            weakElement = element
            XCTAssertTrue(registry.register(element))
            _ = registry.close()
        }
        XCTAssertNil(weakElement)
    }
}
