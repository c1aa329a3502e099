import Foundation

extension KDEConnectRig {
    /// A command of the person's own in a phone's Run command list `file`, written as KDE Connect's settings
    /// page writes it: QSettings (PyQt5's, the same INI format as Qt 6's) with the list as JSON in a
    /// QByteArray under `commands`. Runs `true`.
    public static func addTheirOwnCommand(_ key: String, name: String, to file: String) throws {
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let r = try Subprocess.run(["/usr/bin/python3", "-c", """
            import json, sys
            from PyQt5.QtCore import QSettings, QByteArray
            s = QSettings(sys.argv[1], QSettings.IniFormat)
            v = s.value("commands")
            d = json.loads(bytes(v).decode()) if v is not None else {}
            d[sys.argv[2]] = {"name": sys.argv[3], "command": "true"}
            s.setValue("commands", QByteArray(json.dumps(d, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()))
            s.sync()
            """, file, key, name])
        guard r.status == 0 else { throw HarnessError("PyQt5 (python3-pyqt5: scripts/deps.sh --test) failed: \(r)") }
    }
}
