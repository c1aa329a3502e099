import FileSupport
import Glibc
import Testing
@testable import FileKit

@Suite struct AtomicFileTests {
    @Test func writeCreatesA0600FileAndReplacesWhole() throws {
        let temp = try TemporaryDirectory()
        let path = temp.join("f")
        try AtomicFile.write("first version, longer\n", to: path)
        #expect(permissions(path) == 0o600)
        try AtomicFile.write("second\n", to: path)
        #expect(try text(path) == "second\n")
        #expect(try AtomicFile.read(path) == Array("second\n".utf8))
        #expect(try Directory.names(in: temp.path) == ["f"], "no temporary file is left behind")
    }

    @Test func missingFilesAreReportedAsSuch() throws {
        let temp = try TemporaryDirectory()
        #expect(try AtomicFile.readIfPresent(temp.join("absent")) == nil)
        do {
            _ = try AtomicFile.read(temp.join("absent"))
            Issue.record("reading a missing file succeeded")
        } catch {
            #expect(error.isNotFound)
            #expect(error.description == "open(\(temp.join("absent"))): No such file or directory")
        }
    }

    @Test func readRefusesFilesOverTheLimit() throws {
        let temp = try TemporaryDirectory()
        try writeFixture([UInt8](repeating: 65, count: 100), to: temp.join("big"))
        #expect(try AtomicFile.read(temp.join("big"), limit: 100).count == 100)
        #expect(throws: FileError(function: "read", path: temp.join("big"), code: EFBIG)) {
            try AtomicFile.read(temp.join("big"), limit: 99)
        }
    }

    @Test func writeIntoAMissingDirectoryFailsWithTheFunctionName() throws {
        let temp = try TemporaryDirectory()
        do {
            try AtomicFile.write("x", to: temp.join("no/such/f"))
            Issue.record("write succeeded")
        } catch {
            #expect(error.function == "open")
            #expect(error.code == ENOENT)
        }
    }

    @Test func staleTemporaryFileOfTheSamePidIsReplaced() throws {
        let temp = try TemporaryDirectory()
        let path = temp.join("f")
        try writeFixture("stale", to: AtomicFile.temporaryPath(for: path))
        try AtomicFile.write("fresh", to: path)
        #expect(try text(path) == "fresh")
        #expect(try Directory.names(in: temp.path) == ["f"])
    }
}
