import Glibc
import ReminderCore

/// One colour, not premultiplied: alpha, red, green, blue.
public struct ARGB: Equatable, Sendable, CustomStringConvertible {
    public var a: UInt8, r: UInt8, g: UInt8, b: UInt8
    public init(_ a: UInt8, _ r: UInt8, _ g: UInt8, _ b: UInt8) { self.a = a; self.r = r; self.g = g; self.b = b }
    public static let clear = ARGB(0, 0, 0, 0)
    public var description: String { "ARGB(\(a), \(r), \(g), \(b))" }
}

/// A square image in the StatusNotifierItem's pixmap format: ARGB32, one
/// pixel after another, row by row from the top, each pixel's four bytes
/// in network byte order (A, R, G, B), as the spec's `IconPixmap` wants.
public struct RingImage: Equatable, Sendable {
    public let size: Int
    /// `size * size * 4` bytes.
    public let bytes: [UInt8]

    /// The pixel at column `x`, row `y`.
    public func pixel(_ x: Int, _ y: Int) -> ARGB {
        let i = (y * size + x) * 4
        return ARGB(bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
    }
}

/// Draws the ring in pure Swift: 4×4 samples per pixel give the edges
/// their anti-aliasing; no toolkit, no file.
public enum RingRenderer {
    /// The sizes panels ask for (16 and 22 on most, 24 on GNOME, 32 and 48 on high-density screens).
    public static let sizes = [16, 22, 24, 32, 48]
    /// Samples per pixel along each axis.
    static let grid = 4

    /// The colour of the filled arc (or of the whole ring when due). The ring has a look per state of the
    /// reminder, told apart by colour and by a mark in the middle, so that a person who does not see colour
    /// well can still tell them apart: waiting, a blue arc (the share of the interval still to go); due, a
    /// full orange ring with a dot in the middle; break, a green arc (the share of the break still to go);
    /// snoozed, an amber arc to the reminder's return; paused, the grey track with the pause sign (two bars)
    /// in the middle; inactive (outside the active hours), the grey track alone.
    public static func colour(_ look: ReminderState) -> ARGB {
        switch look {
        case .waiting: return ARGB(255, 0x35, 0x84, 0xE4)
        case .due: return ARGB(255, 0xE6, 0x61, 0x00)
        case .break: return ARGB(255, 0x2E, 0xC2, 0x7E)
        case .snoozed: return ARGB(255, 0xE5, 0xA5, 0x0A)
        case .paused, .inactive: return ARGB(255, 0x9A, 0x99, 0x96)
        }
    }

    /// The unfilled part of the ring: a faint grey that shows on light and dark panels.
    public static let track = ARGB(0x60, 0x9A, 0x99, 0x96)

    /// The ring's outer and inner radius, in pixels, for a `size`-pixel square.
    static func radii(_ size: Int) -> (outer: Double, inner: Double) {
        let outer = Double(size) / 2 - 0.5
        return (outer, outer - max(2, Double(size) * 0.16))
    }

    /// The ring for `look` with `fraction` (0…1, clamped) of it filled,
    /// clockwise from twelve o'clock; the fraction counts only for
    /// waiting, break and snoozed (due is full, paused and inactive empty).
    public static func render(size: Int, fraction: Double, look: ReminderState) -> RingImage {
        precondition(size > 0 && size <= 512, "icon size \(size) out of range")
        let filled: Double
        switch look {
        case .due: filled = 1
        case .paused, .inactive: filled = 0
        case .waiting, .break, .snoozed: filled = fraction.isNaN ? 0 : min(1, max(0, fraction))
        }
        let fill = colour(look)
        let edge = RingEdge(filled)
        let (outer, inner) = radii(size)
        let c = Double(size) / 2
        var bytes = [UInt8](repeating: 0, count: size * size * 4)
        let samples = Double(grid * grid)
        for y in 0..<size {
            for x in 0..<size {
                // Sum of alpha-weighted colour over the samples, and of alpha.
                var sa = 0.0, sr = 0.0, sg = 0.0, sb = 0.0
                for j in 0..<grid {
                    for i in 0..<grid {
                        let dx = Double(x) + (Double(i) + 0.5) / Double(grid) - c
                        let dy = Double(y) + (Double(j) + 0.5) / Double(grid) - c
                        guard let paint = sample(dx, dy, outer: outer, inner: inner, size: size,
                                                 edge: edge, fill: fill, look: look) else { continue }
                        let a = Double(paint.a)
                        sa += a
                        sr += a * Double(paint.r)
                        sg += a * Double(paint.g)
                        sb += a * Double(paint.b)
                    }
                }
                guard sa > 0 else { continue }
                let k = (y * size + x) * 4
                bytes[k] = UInt8((sa / samples).rounded())
                bytes[k + 1] = UInt8((sr / sa).rounded())
                bytes[k + 2] = UInt8((sg / sa).rounded())
                bytes[k + 3] = UInt8((sb / sa).rounded())
            }
        }
        return RingImage(size: size, bytes: bytes)
    }

    /// What covers the point (dx, dy) from the centre (y grows downwards), if anything.
    static func sample(_ dx: Double, _ dy: Double, outer: Double, inner: Double, size: Int,
                       edge: RingEdge, fill: ARGB, look: ReminderState) -> ARGB? {
        let d = (dx * dx + dy * dy).squareRoot()
        if d <= outer && d >= inner {
            return edge.fills(dx, dy) ? fill : track
        }
        let s = Double(size)
        switch look {
        case .due:
            return d <= inner * 0.5 ? fill : nil
        case .paused:
            // Two bars, each 0.12 of the size wide and 0.34 high, 0.12 apart.
            let half = s * 0.17, bar = s * 0.12, gap = s * 0.06
            guard abs(dy) <= half else { return nil }
            let ax = abs(dx)
            return ax >= gap && ax <= gap + bar ? fill : nil
        default:
            return nil
        }
    }

    /// The filled share of the ring to show, in at most `steps` steps: the
    /// share still to go, rounded up so that the ring is full at the start
    /// and empties only when the time is over.
    public static func steppedFraction(remaining: Int64, total: Int64, steps: Int64) -> Double {
        guard total > 0, steps > 0 else { return 0 }
        let left = min(max(remaining, 0), total)
        let step = (left * steps + total - 1) / total
        return Double(step) / Double(steps)
    }
}

/// Where the filled arc ends, and whether a point lies before that end
/// (clockwise from twelve o'clock). Points are told apart by a pseudo-angle
/// — a quadrant number plus a ratio of the coordinates, rising with the
/// true angle — so the renderer needs no arctangent per sample: the ring's
/// classification is the same, and the service keeps libm's arctangent
/// tables out of its memory (they cost 128 KB of resident pages).
struct RingEdge {
    /// The end's pseudo-angle, 0..<4; nil when the ring is full or empty.
    let end: Double?
    let full: Bool

    init(_ filled: Double) {
        full = filled >= 1
        guard filled > 0, filled < 1 else { end = nil; return }
        let a = 2 * Double.pi * filled
        end = RingEdge.pseudoAngle(sin(a), -cos(a))
    }

    /// Whether the point (dx, dy) from the centre (y grows downwards) is in the filled arc.
    func fills(_ dx: Double, _ dy: Double) -> Bool {
        guard let end else { return full }
        return RingEdge.pseudoAngle(dx, dy) < end
    }

    /// Clockwise from twelve o'clock: 0 up, 1 right, 2 down, 3 left, rising in between; (0, 0) is not asked.
    static func pseudoAngle(_ dx: Double, _ dy: Double) -> Double {
        let u = dx, v = -dy
        if u >= 0 && v > 0 { return u / (u + v) }
        if u > 0 && v <= 0 { return 1 + -v / (u - v) }
        if u <= 0 && v < 0 { return 2 + -u / (-u - v) }
        return 3 + v / (v - u)
    }
}
