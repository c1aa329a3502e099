import Foundation

/// A fontconfig of a test's own, for tests that measure drawn text in pixels
/// (the rows of a panel's menu): the only fonts are DejaVu's, which
/// `scripts/deps.sh --test` installs (fonts-dejavu-core), whatever else the
/// machine has; the system's rules (hinting, antialiasing, the aliases) stay
/// as they are. A machine with GNOME Shell or Plasma installed has the Noto
/// fonts too, and Noto Sans, the default sans-serif there, draws taller rows.
public enum FixedFonts {
    public static let folder = "/usr/share/fonts/truetype/dejavu"

    /// Writes the configuration into `directory`; the variables that make a program read it.
    /// Caches: the system's (up to date, as the font packages leave it), else one in `directory`.
    public static func environment(in directory: URL) throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: folder + "/DejaVuSans.ttf") else {
            throw HarnessError("\(folder)/DejaVuSans.ttf is missing; run scripts/deps.sh --test (package fonts-dejavu-core).")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("fonts.conf")
        try """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <dir>\(folder)</dir>
          <cachedir>\(directory.appendingPathComponent("fontconfig-cache").path)</cachedir>
          <cachedir>/var/cache/fontconfig</cachedir>
          <include ignore_missing="yes">/etc/fonts/conf.d</include>
        </fontconfig>

        """.write(to: file, atomically: true, encoding: .utf8)
        return ["FONTCONFIG_FILE": file.path]
    }
}
