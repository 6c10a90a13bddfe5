import Foundation

/// The folder a `LocalCA` keeps its files in, written as a careful engineer keeps keys.
struct TLSFolder {
    let path: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }

    /// Makes the folder (and its parents) if missing; the folder itself only its owner may enter.
    func create() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(description: "\(path) is not a folder") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure("cannot create \(path)") }
    }

    /// An exclusive lock on the folder, held until the descriptor is closed.
    func lock() throws -> Int32 {
        let fd = open(path + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot lock \(path)") }
        guard flock(fd, LOCK_EX) == 0 else {
            close(fd)
            throw failure("cannot lock \(path)")
        }
        return fd
    }

    /// The text of `name`, or nil when there is no such file.
    func read(_ name: String) throws -> String? {
        let file = path + "/" + name
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else { throw failure("cannot read \(file)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes `text` to `name` whole: under a temporary name created with its final permissions
    /// (0600 for a `secret`, 0644 otherwise, never wider than the umask allows), then renamed.
    func write(_ name: String, _ text: String, secret: Bool) throws {
        let file = path + "/" + name
        let temporary = "\(file).\(getpid()).tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, secret ? 0o600 : 0o644)
        guard fd >= 0 else { throw failure("cannot write \(temporary)") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard count > 0 else {
                close(fd)
                unlink(temporary)
                throw failure("cannot write \(temporary)")
            }
            written += count
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            unlink(temporary)
            throw failure("cannot write \(temporary)")
        }
        guard rename(temporary, file) == 0 else {
            unlink(temporary)
            throw failure("cannot write \(file)")
        }
    }

    /// The file's permission bits when its group or others may read or write it; else nil.
    func permissionsOpenToOthers(_ name: String) throws -> UInt32? {
        var info = stat()
        guard stat(path + "/" + name, &info) == 0 else { throw failure("cannot read \(path)/\(name)") }
        let mode = UInt32(info.st_mode) & 0o777
        return mode & 0o077 == 0 ? nil : mode
    }
}
