import Testing
import Foundation
import TestSupport

/// The generated completion scripts, run in the real shells: bash (the
/// function with COMP_WORDS set as bash sets them), zsh (compinit in an
/// interactive zsh on a pty, TAB pressed; the matches are read as the
/// completion system adds them) and fish (`complete -C`).
@Suite struct CompletionShellTests {
    static let repo = GeneratedFilesTests.repo.path

    /// What bash offers for `line` (words split on spaces; a trailing space starts a new word).
    func bash(_ line: String) throws -> [String] {
        let script = """
            source '\(Self.repo)/completions/icarectl.bash'
            COMP_LINE="$1"; read -r -a COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _icarectl; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try Subprocess.run([try Subprocess.which("bash"), "-c", script, "bash", line])
        #expect(r.status == 0, "\(r)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func fish(_ line: String) throws -> [String] {
        let r = try Subprocess.run([try Subprocess.which("fish"), "--no-config", "-c",
                                    "source '\(Self.repo)/completions/icarectl.fish'; complete -C '\(line)'"])
        #expect(r.status == 0, "\(r)")
        return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    /// An interactive zsh on a pty (zsh/zpty) with compinit and the script's
    /// folder in fpath; compadd wrapped to print what completion adds.
    static let zshDriver = #"""
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
        zpty -w z 'compadd () {
          if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
          typeset -a __hits; builtin compadd -A __hits "$@"; (( $#__hits == 0 )) && return 1
          print -r -- "${(U):-cand}:${(j: :)__hits}"
        }'
        zpty -w z "bindkey '^I' complete-word"
        zpty -w z "zstyle ':completion:*' completer _complete"
        zpty -w z 'finish () { print "${(U):-done}"; exit }'
        zpty -w z 'comppostfuncs=( finish )'
        zpty -n -w z "$2"$'\t'
        integer tries=0
        while (( tries++ < 1000 )); do
          zpty -r -t z line || { sleep 0.02; continue }
          line=${line//$'\r'/}
          [[ $line == *DONE* ]] && { print -r -- DONE; break }
          [[ $line == *CAND:* ]] && print -r -- "${line##*CAND:}"
        done
        zpty -d z
        """#

    func zsh(_ line: String) throws -> [String] {
        let driver = FileManager.default.temporaryDirectory.appendingPathComponent("icare-zcomp-\(UUID().uuidString).zsh").path
        try Self.zshDriver.write(toFile: driver, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: driver) }
        let r = try Subprocess.run([try Subprocess.which("zsh"), "-f", driver, Self.repo + "/completions", line], timeout: 30)
        #expect(r.status == 0 && r.stdout.contains("DONE"), "zsh's completion did not run: \(r)")
        return r.stdout.split(separator: "\n").filter { $0 != "DONE" }.flatMap { $0.split(separator: " ").map(String.init) }
    }

    static let keys = ["Interval", "BreakDuration", "SnoozeDuration", "ActiveHours", "WeekdaysOnly", "DndPolicy", "Sound", "BusyPolicy", "StatusItem", "PhoneReminders", "FullScreenReminders"]

    @Test func bashOffersTheValuesOfTheKeyAfterSet() throws {
        #expect(try bash("icarectl set dndpolicy ") == ["pause", "defer", "ignore"])
        #expect(try bash("icarectl set DndPolicy d") == ["defer"])
        #expect(try bash("icarectl set sound ") == ["true", "false"])
        #expect(try bash("icarectl set interval ").contains("20m"))
        #expect(try bash("icarectl set interval 20m ").isEmpty, "nothing after the value")
        #expect(Set(Self.keys).isSubset(of: Set(try bash("icarectl set "))), "the keys first")
        #expect(try bash("icarectl pause t") == ["toggle"])
    }

    @Test func zshOffersTheValuesOfTheKeyAfterSet() throws {
        #expect(try zsh("icarectl set dndpolicy ") == ["pause", "defer", "ignore"])
        #expect(try zsh("icarectl set Sound ") == ["true", "false"])
        #expect(try zsh("icarectl set ") == Self.keys)
        #expect(try zsh("icarectl pause ").contains("toggle"))
    }

    @Test func fishOffersTheValuesOfTheKeyAfterSet() throws {
        #expect(Set(try fish("icarectl set dndpolicy ")) == ["pause", "defer", "ignore"])
        #expect(Set(try fish("icarectl set WeekdaysOnly ")) == ["true", "false"])
        #expect(Set(try fish("icarectl set ")) == Set(Self.keys))
        #expect(try fish("icarectl pause ").contains("toggle"))
    }
}
