import CJansson

/// What `EntryLoop` reads and finds: the shapes and limits, places in the file, the values,
/// the checkpoints to go on from, and its failures.
extension EntryLoop {
    enum Shape: String {
        /// A JSON array of items.
        case array
        /// An object whose collection (the `items` member, or another array: see `EntryLoop`)
        /// is the array of items.
        case items
        /// One item object a line (NDJSON).
        case lines
    }

    /// An entry's bytes may come to this much; more is refused before it is all read.
    static let maximumValueBytes = 1 << 20
    /// Levels of objects and arrays in a value: far above what an item may have (`UserFields`).
    static let maximumDepth = 64
    /// A member name of an object of collections may be this long, quotes aside.
    static let maximumNameBytes = 1024

    struct Position: Equatable {
        var offset: Int64 = 0
        var line = 1
        /// Of the last character read on `line` (characters, not bytes, as Jansson counts).
        var column = 0
    }

    /// Where reading stopped after an entry: enough to read on from there (`--watch`, or a
    /// restart with a file that grew).
    struct Checkpoint: Equatable {
        var shape: Shape
        var position = Position()
        /// Entries before this point.
        var entries = 0
    }

    /// A value found in the file: an entry, or another member of the `items` object (checked to
    /// be JSON, then left alone), as Jansson parsed it.
    struct Value {
        enum Role: Equatable {
            case entry(Int)
            case member(String)
        }
        let role: Role
        /// The reader's to decref once it is handed on.
        let json: UnsafeMutablePointer<json_t>
        /// Of the value's first character.
        let start: Position
        /// Just past its last byte.
        let end: Position
    }

    enum Failure: Error, Equatable {
        case malformed(Position, String)
        /// The object has no collection: no member `collection` (when given) holding an array,
        /// else no `items` array and no array of objects.
        case noCollection(String?)
        /// A value over `maximumValueBytes`; `field` is the member of it being read then.
        case tooLarge(Value.Role, field: String?, Position)
        /// A line of NDJSON is one value and a comma.
        case commaAfterLine(Position)
        /// The file could not be read (errno's words).
        case unreadable(String)
    }
}
