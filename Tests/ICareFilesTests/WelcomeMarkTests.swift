import Glibc
import FileKit
import FileSupport
import Testing
@testable import ICareFiles

/// The first start's debt (`WelcomeMark`): owed on the first start (no state
/// file, no history) and after it until settled, never where iCare ran before.
@Suite struct WelcomeMarkTests {
    @Test func theFirstStartOwesTheNoticeUntilItIsSettled() throws {
        let (scratch, paths) = try scratchPaths()
        defer { withExtendedLifetime(scratch) {} }
        let mark = WelcomeMark(paths: paths)
        #expect(try mark.owed(), "nothing of iCare's yet: the first start")
        #expect(permissions(paths.stateDirectory) == 0o700, "the state folder is made as icared makes it")
        #expect(access(mark.path, F_OK) == 0)
        try StateFile(paths: paths).write("icare-engine=1\n")  // as icared does at once
        #expect(try mark.owed(), "a restart before the notice was shown still owes it")
        try mark.settle()
        #expect(access(mark.path, F_OK) != 0)
        #expect(try !mark.owed(), "shown once, never again")
        try mark.settle()
    }

    @Test func theFolderTheUnitMakesIsStillAFirstStart() throws {
        let (scratch, paths) = try scratchPaths()
        defer { withExtendedLifetime(scratch) {} }
        try Directory.ensure(paths.stateDirectory)
        #expect(try WelcomeMark(paths: paths).owed(), "ExecStartPre= made the state folder, empty")
    }

    @Test func aHistoryAloneMeansICareRanBefore() throws {
        let (scratch, paths) = try scratchPaths()
        defer { withExtendedLifetime(scratch) {} }
        try Directory.ensure(paths.historyDirectory)
        #expect(try !WelcomeMark(paths: paths).owed())
    }

    @Test func aPersonWhoRanICareBeforeIsNotGreeted() throws {
        let (scratch, paths) = try scratchPaths()
        defer { withExtendedLifetime(scratch) {} }
        try StateFile(paths: paths).write("icare-engine=1\n")
        let mark = WelcomeMark(paths: paths)
        #expect(try !mark.owed(), "an upgrade from a version without the notice")
        #expect(access(mark.path, F_OK) != 0)
    }

    @Test func aStateFolderThatIsAFileIsAnErrorNotAGreeting() throws {
        let (temp, paths) = try scratchPaths()
        try writeFixture("", to: temp.join("state"))
        #expect(throws: FileError.self) { _ = try WelcomeMark(paths: paths).owed() }
    }
}
