#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loose object's file written outside libgit2, the way libgit2 and git write one: the
/// compressed stream into a temporary file in the objects folder, read-only, then renamed to
/// `xx/yyyy…` (its id in hex) when the object is wanted. Readers see all of it or nothing.
enum LooseObjectFile {
    /// Writes `stream` to a new temporary file in `objects` (a folder path ending in `/`).
    static func writeTemporary(_ stream: [UInt8], in objects: String) throws(GitError) -> String {
        var template = Array((objects + "tmp_todosync_XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { throw failure("creating a temporary file in \(objects)", "mkstemp") }
        var written = 0
        let complete = stream.withUnsafeBytes { raw in
            while written < raw.count {
                let count = write(descriptor, raw.baseAddress! + written, raw.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return fchmod(descriptor, 0o444) == 0
        }
        let closed = close(descriptor) == 0
        guard complete, closed else {
            let error = failure("writing \(path)", "write")
            unlink(path)
            throw error
        }
        return path
    }

    /// Gives the temporary file its object's name, unless the object is there already.
    static func place(_ temporary: String, id: OID, in objects: String) throws(GitError) {
        let hex = id.description
        let folder = objects + String(hex.prefix(2))
        let path = folder + "/" + String(hex.dropFirst(2))
        if access(path, F_OK) == 0 {
            unlink(temporary)
            return
        }
        if mkdir(folder, 0o777) != 0, errno != EEXIST {
            let error = failure("creating \(folder)", "mkdir")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("naming \(path)", "rename")
            unlink(temporary)
            throw error
        }
    }

    /// The whole of a small file; nil if it cannot be read.
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    private static func failure(_ doing: String, _ function: String) -> GitError {
        GitError(code: -1, message: "\(doing): \(String(cString: strerror(errno)))", function: function)
    }
}
