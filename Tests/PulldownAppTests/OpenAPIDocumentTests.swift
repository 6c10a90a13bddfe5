import Foundation
import XCTest
@testable import PulldownApp

final class OpenAPIDocumentTests: XCTestCase {
    func testTheDocumentLoadsFromTheResourcesAsOpenAPI31JSON() throws {
        let response = try XCTUnwrap(OpenAPIDocument.response, "Resources/openapi.json is bundled and is JSON")
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(document["openapi"] as? String, "3.1.0")
        let paths = try XCTUnwrap(document["paths"] as? [String: Any])
        for path in ["/api/items", "/api/items/{id}", "/api/refresh", "/api/session", "/api/openapi.json", "/healthz"] {
            XCTAssertNotNil(paths[path], path)
        }
    }
}
