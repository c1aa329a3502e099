import Foundation

/// An RGB screenshot in binary PPM: `grim -t ppm` on Wayland, ImageMagick's
/// `import -window root ppm:…` on X11. The tray tests look for the ring's
/// colours in it, as a person looks for the icon. GNOME Shell's screenshots
/// (PNG) are read through ImageMagick's `convert … ppm:`.
public struct Screenshot: Sendable {
    public let width: Int, height: Int, rgb: [UInt8]

    public init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        // "P6\n<w> <h>\n255\n" then the pixels.
        var fields: [String] = [], i = 0, current = ""
        while fields.count < 4 && i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x0A { if !current.isEmpty { fields.append(current); current = "" } } else { current.append(Character(UnicodeScalar(c))) }
            i += 1
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255",
              bytes.count - i == w * h * 3 else { throw HarnessError("not a binary PPM (P6, 8 bits)") }
        width = w; height = h; rgb = Array(bytes[i...])
    }

    public init(file path: String) throws { try self.init(ppm: Data(contentsOf: URL(fileURLWithPath: path))) }

    public func pixel(_ x: Int, _ y: Int) -> [UInt8] { let k = (y * width + x) * 3; return Array(rgb[k..<k + 3]) }

    /// The points in `xs` × `ys` whose colour is exactly `colour` (RGB).
    public func points(of colour: [UInt8], xs: Range<Int>, ys: Range<Int>) -> [(x: Int, y: Int)] {
        var found: [(x: Int, y: Int)] = []
        for y in ys.clamped(to: 0..<height) { for x in xs.clamped(to: 0..<width) where pixel(x, y) == colour { found.append((x, y)) } }
        return found
    }

    /// How many different colours `xs` × `ys` (the whole picture by default) holds: a popup's text
    /// and buttons give many, a window of one flat colour one or two.
    public func colours(xs: Range<Int>? = nil, ys: Range<Int>? = nil) -> Int {
        var seen = Set<Int>()
        for y in (ys ?? 0..<height).clamped(to: 0..<height) {
            for x in (xs ?? 0..<width).clamped(to: 0..<width) {
                let k = (y * width + x) * 3
                seen.insert(Int(rgb[k]) << 16 | Int(rgb[k + 1]) << 8 | Int(rgb[k + 2]))
            }
        }
        return seen.count
    }

    /// Waits (bounded) until `points` (read from a fresh screenshot each time) finds a ring:
    /// more than 30 pixels of its colour. Their centre, where a person would click it.
    public static func ringCentre(timeout: TimeInterval = 10, context: @autoclosure () -> String,
                           _ points: () throws -> [(x: Int, y: Int)]) throws -> (x: Int, y: Int) {
        var found: [(x: Int, y: Int)] = []
        _ = try waitUntil(timeout: timeout, interval: 0.2) {
            found = try points()
            return found.count > 30
        }
        guard found.count > 30, let centre = centre(found) else {
            throw HarnessError("no ring on the screen (\(found.count) pixels of its colour)\n\(context())")
        }
        return centre
    }

    /// The centre of the points' bounding box, or nil when there are none.
    public static func centre(_ points: [(x: Int, y: Int)]) -> (x: Int, y: Int)? {
        guard let x0 = points.map(\.x).min(), let x1 = points.map(\.x).max(),
              let y0 = points.map(\.y).min(), let y1 = points.map(\.y).max() else { return nil }
        return ((x0 + x1) / 2, (y0 + y1) / 2)
    }
}

/// The pictures in docs/ (scripts/screenshots): taken only when ICARE_SCREENSHOTS names a folder.
extension Screenshot {
    /// The folder ICARE_SCREENSHOTS names, or nil when no pictures are asked for.
    public static var docsFolder: String? {
        guard let dir = ProcessInfo.processInfo.environment["ICARE_SCREENSHOTS"], !dir.isEmpty else { return nil }
        return dir
    }

    /// Writes `folder/name.png` with ImageMagick: `magick` is the command with its source and crop
    /// (`import -window root …` or `convert shot.png …`), followed by what every picture shares:
    /// no metadata, 8 bits, and at most `colours` colours when given.
    public static func writeForDocs(_ name: String, in folder: String, magick: [String], colours: Int?,
                             environment: [String: String] = [:]) throws {
        var arguments = magick + ["-strip", "-depth", "8"]
        if let colours { arguments += ["-colors", String(colours)] }
        let r = try Subprocess.run(arguments + [folder + "/" + name + ".png"], environment: environment)
        guard r.status == 0 else { throw HarnessError("\(magick[0]) failed: \(r)") }
    }
}
