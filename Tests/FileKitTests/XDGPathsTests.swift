import FileSupport
import Glibc
import Testing
@testable import FileKit

@Suite struct XDGPathsTests {
    @Test func defaultsFollowHome() throws {
        let paths = try XDGPaths(environment: ["HOME": "/home/ada"])
        #expect(paths.configDirectory == "/home/ada/.config/icare")
        #expect(paths.stateDirectory == "/home/ada/.local/state/icare")
        #expect(paths.appStateDirectory == "/home/ada/.local/state/icare-app")
        #expect(paths.dconfDatabase == "/home/ada/.config/dconf/user")
        #expect(paths.configFile == "/home/ada/.config/icare/config")
        #expect(paths.historyDirectory == "/home/ada/.local/state/icare/history")
        #expect(paths.stateFile == "/home/ada/.local/state/icare/state")
    }

    @Test func absoluteXDGValuesWin() throws {
        let paths = try XDGPaths(environment: [
            "HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg/", "XDG_STATE_HOME": "/st",
        ])
        #expect(paths.configDirectory == "/cfg/icare")
        #expect(paths.dconfDatabase == "/cfg/dconf/user")
        #expect(paths.stateDirectory == "/st/icare")
        #expect(paths.appStateDirectory == "/st/icare-app")
    }

    @Test func relativeOrEmptyXDGValuesAreIgnored() throws {
        let paths = try XDGPaths(environment: [
            "HOME": "/home/ada", "XDG_CONFIG_HOME": "relative/config", "XDG_STATE_HOME": "",
        ])
        #expect(paths.configDirectory == "/home/ada/.config/icare")
        #expect(paths.stateDirectory == "/home/ada/.local/state/icare")
    }

    @Test func theRuntimeFolderIsOnlyWhereXDGRuntimeDirSaysSo() throws {
        #expect(try XDGPaths(environment: ["HOME": "/home/ada", "XDG_RUNTIME_DIR": "/run/user/1000/"]).runtimeDirectory
                == "/run/user/1000/icare")
        #expect(try XDGPaths(environment: ["HOME": "/home/ada"]).runtimeDirectory == nil, "no default under HOME")
        #expect(try XDGPaths(environment: ["HOME": "/home/ada", "XDG_RUNTIME_DIR": "run/user"]).runtimeDirectory == nil)
        #expect(try XDGPaths(environment: ["HOME": "/home/ada", "XDG_RUNTIME_DIR": "/"]).runtimeDirectory == nil)
    }

    @Test func homeIsNeededOnlyForDefaults() throws {
        let paths = try XDGPaths(environment: ["XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"])
        #expect(paths.configDirectory == "/c/icare")
        #expect(throws: XDGError(variable: "XDG_STATE_HOME")) {
            try XDGPaths(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "not/absolute"])
        }
        #expect(throws: XDGError(variable: "XDG_CONFIG_HOME")) { try XDGPaths(environment: [:]) }
    }

    @Test func processEnvironmentResolves() throws {
        let paths = try XDGPaths.fromProcessEnvironment()
        #expect(paths.configDirectory.hasPrefix("/"))
        #expect(paths.configDirectory.hasSuffix("/icare"))
    }

    @Test func ensureCreatesMissingParentsWithMode0700() throws {
        let temp = try TemporaryDirectory()
        let deep = temp.join("a/b/c")
        try Directory.ensure(deep)
        for path in [temp.join("a"), temp.join("a/b"), deep] { #expect(permissions(path) == 0o700) }
        try Directory.ensure(deep)  // existing: fine
        chmod(temp.join("a"), 0o755)
        try Directory.ensure(temp.join("a/b/d"))
        #expect(permissions(temp.join("a")) == 0o755, "an existing directory keeps the person's mode")
    }

    @Test func ensureRefusesAFileInTheWay() throws {
        let temp = try TemporaryDirectory()
        try writeFixture("x", to: temp.join("file"))
        for path in [temp.join("file"), temp.join("file/sub")] {
            do {
                try Directory.ensure(path)
                Issue.record("ensure succeeded through a file")
            } catch {
                #expect(error.code == ENOTDIR)
            }
        }
    }
}
