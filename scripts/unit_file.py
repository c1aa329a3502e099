"""A systemd unit file's [Service] section as scripts/unit-sandbox applies it (docs/as-installed.md)."""
import os
import shlex
import subprocess
import sys


def die(message, code=2):
    print(f"unit-sandbox: {message}", file=sys.stderr)
    sys.exit(code)


# Every [Service] setting this harness knows, and what it does with it. "applied": unit-sandbox applies
# it; "start": about starting and restarting, which the test does; "not applied": said in docs/as-installed.md.
SETTINGS = {
    "applied": {
        "Environment", "ExecStartPre", "UMask", "NoNewPrivileges", "CapabilityBoundingSet", "AmbientCapabilities",
        "PrivateUsers", "ProtectSystem", "ProtectHome", "ReadWritePaths", "ReadOnlyPaths",
        "ConfigurationDirectory", "ConfigurationDirectoryMode", "StateDirectory", "StateDirectoryMode",
        "CacheDirectory", "CacheDirectoryMode", "LogsDirectory", "LogsDirectoryMode",
        "RuntimeDirectory", "RuntimeDirectoryMode", "PrivateTmp", "PrivateDevices", "PrivateMounts",
        "PrivateNetwork", "ProtectHostname", "ProtectKernelTunables", "ProtectKernelLogs", "ProtectControlGroups",
        "SystemCallFilter", "SystemCallErrorNumber", "SystemCallArchitectures", "RestrictAddressFamilies",
        "MemoryDenyWriteExecute", "RestrictNamespaces", "RestrictRealtime", "RestrictSUIDSGID", "LockPersonality",
        "ProtectKernelModules", "ProtectClock", "DevicePolicy", "IPAddressDeny",
    },
    "start": {"Type", "BusName", "ExecStart", "Restart", "RestartSec", "WatchdogSec", "RuntimeDirectoryPreserve"},
    "not applied": {"KeyringMode"},
}


def path_words(value):
    """The paths in an environment value: a D-Bus address's unix:path= (NOTIFY_SOCKET and PATH-like lists too)."""
    if value.startswith("unix:"):
        return [w.split("=", 1)[1] for part in value.split(";") for w in part.split(",") if w.startswith(("unix:path=", "path="))]
    return value.split(":")


class UnitFile:
    def __init__(self, path, environ):
        self.path = path
        self.environ = environ
        self.settings = {}
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as e:
            die(f"{path}: {e.strerror}")
        section = None
        known = set().union(*SETTINGS.values())
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                section = line
                continue
            if section != "[Service]":
                continue
            key, sep, value = line.partition("=")
            key = key.strip()
            if not sep:
                die(f"{path}:{number}: not a setting: {line}")
            if key not in known:
                die(f"{path}:{number}: {key}= is not known to unit-sandbox; say in docs/as-installed.md how it applies")
            value = value.strip()
            if value == "":
                self.settings[key] = []  # an empty assignment resets a list
            else:
                self.settings.setdefault(key, []).append(value)

    def has(self, key):
        return key in self.settings

    def value(self, key, default):
        values = self.settings.get(key) or [default]
        return self.expand(values[-1])

    def flag(self, key):
        return self.value(key, "no").lower() in ("yes", "true", "on", "1")

    def xdg(self, name, fallback):
        home = self.environ.get("HOME") or die("HOME is not set")
        return self.environ.get(name) or os.path.join(home, fallback)

    def expand(self, text):
        """systemd's specifiers for a user unit: %h, %t, %E, %S, %C, %L, %U, %%."""
        out, i = [], 0
        while i < len(text):
            c = text[i]
            if c != "%":
                out.append(c)
                i += 1
                continue
            spec = text[i + 1:i + 2]
            home = self.environ.get("HOME") or die("HOME is not set")
            values = {
                "h": home, "%": "%", "U": str(os.getuid()),
                "t": self.environ.get("XDG_RUNTIME_DIR") or die("XDG_RUNTIME_DIR is not set"),
                "E": self.xdg("XDG_CONFIG_HOME", ".config"), "S": self.xdg("XDG_STATE_HOME", ".local/state"),
                "C": self.xdg("XDG_CACHE_HOME", ".cache"), "L": self.xdg("XDG_STATE_HOME", ".local/state") + "/log",
            }
            if spec not in values:
                die(f"{self.path}: the specifier %{spec} is not known to unit-sandbox")
            out.append(values[spec])
            i += 2
        return "".join(out)

    def words(self, key):
        return [self.expand(w) for v in self.settings.get(key, []) for w in shlex.split(v)]

    def paths(self, key):
        """The paths of a ReadWritePaths=-like list; "-" before one: skipped when it is not there."""
        found = []
        for word in self.words(key):
            optional = word.startswith("-")
            path = word.lstrip("-+")
            if os.path.exists(path):
                found.append(os.path.realpath(path))
            elif not optional:
                die(f"{key}={path}: no such file or directory (systemd fails the unit then)")
        return found

    def environment(self):
        env = {}
        for word in self.words("Environment"):
            name, _, value = word.partition("=")
            env[name] = value
        return env

    def run_pre_commands(self, env):
        """ExecStartPre=+…: outside the sandbox, as the caller (a user manager's "+" keeps its user)."""
        for command in self.settings.get("ExecStartPre", []):
            if not command.startswith("+"):
                die(f"ExecStartPre={command}: only commands run outside the sandbox (+) are applied")
            argv = [self.expand(w) for w in shlex.split(command[1:])]
            if subprocess.run(argv, env=env).returncode != 0:
                die(f"ExecStartPre={command} failed (systemd fails the unit then)")

    def make_directories(self, env):
        """ConfigurationDirectory= and the like, made as systemd makes them; returns their paths."""
        roots = {
            "ConfigurationDirectory": env.get("XDG_CONFIG_HOME") or os.path.join(env["HOME"], ".config"),
            "StateDirectory": env.get("XDG_STATE_HOME") or os.path.join(env["HOME"], ".local/state"),
            "CacheDirectory": env.get("XDG_CACHE_HOME") or os.path.join(env["HOME"], ".cache"),
            "LogsDirectory": (env.get("XDG_STATE_HOME") or os.path.join(env["HOME"], ".local/state")) + "/log",
            "RuntimeDirectory": env.get("XDG_RUNTIME_DIR") or die("XDG_RUNTIME_DIR is not set"),
        }
        made = []
        for key, root in roots.items():
            mode = int(self.value(key + "Mode", "0755"), 8)
            for name in self.words(key):
                path = os.path.join(root, name)
                os.makedirs(path, exist_ok=True)
                os.chmod(path, mode)
                made.append(os.path.realpath(path))
        return made

    def session_paths(self, env):
        """The folders a session hands a service through its environment: the home, the XDG folders, the
        buses' and the notify socket's folders, and any other absolute path a variable names (lists split
        at ':'). The folder of a file or socket is taken."""
        paths = []
        for name, value in env.items():
            if name in ("TMPDIR", "TMP", "TEMP", "PWD", "OLDPWD", "_"):
                continue
            for part in path_words(value):
                if part.startswith("/") and os.path.exists(part):
                    # A file or socket right in /tmp comes back alone, any other with its folder.
                    folder = os.path.dirname(part)
                    alone = os.path.isdir(part) or folder in ("/tmp", "/var/tmp")
                    paths.append(part if alone else folder)
        return [os.path.realpath(p) for p in paths]

    def capabilities(self):
        """The capabilities CapabilityBoundingSet= keeps (numbers); empty keeps none."""
        names = self.words("CapabilityBoundingSet")
        if names and names[0].startswith("~"):
            die("CapabilityBoundingSet=~… is not applied by this harness")
        numbers = {"CAP_CHOWN": 0, "CAP_DAC_OVERRIDE": 1, "CAP_DAC_READ_SEARCH": 2, "CAP_FOWNER": 3,
                   "CAP_KILL": 5, "CAP_SETGID": 6, "CAP_SETUID": 7, "CAP_NET_BIND_SERVICE": 10, "CAP_SYS_ADMIN": 21}
        kept = set()
        for name in names:
            if name not in numbers:
                die(f"CapabilityBoundingSet={name} is not known to unit-sandbox")
            kept.add(numbers[name])
        return kept
