import XCTest
@testable import PulldownDataFile

/// `EntryScanner` and `ShapeProbe`: entries found in a data file fed in chunks of any size, with
/// their places, and the structure around them checked.
final class EntryScannerTests: XCTestCase {
    /// Every value of `text` fed `chunk` bytes at a time, as text, and the failure if any.
    private func scan(_ text: String, _ shape: EntryScanner.Shape, chunk: Int = 1, strict: Bool = true)
        -> (values: [EntryScanner.Value], failure: EntryScanner.Failure?) {
        var scanner = EntryScanner(.init(shape: shape))
        var values: [EntryScanner.Value] = []
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            let scanned = bytes[start..<min(bytes.count, start + chunk)].withUnsafeBufferPointer { scanner.scan($0) }
            values += scanned.values
            if let failure = scanned.failure { return (values, failure) }
        }
        guard strict else { return (values, nil) }
        do {
            if let last = try scanner.finish() { values.append(last) }
        } catch {
            return (values, error)
        }
        return (values, nil)
    }

    private func texts(_ values: [EntryScanner.Value]) -> [String] { values.map { String(decoding: $0.bytes, as: UTF8.self) } }

    func testArrayEntriesAreFoundWhateverTheChunks() {
        let text = #"[ {"title": "a, ]"}, {"t": "q\"}"} ,7, "s", [1,[2]] ]"# + "\n"
        for chunk in [1, 3, 1000] {
            let scanned = scan(text, .array, chunk: chunk)
            XCTAssertNil(scanned.failure)
            XCTAssertEqual(texts(scanned.values), [#"{"title": "a, ]"}"#, #"{"t": "q\"}"}"#, "7", #""s""#, "[1,[2]]"])
            XCTAssertEqual(scanned.values.map(\.role), (0..<5).map { .entry($0) })
        }
    }

    func testPlacesCountLinesAndCharacters() {
        let scanned = scan("[\n  {\"title\": \"é\"},\n  {\"title\": \"b\"}\n]", .array, chunk: 4)
        XCTAssertEqual(scanned.values.map(\.start.line), [2, 3])
        XCTAssertEqual(scanned.values.map(\.start.column), [3, 3])
        XCTAssertEqual(scanned.values[0].end.offset, Int64(Array("[\n  {\"title\": \"é\"}".utf8).count))
    }

    func testTheItemsMemberHoldsTheEntriesAndOtherMembersAreValues() {
        let scanned = scan(#"{"meta": {"v": 1}, "items": [{"title": "a"}], "n": 2}"#, .items, chunk: 2)
        XCTAssertNil(scanned.failure)
        XCTAssertEqual(scanned.values.map(\.role), [.member("meta"), .entry(0), .member("n")])
        XCTAssertEqual(scan(#"{"other": []}"#, .items).failure, .noCollection(nil))
    }

    func testTheFirstArrayOfObjectsIsTheCollectionAndOtherArraysAreReadAnElementAtATime() {
        let text = #"{"tags": ["a", []], "none": [], "posts": [{"id": 1}, {"id": 2}], "comments": [{"c": 1}]}"#
        for chunk in [1, 7, 1000] {
            let scanned = scan(text, .items, chunk: chunk)
            XCTAssertNil(scanned.failure)
            XCTAssertEqual(scanned.values.map(\.role), [.member("tags"), .member("tags"), .entry(0), .entry(1), .member("comments")])
        }
        var named = EntryScanner(.init(shape: .items), collection: "comments")
        let values = Array(text.utf8).withUnsafeBufferPointer { named.scan($0) }.values
        XCTAssertEqual(values.map(\.role), [.member("tags"), .member("tags"), .member("posts"), .member("posts"), .entry(0)])
        XCTAssertEqual(scan(#"{"posts": [], "items": []}"#, .items).failure, nil, "items, even empty, is the collection")
    }

    func testAByteOrderMarkIsNoPartOfTheDocument() {
        let scanned = scan("\u{FEFF}[{\"a\": 1}]", .array)
        XCTAssertNil(scanned.failure)
        XCTAssertEqual(scanned.values.map(\.start.column), [2], "the mark takes no column")
    }

    func testNDJSONLinesAreEntriesAndBlankLinesAreSkipped() {
        let scanned = scan("{\"a\": 1}\r\n\n  {\"b\": 2}\n{\"c\": 3}", .lines, chunk: 5)
        XCTAssertEqual(texts(scanned.values), [#"{"a": 1}"#, #"{"b": 2}"#, #"{"c": 3}"#])
        XCTAssertEqual(scanned.values.map(\.start.line), [1, 3, 4])
        XCTAssertEqual(scan("{\"c\": 3}", .lines, strict: false).values.count, 0, "an unfinished line waits")
    }

    func testBrokenStructureIsAFailureWithItsPlace() {
        func failure(_ text: String, _ shape: EntryScanner.Shape = .array) -> String {
            scan(text, shape).failure.map { "\($0)" } ?? "none"
        }
        XCTAssertTrue(failure(#"[{"a":1} {"b":2}]"#).contains("expected , or ]"))
        XCTAssertTrue(failure("[{\"a\":1},\n ]").contains("line: 2"))
        XCTAssertTrue(failure(#"[{"a":1}] x"#).contains("nothing may follow"))
        XCTAssertTrue(failure(#"[{"a":1}"#).contains("ends before"))
        XCTAssertTrue(failure(String(repeating: "[", count: 10_000)).contains("nesting deeper"))
        XCTAssertTrue(failure(#"{"items": [], "items": []}"#, .items).contains("two items"))
    }

    func testALargeEntryIsRefusedNamingTheFieldBeingRead() {
        let text = #"[{"title": ""# + String(repeating: "x", count: EntryScanner.maximumValueBytes) + #""}]"#
        guard case .tooLarge(.entry(0), field: "title", _)? = scan(text, .array, chunk: 65536).failure else {
            return XCTFail("not refused")
        }
    }

    func testACheckpointGoesOnWhereTheLastEntryEnded() {
        var scanner = EntryScanner(.init(shape: .array))
        let first = Array(#"[{"a":1}]"#.utf8)
        _ = first.withUnsafeBufferPointer { scanner.scan($0) }
        let checkpoint = scanner.checkpoint
        XCTAssertEqual(checkpoint.entries, 1)
        let taken = TakenIn(chain: [1], checkpoint: checkpoint, bytes: Array(repeating: 7, count: 32))
        XCTAssertEqual(TakenIn(taken.mark), taken, "the mark reads back")
        var resumed = EntryScanner(checkpoint)
        let grown = Array(#", {"b":2}]"#.utf8)
        let scanned = grown.withUnsafeBufferPointer { resumed.scan($0) }
        XCTAssertNil(scanned.failure)
        XCTAssertEqual(scanned.values.map(\.role), [.entry(1)])
    }

    func testTheProbeTellsNDJSONFromAnItemsObject() {
        func shape(_ text: String) -> ShapeProbe.Verdict {
            var probe = ShapeProbe()
            Array(text.utf8).withUnsafeBufferPointer { probe.feed($0) }
            probe.finish()
            return probe.verdict
        }
        XCTAssertEqual(shape("[]"), .shape(.array))
        XCTAssertEqual(shape(#"{"items": [{"title": "a"}]}"#), .shape(.items))
        XCTAssertEqual(shape("{\n \"items\": []\n}"), .shape(.items))
        XCTAssertEqual(shape("{\"title\": \"a\"}\n{\"title\": \"b\"}\n"), .shape(.lines))
        XCTAssertEqual(shape("{\"title\": \"a\", \"items\": [1]}\n{\"title\": \"b\"}"), .shape(.lines))
        XCTAssertEqual(shape(#"{"title": "one line"}"#), .shape(.lines))
        XCTAssertEqual(shape(#"{"posts": [{"id": 1, "title": "x"}], "comments": []}"#), .shape(.items), "a db.json on one line")
        XCTAssertEqual(shape(#"{"title": "x", "tags": [{"a": 1}]}"#), .shape(.lines), "an item with an array of objects")
        XCTAssertEqual(shape("{\"title\": \"a\"},\n{\"title\": \"b\"},"), .shape(.lines), "NDJSON with commas, for the lines to say")
        XCTAssertEqual(shape("\u{FEFF}{\"title\": \"a\"}\n{\"title\": \"b\"}"), .shape(.lines))
        XCTAssertEqual(shape("hello"), .notAnItemFile)
    }

    func testOtherEncodingsAreToldByTheirFirstBytes() {
        func encoding(_ text: String, _ encoding: String.Encoding) -> String? {
            ShapeProbe.encoding(of: Array(text.data(using: encoding)!.prefix(4)))
        }
        XCTAssertEqual(encoding("[{}]", .utf16LittleEndian), "UTF-16 (little-endian)")
        XCTAssertEqual(encoding("[{}]", .utf16BigEndian), "UTF-16 (big-endian)")
        XCTAssertEqual(encoding("[{}]", .utf32LittleEndian), "UTF-32 (little-endian)")
        XCTAssertEqual(encoding("[{}]", .utf32BigEndian), "UTF-32 (big-endian)")
        XCTAssertEqual(ShapeProbe.encoding(of: [0xFF, 0xFE, 0x5B, 0x00]), "UTF-16 (little-endian)")
        XCTAssertNil(encoding("[{}]", .utf8))
        XCTAssertNil(encoding("\u{FEFF}[", .utf8))
        XCTAssertNil(ShapeProbe.encoding(of: Array("[".utf8)))
    }
}
