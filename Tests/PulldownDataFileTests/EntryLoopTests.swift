import CJansson
import Hashing
import XCTest
@testable import PulldownDataFile

/// `EntryLoop` and `EntryLoop.shape`: the entries of a data file, read by Jansson from chunks of
/// any size, with their places, the structure around them checked, and the end of the file told
/// from an entry still being written.
final class EntryLoopTests: XCTestCase {
    private struct Found {
        var role: EntryLoop.Value.Role
        /// The value as Jansson parsed it, written compactly.
        var text: String
        var start: EntryLoop.Position
        var end: EntryLoop.Position
    }

    /// Every value of `text` read `chunk` bytes at a time, and the failure if any.
    private func read(_ text: String, _ shape: EntryLoop.Shape, chunk: Int = 1, strict: Bool = true, collection: String? = nil)
        -> (values: [Found], failure: EntryLoop.Failure?) {
        read(Array(text.utf8), from: .init(shape: shape), chunk: chunk, strict: strict, collection: collection)
    }

    private func read(_ bytes: [UInt8], from checkpoint: EntryLoop.Checkpoint, chunk: Int = 1, strict: Bool = true,
                      collection: String? = nil) -> (values: [Found], failure: EntryLoop.Failure?) {
        let source = DataFileBytes(.memory(bytes, chunk: chunk), from: checkpoint.position)
        var loop = EntryLoop(checkpoint, collection: collection, strict: strict)
        var values: [Found] = []
        do {
            while let value = try loop.next(source) {
                defer { json_decref(value.json) }
                let dumped = json_dumps(value.json, Int(JSON_COMPACT | JSON_ENCODE_ANY))!
                defer { free(dumped) }
                values.append(Found(role: value.role, text: String(cString: dumped), start: value.start, end: value.end))
            }
        } catch {
            return (values, error)
        }
        return (values, nil)
    }

    private func failure(_ text: String, _ shape: EntryLoop.Shape = .array, strict: Bool = true) -> String {
        read(text, shape, chunk: 3, strict: strict).failure.map { "\($0)" } ?? "none"
    }

    func testArrayEntriesAreFoundWhateverTheChunks() {
        let text = #"[ {"title": "a, ]"}, {"t": "q\"}"} ,7, "s", [1,[2]], true ]"# + "\n"
        for chunk in [1, 3, 1000] {
            let found = read(text, .array, chunk: chunk)
            XCTAssertNil(found.failure)
            XCTAssertEqual(found.values.map(\.text), [#"{"title":"a, ]"}"#, #"{"t":"q\"}"}"#, "7", #""s""#, "[1,[2]]", "true"])
            XCTAssertEqual(found.values.map(\.role), (0..<6).map { .entry($0) })
        }
    }

    func testPlacesCountLinesAndCharacters() {
        let text = "[\n  {\"title\": \"é\"},\n  {\"title\": \"b\"}\n]"
        let found = read(text, .array, chunk: 4)
        XCTAssertEqual(found.values.map(\.start.line), [2, 3])
        XCTAssertEqual(found.values.map(\.start.column), [3, 3])
        XCTAssertEqual(found.values[0].end, .init(offset: Int64(Array("[\n  {\"title\": \"é\"}".utf8).count), line: 2, column: 16))
    }

    func testTheItemsMemberHoldsTheEntriesAndOtherMembersAreValues() {
        let found = read(#"{"meta": {"v": 1}, "items": [{"title": "a"}], "n": 2}"#, .items, chunk: 2)
        XCTAssertNil(found.failure)
        XCTAssertEqual(found.values.map(\.role), [.member("meta"), .entry(0), .member("n")])
        XCTAssertEqual(found.values.map(\.text), [#"{"v":1}"#, #"{"title":"a"}"#, "2"])
        XCTAssertEqual(read(#"{"other": []}"#, .items).failure, .noCollection(nil))
        XCTAssertEqual(read(#"{"\u0069tems": [{"title": "a"}]}"#, .items).values.map(\.role), [.entry(0)], "names are read as JSON")
    }

    func testTheFirstArrayOfObjectsIsTheCollectionAndOtherArraysAreReadAnElementAtATime() {
        let text = #"{"tags": ["a", []], "none": [], "posts": [{"id": 1}, {"id": 2}], "comments": [{"c": 1}]}"#
        for chunk in [1, 7, 1000] {
            let found = read(text, .items, chunk: chunk)
            XCTAssertNil(found.failure)
            XCTAssertEqual(found.values.map(\.role), [.member("tags"), .member("tags"), .entry(0), .entry(1), .member("comments")])
        }
        XCTAssertEqual(read(text, .items, collection: "comments").values.map(\.role),
                       [.member("tags"), .member("tags"), .member("posts"), .member("posts"), .entry(0)])
        XCTAssertEqual(read(#"{"posts": [], "items": []}"#, .items).failure, nil, "items, even empty, is the collection")
    }

    func testAByteOrderMarkIsNoPartOfTheDocument() {
        let found = read("\u{FEFF}[{\"a\": 1}]", .array)
        XCTAssertNil(found.failure)
        XCTAssertEqual(found.values.map(\.start.column), [2], "the mark takes no column")
        XCTAssertEqual(read([0xEF, 0xBB, 0x5B, 0x5D], from: .init(shape: .array)).failure,
                       .malformed(.init(offset: 2, line: 1, column: 0), "invalid UTF-8 at the start of the file"))
    }

    func testNDJSONLinesAreEntriesAndBlankLinesAreSkipped() {
        let found = read("{\"a\": 1}\r\n\n  {\"b\": 2}  \n{\"c\": 3}", .lines, chunk: 5)
        XCTAssertEqual(found.values.map(\.text), [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
        XCTAssertEqual(found.values.map(\.start.line), [1, 3, 4])
        XCTAssertEqual(found.values[1].end.offset, 23, "a line ends at its newline, blanks and all")
        XCTAssertEqual(read("{\"c\": 3}", .lines, strict: false).values.count, 0, "an unfinished line waits")
        XCTAssertEqual(read("{\"c\": 3}\n{\"d\":", .lines, strict: false).values.count, 1, "even one Jansson would refuse now")
    }

    func testAnythingAfterTheValueOnAnNDJSONLineIsJanssonsToRefuse() {
        XCTAssertEqual(read("{\"a\": 1}\n{\"b\": 2} x\n", .lines).failure,
                       .malformed(.init(offset: 19, line: 2, column: 10), "end of file expected near 'x'"))
        XCTAssertEqual(read("{\"a\": 1}\n{\"b\": 2},  \n", .lines).failure, .commaAfterLine(.init(offset: 9, line: 2, column: 1)))
    }

    func testBrokenStructureIsAFailureWithItsPlace() {
        XCTAssertTrue(failure(#"[{"a":1} {"b":2}]"#).contains("expected , or ]"))
        XCTAssertEqual(read("[{\"a\":1},\n ]", .array).failure, .malformed(.init(offset: 11, line: 2, column: 2), "expected an entry"))
        XCTAssertTrue(failure(#"[{"a":1}] x"#).contains("nothing may follow"))
        XCTAssertTrue(failure(#"[{"a":1}"#).contains("ends before its array"))
        XCTAssertTrue(failure(#"{"items": [{"a":1}"#, .items).contains("ends before its object"))
        XCTAssertTrue(failure(#"{"items": [], "items": []}"#, .items).contains("two items"))
        XCTAssertTrue(failure(#"{"items" []}"#, .items).contains("expected : after a member name"))
        XCTAssertTrue(failure(#"{"posts": {"title": "x"}}"#, .items).contains("noCollection"))
    }

    func testJanssonsFindingsAreToldAtTheirPlaceInTheFile() {
        let text = "[\n  {\"title\": \"a\"},\n  {\"title\": \"b\",}\n]"
        XCTAssertEqual(read(text, .array, chunk: 3).failure,
                       .malformed(.init(offset: 37, line: 3, column: 17), "string or '}' expected near '}'"))
        let invalid: [UInt8] = Array(#"[{"title": ""#.utf8) + [0xFF, 0xFE] + Array(#""}]"#.utf8)
        guard case .malformed(let place, let reason)? = read(invalid, from: .init(shape: .array)).failure else {
            return XCTFail("accepted")
        }
        XCTAssertEqual(place.line, 1)
        XCTAssertTrue(reason.hasPrefix("unable to decode byte 0xff"), reason)
        XCTAssertTrue(failure(#"[{"a": 1, "a": 2}]"#).contains("duplicate object key"))
    }

    func testNestingDeeperThanTheLimitIsToldAtTheFirstBracketTooDeep() {
        let deep = String(repeating: "[", count: EntryLoop.maximumDepth + 1) + String(repeating: "]", count: EntryLoop.maximumDepth + 1)
        let tooDeep = EntryLoop.Failure.malformed(.init(offset: 67, line: 2, column: 66), "nesting deeper than 64 levels")
        XCTAssertEqual(read("[\n " + deep + "]", .array, chunk: 1000).failure, tooDeep, "parsed, then found too deep")
        XCTAssertEqual(read("[\n " + String(repeating: "[", count: 10_000), .array, chunk: 1000).failure, tooDeep,
                       "deeper than Jansson goes")
        let deepest = String(repeating: "[", count: EntryLoop.maximumDepth) + String(repeating: "]", count: EntryLoop.maximumDepth)
        XCTAssertNil(read("[" + deepest + "]", .array).failure)
    }

    func testALargeEntryIsRefusedNamingTheFieldBeingRead() {
        let text = #"[{"id": 1, "title": ""# + String(repeating: "x", count: EntryLoop.maximumValueBytes) + #""}]"#
        XCTAssertEqual(read(text, .array, chunk: 65536).failure,
                       .tooLarge(.entry(0), field: "title", .init(offset: 1, line: 1, column: 2)))
        let exactly = "[" + #"{"t": ""# + String(repeating: "x", count: EntryLoop.maximumValueBytes - 9) + #""}]"#
        XCTAssertNil(read(exactly, .array, chunk: 65536).failure, "an entry of exactly the limit")
        let line = #"{"title": ""# + String(repeating: "x", count: EntryLoop.maximumValueBytes) + "\"}\n"
        XCTAssertEqual(read(line, .lines, chunk: 65536).failure, .tooLarge(.entry(0), field: nil, .init(offset: 0, line: 1, column: 1)))
        let name = "{\"" + String(repeating: "n", count: EntryLoop.maximumNameBytes + 1) + "\": []}"
        XCTAssertEqual(read(name, .items, chunk: 100).failure,
                       .malformed(.init(offset: 1026, line: 1, column: 1027), "a member name over 1024 bytes"))
    }

    func testAnEntryCutShortByTheEndOfTheFileWaitsUnderWatchAndFailsAtStart() {
        for cut in [#"{"b":"#, #"{"b": tr"#, #"{"b": -"#, #"{"b": "é"#, "12", "{"] {
            let text = #"[{"a": 1}, "# + cut
            let watched = read(text, .array, chunk: 3, strict: false)
            XCTAssertEqual(watched.values.count, 1, cut)
            XCTAssertNil(watched.failure, cut)
            let end = EntryLoop.Position(offset: Int64(text.utf8.count), line: 1, column: text.count)
            XCTAssertEqual(read(text, .array, chunk: 3).failure, .malformed(end, "the file ends before its array is closed"), cut)
        }
        XCTAssertEqual(read(#"[{"a": 1}, {"b": x}, "#, .array, chunk: 3, strict: false).failure,
                       .malformed(.init(offset: 18, line: 1, column: 18), "invalid token near 'x'"),
                       "a mistake the end of the file cannot mend is said")
    }

    func testACheckpointGoesOnWhereTheLastEntryEnded() {
        let first = read(#"[{"a":1}]"#, .array).values
        let checkpoint = EntryLoop.Checkpoint(shape: .array, position: first[0].end, entries: 1)
        let taken = TakenIn(chain: [1], checkpoint: checkpoint, bytes: Array(repeating: 7, count: 32))
        XCTAssertEqual(TakenIn(taken.mark), taken, "the mark reads back")
        let grown = Array(#"[{"a":1}, {"b":2}]"#.utf8)
        let resumed = read(grown, from: checkpoint, chunk: 2)
        XCTAssertNil(resumed.failure)
        XCTAssertEqual(resumed.values.map(\.role), [.entry(1)])
        XCTAssertEqual(resumed.values.map(\.start), [.init(offset: 10, line: 1, column: 11)])
    }

    func testTheDigestIsOfTheBytesUpToTheCursorWhateverTheChunks() throws {
        let text = Array("[{\"title\": \"é\"},\n {\"title\": \"b\"}, 12 ]".utf8)
        for chunk in [1, 2, 5, 1000] {
            let bytes = DataFileBytes(.memory(text, chunk: chunk))
            var loop = EntryLoop(.init(shape: .array))
            while let value = try loop.next(bytes) {
                json_decref(value.json)
                XCTAssertEqual(bytes.digest(), ContentHash.digest(of: text.prefix(Int(value.end.offset))), "chunk \(chunk)")
            }
        }
    }

    func testTheShapeIsToldFromTheFirstObject() throws {
        func shape(_ text: String, collection: String? = nil) throws -> EntryLoop.Verdict {
            try EntryLoop.shape(of: DataFileBytes(.memory(Array(text.utf8), chunk: 3)), collection: collection)
        }
        XCTAssertEqual(try shape("[]"), .shape(.array))
        XCTAssertEqual(try shape(#"{"items": [{"title": "a"}]}"#), .shape(.items))
        XCTAssertEqual(try shape("{\n \"items\": []\n}"), .shape(.items))
        XCTAssertEqual(try shape("{\"title\": \"a\"}\n{\"title\": \"b\"}\n"), .shape(.lines))
        XCTAssertEqual(try shape("{\"title\": \"a\", \"items\": [1]}\n{\"title\": \"b\"}"), .shape(.lines))
        XCTAssertEqual(try shape(#"{"title": "one line"}"#), .shape(.lines))
        XCTAssertEqual(try shape(#"{"posts": [{"id": 1, "title": "x"}], "comments": []}"#), .shape(.items), "a db.json on one line")
        XCTAssertEqual(try shape(#"{"title": "x", "tags": [{"a": 1}]}"#), .shape(.lines), "an item with an array of objects")
        XCTAssertEqual(try shape("{\"title\": \"a\"},\n{\"title\": \"b\"},"), .shape(.lines), "NDJSON with commas, for the lines to say")
        XCTAssertEqual(try shape("{\"items\": []} {\"a\": 1}"), .shape(.items), "more on the line: the lines would not hold it")
        XCTAssertEqual(try shape("{\"title\": \"a\",}\n{\"title\": \"b\"}"), .shape(.lines), "refused, and more lines follow")
        XCTAssertEqual(try shape(#"{"items": [{"title": "a"}],}"#), .shape(.items), "refused, the only line")
        XCTAssertEqual(try shape("\u{FEFF}{\"title\": \"a\"}\n{\"title\": \"b\"}"), .shape(.lines))
        XCTAssertEqual(try shape("{\"title\": \"a\"}", collection: "posts"), .shape(.items))
        XCTAssertEqual(try shape("hello"), .notAnItemFile)
        XCTAssertEqual(try shape("  "), .notAnItemFile)
        let long = #"{"posts": [{"title": ""# + String(repeating: "x", count: EntryLoop.maximumValueBytes) + #""}]}"#
        XCTAssertEqual(try shape(long), .shape(.items), "longer than an entry may be")
    }

    func testOtherEncodingsAreToldByTheirFirstBytes() {
        func encoding(_ text: String, _ encoding: String.Encoding) -> String? {
            EntryLoop.encoding(of: Array(text.data(using: encoding)!.prefix(4)))
        }
        XCTAssertEqual(encoding("[{}]", .utf16LittleEndian), "UTF-16 (little-endian)")
        XCTAssertEqual(encoding("[{}]", .utf16BigEndian), "UTF-16 (big-endian)")
        XCTAssertEqual(encoding("[{}]", .utf32LittleEndian), "UTF-32 (little-endian)")
        XCTAssertEqual(encoding("[{}]", .utf32BigEndian), "UTF-32 (big-endian)")
        XCTAssertEqual(EntryLoop.encoding(of: [0xFF, 0xFE, 0x5B, 0x00]), "UTF-16 (little-endian)")
        XCTAssertNil(encoding("[{}]", .utf8))
        XCTAssertNil(encoding("\u{FEFF}[", .utf8))
        XCTAssertNil(EntryLoop.encoding(of: Array("[".utf8)))
    }
}
