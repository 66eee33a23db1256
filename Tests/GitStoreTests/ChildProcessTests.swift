import Testing
@testable import GitStore

@Suite struct ChildProcessTests {
    /// A program that ends before reading its input (a signer that cannot find its key) gives
    /// its status and words, not a broken pipe: more input than a pipe holds makes it certain.
    @Test func aProgramThatEndsWithoutReadingItsInputSaysWhy() throws {
        let result = try ChildProcess.run(
            ["/bin/sh", "-c", "echo 'no such key' >&2; exit 3"], input: [UInt8](repeating: 65, count: 1 << 20))
        #expect(result.status == 3)
        #expect(result.errors.contains("no such key"))
        #expect(result.output.isEmpty)
    }

    @Test func inputInOutputOut() throws {
        let result = try ChildProcess.run(["/usr/bin/tr", "a-z", "A-Z"], input: Array("signed\n".utf8))
        #expect(result.status == 0)
        #expect(result.output == Array("SIGNED\n".utf8))
    }
}
