import Foundation
import XCTest

/// README's "Swift client" example is the one compiled with the tests (readmeExample() in
/// Tests/PulldownClientLiveTests/ReadmeExample.swift), line for line.
final class ReadmeExampleTests: XCTestCase {
    func testTheReadmesExampleIsTheOneCompiled() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "## Swift client\n").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let shown = block.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty }.map(String.init)

        let source = try String(contentsOf: repository.appendingPathComponent("Tests/PulldownClientLiveTests/ReadmeExample.swift"),
                                encoding: .utf8)
        let body = try XCTUnwrap(source.components(separatedBy: "func readmeExample() async throws {\n").dropFirst().first?
            .components(separatedBy: "\n}\n").first)
        let compiled = body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.hasPrefix("    ") ? $0.dropFirst(4) : $0) } + [""]
        XCTAssertEqual(shown, compiled)
    }
}
