import FileKit
import FileSupport
import Testing
@testable import ICareFiles

/// The saved schedule's file (`StateFile`): read back as written, `0600` in a `0700` folder.
@Suite struct StateFileTests {
    @Test func stateFileRoundTrips() throws {
        let (temp, paths) = try scratchPaths()
        let state = StateFile(paths: paths)
        #expect(try state.read() == nil)
        try state.write("next=1718000000000000\nmode=waiting\n")
        #expect(try state.read() == "next=1718000000000000\nmode=waiting\n")
        #expect(permissions(paths.stateFile) == 0o600)
        #expect(permissions(paths.stateDirectory) == 0o700)
        #expect(permissions(temp.join("state")) == 0o700)
        try state.write("")
        #expect(try state.read() == "")
    }
}

/// A scratch folder and the XDG paths in it: the state home `state/`, the config home the folder itself.
func scratchPaths() throws -> (TemporaryDirectory, XDGPaths) {
    let temp = try TemporaryDirectory()
    return (temp, try XDGPaths(environment: ["XDG_STATE_HOME": temp.join("state"), "XDG_CONFIG_HOME": temp.path]))
}
