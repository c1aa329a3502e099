"""The unit's seccomp settings as one filter, loaded by scripts/unit-sandbox just before the exec.

The system call groups (@system-service, …) are read from this system's own `systemd-analyze
syscall-filter`, so a root of another Debian release gets its systemd's groups. docs/as-installed.md
says how each setting is written here and where it differs from systemd.
"""
import errno
import os
import socket
import subprocess

from unit_file import die

try:
    import seccomp
except ImportError:
    die("python3-seccomp is needed to apply the unit's SystemCallFilter= (scripts/deps.sh --test installs it)")

CLONE_NAMESPACES = [0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080]
PROT_WRITE, PROT_EXEC = 2, 4
S_ISUID, S_ISGID = 0o4000, 0o2000
NOT_REALTIME = (0, 3, 5)
PER_LINUX, PERSONALITY_QUERY = 0, 0xFFFFFFFF
# The filter's action for every call no rule names (set by load).
default = None


def groups():
    """Every group of `systemd-analyze syscall-filter`: name → its members (calls and groups)."""
    try:
        text = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager"], capture_output=True, text=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die(f"systemd-analyze syscall-filter: {e}")
    found, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = found.setdefault(line.strip(), [])
        elif current is not None and line.strip() and not line.strip().startswith("#"):
            current.append(line.strip())
    return found


def expand(names, table, seen=None):
    seen = set() if seen is None else seen
    calls = set()
    for name in names:
        if name.startswith("@"):
            if name not in table:
                die(f"SystemCallFilter: {name} is not a group this systemd knows")
            if name not in seen:
                seen.add(name)
                calls |= expand(table[name], table, seen)
        else:
            calls.add(name)
    return calls


def allowed_calls(unit, table, sanitized):
    allow = None
    for line in unit.settings.get("SystemCallFilter", []):
        words = line.split()
        if words[0].startswith("~"):
            removed = expand([words[0][1:]] + words[1:], table)
            if allow is not None:
                allow -= removed
            else:
                die("a SystemCallFilter=~ deny-list alone is not applied by this harness")
        else:
            allow = (allow or expand(["@default"], table)) | expand(words, table)
    if allow is not None and sanitized:
        # A sanitizer's build only: LeakSanitizer stops the threads with ptrace to read their stacks.
        allow |= expand(["@debug"], table)
    return allow


def add(f, action, call, *args):
    if action == default:
        return  # what every call not named gets already
    if seccomp.resolve_syscall(seccomp.Arch.NATIVE, call) < 0:
        return  # a call this architecture or this libseccomp does not have
    f.add_rule(action, call, *args)


def load(unit, sanitized):
    table = groups()
    number = unit.value("SystemCallErrorNumber", "EPERM")
    refusal = seccomp.ERRNO(getattr(errno, number, None) or die(f"SystemCallErrorNumber={number} is not known"))
    allow = allowed_calls(unit, table, sanitized)
    f = seccomp.SyscallFilter(defaction=seccomp.ALLOW if allow is None else refusal)
    global default
    default = seccomp.ALLOW if allow is None else refusal
    # Calls whose arguments decide: never allowed outright; the rules below say when.
    conditional = {"socket", "socketpair", "mmap", "mprotect", "pkey_mprotect", "clone", "unshare", "setns",
                   "personality", "sched_setscheduler", "chmod", "fchmod", "fchmodat"}
    for call in sorted((allow or set()) - conditional):
        add(f, seccomp.ALLOW, call)
    permitted = lambda call: allow is None or call in allow  # noqa: E731
    families = [w for w in unit.words("RestrictAddressFamilies")]
    for call in ("socket", "socketpair"):
        if not permitted(call):
            continue
        if families:
            unknown = [w for w in families if not hasattr(socket, w)]
            if unknown or len(families) != 1 or families[0].startswith("~"):
                die(f"RestrictAddressFamilies={' '.join(families)}: only one family is applied by this harness")
            family = getattr(socket, families[0])
            add(f, seccomp.ALLOW, call, seccomp.Arg(0, seccomp.EQ, family))
            add(f, seccomp.ERRNO(errno.EAFNOSUPPORT), call, seccomp.Arg(0, seccomp.NE, family))
        elif allow is not None:
            add(f, seccomp.ALLOW, call)
    if permitted("mmap"):
        if unit.flag("MemoryDenyWriteExecute"):
            add(f, refusal, "mmap", seccomp.Arg(2, seccomp.MASKED_EQ, PROT_WRITE | PROT_EXEC, PROT_WRITE | PROT_EXEC))
            for other in (0, PROT_WRITE, PROT_EXEC):
                add(f, seccomp.ALLOW, "mmap", seccomp.Arg(2, seccomp.MASKED_EQ, PROT_WRITE | PROT_EXEC, other))
        elif allow is not None:
            add(f, seccomp.ALLOW, "mmap")
    for call in ("mprotect", "pkey_mprotect"):
        if not permitted(call):
            continue
        if unit.flag("MemoryDenyWriteExecute"):
            add(f, refusal, call, seccomp.Arg(2, seccomp.MASKED_EQ, PROT_EXEC, PROT_EXEC))
            add(f, seccomp.ALLOW, call, seccomp.Arg(2, seccomp.MASKED_EQ, PROT_EXEC, 0))
        elif allow is not None:
            add(f, seccomp.ALLOW, call)
    restrict_ns = unit.flag("RestrictNamespaces")
    if permitted("clone"):
        if restrict_ns:
            mask = 0
            for flag in CLONE_NAMESPACES:
                mask |= flag
            for flag in CLONE_NAMESPACES:
                add(f, refusal, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
            add(f, seccomp.ALLOW, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, mask, 0))
        elif allow is not None:
            add(f, seccomp.ALLOW, "clone")
    if restrict_ns:
        # clone3 passes its flags in memory a filter cannot read: systemd answers ENOSYS, and glibc falls back.
        add(f, seccomp.ERRNO(errno.ENOSYS), "clone3")
    for call in ("unshare", "setns"):
        if permitted(call) and not restrict_ns and allow is not None:
            add(f, seccomp.ALLOW, call)
    if permitted("personality"):
        # ThreadSanitizer starts itself again without address randomisation: a sanitizer's build only.
        if unit.flag("LockPersonality") and not sanitized:
            for value in (PER_LINUX, PERSONALITY_QUERY):
                add(f, seccomp.ALLOW, "personality", seccomp.Arg(0, seccomp.EQ, value))
        elif allow is not None:
            add(f, seccomp.ALLOW, "personality")
    if permitted("sched_setscheduler"):
        if unit.flag("RestrictRealtime"):
            # SCHED_OTHER, SCHED_BATCH and SCHED_IDLE only (SCHED_RESET_ON_FORK may be added to each).
            for policy in NOT_REALTIME:
                add(f, seccomp.ALLOW, "sched_setscheduler", seccomp.Arg(1, seccomp.MASKED_EQ, 0xFF, policy))
        elif allow is not None:
            add(f, seccomp.ALLOW, "sched_setscheduler")
    for call, index in (("chmod", 1), ("fchmod", 1), ("fchmodat", 2)):
        if not permitted(call):
            continue
        if unit.flag("RestrictSUIDSGID"):
            for bit in (S_ISUID, S_ISGID):
                add(f, refusal, call, seccomp.Arg(index, seccomp.MASKED_EQ, bit, bit))
            add(f, seccomp.ALLOW, call, seccomp.Arg(index, seccomp.MASKED_EQ, S_ISUID | S_ISGID, 0))
        elif allow is not None:
            add(f, seccomp.ALLOW, call)
    if unit.value("SystemCallArchitectures", "") not in ("", "native"):
        die("SystemCallArchitectures= other than native is not applied by this harness")
    try:
        f.load()
    except OSError as e:
        die(f"loading the seccomp filter: {os.strerror(e.errno or 0)}")
