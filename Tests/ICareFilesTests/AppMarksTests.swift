import Glibc
import FileKit
import FileSupport
import Testing
@testable import ICareFiles

/// The app's mark in its own folder, `welcome-seen` (the welcome was shown), and icared's
/// `starts-at-login` (the Background portal's answer, which the app tells a Flatpak's icared).
@Suite struct AppMarksTests {
    @Test func theWelcomeIsSeenOnceRecorded() throws {
        let (scratch, paths) = try scratchPaths()
        defer { withExtendedLifetime(scratch) {} }
        let seen = WelcomeSeen(paths: paths)
        #expect(!seen.seen, "a fresh home")
        try seen.record()
        #expect(seen.seen)
        #expect(seen.path == paths.appStateDirectory + "/welcome-seen", "the app's own folder, not icared's")
        #expect(access(paths.stateDirectory + "/welcome-seen", F_OK) != 0)
        #expect(permissions(seen.path) == 0o600, "private, as every file of iCare's")
        try seen.record()
        #expect(seen.seen, "recording again is no error")
    }

    /// 0.7's app wrote `welcome-seen` in icared's state folder: after the upgrade the welcome stays seen,
    /// and nothing is written there.
    @Test func aWelcomeSeenBy07StaysSeen() throws {
        let (scratch, paths) = try scratchPaths()
        defer { withExtendedLifetime(scratch) {} }
        try Directory.ensure(paths.stateDirectory)
        try AtomicFile.write("", to: paths.stateDirectory + "/welcome-seen")
        let seen = WelcomeSeen(paths: paths)
        #expect(seen.pathBefore08 == paths.stateDirectory + "/welcome-seen")
        #expect(seen.seen, "seen by 0.7's app")
        #expect(access(paths.appStateDirectory, F_OK) != 0, "reading wrote nothing")
    }

    @Test func theLoginAnswerReadsOnlyWhatWasWritten() throws {
        let (scratch, paths) = try scratchPaths()
        defer { withExtendedLifetime(scratch) {} }
        let answer = LoginAnswer(paths: paths)
        #expect(answer.read() == nil, "never asked")
        try answer.write(true)
        #expect(answer.read() == true)
        #expect(permissions(answer.path) == 0o600)
        try answer.write(false)
        #expect(answer.read() == false)
        // Anything else (a hand edit, another program's bytes, a huge file) is "not asked", never a crash.
        for text in ["yes", "YES\n", "yes\nno\n", "", String(repeating: "y", count: 100_000)] {
            try AtomicFile.write(text, to: answer.path)
            #expect(answer.read() == nil, "\(text.prefix(20).debugDescription)")
        }
        unlink(answer.path)
        #expect(mkdir(answer.path, 0o700) == 0)
        #expect(answer.read() == nil, "a folder in its place")
    }
}
