import Glibc
import FileKit
import FileSupport
import Testing
@testable import ICareFiles

/// The lock that keeps one icared per person (`InstanceLock`): one holder at a
/// time, across open files as across processes; the holder's lines read as
/// untrusted text; a path that is not a regular file refused with a sentence.
@Suite struct InstanceLockTests {
    @Test func oneHolderAtATimeAndItSaysWhoItIs() throws {
        let (_, paths) = try scratchPaths()
        let first = try InstanceLock(paths: paths), second = try InstanceLock(paths: paths)
        #expect(try first.tryLock())
        #expect(try !second.tryLock(), "a second open file took the lock")
        #expect(second.holder() == nil, "nothing written yet")
        try first.write(Holder(pid: 4242, host: "desk", session: "3"))
        #expect(second.holder() == Holder(pid: 4242, host: "desk", session: "3"))
        try first.write(Holder(pid: 7, host: "laptop", session: ""))
        #expect(second.holder() == Holder(pid: 7, host: "laptop", session: ""), "a shorter holder replaces the whole text")
        #expect(permissions(first.path) == 0o600)
    }

    @Test func theLockGoesWithTheLastDescriptor() throws {
        let (_, paths) = try scratchPaths()
        var first: InstanceLock? = try InstanceLock(paths: paths)
        #expect(try first!.tryLock())
        first = nil
        #expect(try InstanceLock(paths: paths).tryLock(), "a closed holder still held the lock")
    }

    @Test func aHolderIsReadAsUntrustedText() throws {
        #expect(Holder(parsing: "") == nil)
        #expect(Holder(parsing: "pid=0\nhost=x\n") == nil)
        #expect(Holder(parsing: "pid=-5\n") == nil)
        #expect(Holder(parsing: "pid=99999999999999\n") == nil)
        let h = try #require(Holder(parsing: "junk\npid=12\nhost=de sk\u{1b}[31m=\(String(repeating: "x", count: 500))\nsession=3\nextra=1"))
        #expect(h.pid == 12 && h.session == "3")
        #expect(h.host.count == Holder.maximumField && h.host.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "=") }, "\(h.host)")
    }

    @Test func aNamedPipeInItsPlaceIsRefusedWithoutBlocking() throws {
        let (_, paths) = try scratchPaths()
        try Directory.ensure(paths.stateDirectory)
        #expect(mkfifo(paths.stateDirectory + "/icared.lock", 0o600) == 0)
        #expect(throws: FileError.self) { try InstanceLock(paths: paths) }
        do { _ = try InstanceLock(paths: paths) } catch { #expect(error.description.contains("named pipe"), "\(error)") }
    }
}
