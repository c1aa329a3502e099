@testable import RingDrawing
import ReminderCore
import Testing
import Glibc

/// The ring as a person sees it, pixel by pixel.
@Suite struct RingRendererTests {
    /// One character per pixel: `.` clear, `#` exactly the fill colour,
    /// `o` exactly the track, `+` an anti-aliased edge of the fill, `~` of the track.
    static func map(_ image: RingImage, _ look: ReminderState) -> [String] {
        let fill = RingRenderer.colour(look)
        return (0..<image.size).map { y in
            String((0..<image.size).map { x -> Character in
                let p = image.pixel(x, y)
                if p.a == 0 { return "." }
                if p == fill { return "#" }
                if p == RingRenderer.track { return "o" }
                return (p.r, p.g, p.b) == (fill.r, fill.g, fill.b) ? "+" : "~"
            })
        }
    }

    static let quarter = [
        ".....~~~+++.....",
        "...~~ooo###++...",
        "..~~oooo####++..",
        ".~~oo~~~+++##++.",
        ".~oo~......+##+.",
        "~oo~........+##+",
        "~oo~........+##+",
        "~oo~........+##+",
        "~oo~........~oo~",
        "~oo~........~oo~",
        "~oo~........~oo~",
        ".~oo~......~oo~.",
        ".~~oo~~~~~~oo~~.",
        "..~~oooooooo~~..",
        "...~~oooooo~~...",
        ".....~~~~~~.....",
    ]

    @Test func aQuarterLeftFillsTwelveToThreeOClock() {
        #expect(Self.map(RingRenderer.render(size: 16, fraction: 0.25, look: .waiting), .waiting) == Self.quarter)
    }

    @Test func halfFillsTheRightSideAndNothingElse() {
        let m = Self.map(RingRenderer.render(size: 16, fraction: 0.5, look: .waiting), .waiting)
        for row in m {
            #expect(!row.prefix(8).contains("#") && !row.prefix(8).contains("+"), "left half: \(row)")
        }
        #expect(m.joined().filter { $0 == "#" }.count == 34, "half of the 68 fully covered pixels")
        #expect(m[8] == "~oo~........+##+")
    }

    @Test func nothingLeftIsTheBareTrackAndAllLeftIsTheFullRing() {
        let empty = Self.map(RingRenderer.render(size: 16, fraction: 0, look: .waiting), .waiting).joined()
        #expect(!empty.contains("#") && !empty.contains("+"))
        #expect(empty.filter { $0 == "o" }.count == 68)
        let full = Self.map(RingRenderer.render(size: 16, fraction: 1, look: .waiting), .waiting).joined()
        #expect(!full.contains("o") && !full.contains("~"))
        #expect(full.filter { $0 == "#" }.count == 68)
        // The same pixels are covered, only the colour differs.
        #expect(zip(empty, full).allSatisfy { ($0 == ".") == ($1 == ".") })
    }

    @Test func pixelsAreARGB32InNetworkByteOrder() {
        let image = RingRenderer.render(size: 48, fraction: 0.25, look: .waiting)
        // Column 44, row 14: wholly inside the ring, between twelve and three o'clock.
        let i = (14 * 48 + 44) * 4
        #expect(Array(image.bytes[i..<i + 4]) == [0xFF, 0x35, 0x84, 0xE4])
        // Column 4, row 24 (nine o'clock): the track, alpha first.
        let j = (24 * 48 + 4) * 4
        #expect(Array(image.bytes[j..<j + 4]) == [0x60, 0x9A, 0x99, 0x96])
        // The corners and the middle are clear.
        #expect(Array(image.bytes[0..<4]) == [0, 0, 0, 0])
        #expect(image.pixel(24, 24) == .clear)
    }

    @Test(arguments: RingRenderer.sizes)
    func everySizeIsSquareAndRound(size: Int) {
        let image = RingRenderer.render(size: size, fraction: 0.6, look: .break)
        #expect(image.size == size)
        #expect(image.bytes.count == size * size * 4)
        // Twelve o'clock is filled, the middle and the corners are clear, edges are soft.
        #expect(image.pixel(size / 2, 1).a > 0)
        #expect(image.pixel(size / 2, size / 2) == .clear)
        #expect(image.pixel(0, 0) == .clear && image.pixel(size - 1, size - 1) == .clear)
        let alphas = Set((0..<size * size).map { image.bytes[$0 * 4] })
        #expect(alphas.count > 3, "anti-aliased edges have alpha between 0 and 255")
    }

    @Test func eachLookIsDistinct() {
        let images = ReminderState.allCases.map { RingRenderer.render(size: 24, fraction: 0.5, look: $0) }
        for a in 0..<images.count {
            for b in a + 1..<images.count {
                #expect(images[a] != images[b], "\(ReminderState.allCases[a]) and \(ReminderState.allCases[b]) look the same")
            }
        }
        // Due: a dot in the middle; paused: two bars beside a clear middle; inactive: no fill at all.
        #expect(RingRenderer.render(size: 24, fraction: 0, look: .due).pixel(12, 12) == RingRenderer.colour(.due))
        let paused = RingRenderer.render(size: 24, fraction: 0.7, look: .paused)
        #expect(paused.pixel(12, 12) == .clear)
        #expect(paused.pixel(9, 12) == RingRenderer.colour(.paused) && paused.pixel(14, 12) == RingRenderer.colour(.paused))
        // Inactive: the faint track alone (no pixel more opaque than it).
        let inactive = RingRenderer.render(size: 24, fraction: 0.7, look: .inactive)
        #expect((0..<24 * 24).allSatisfy { inactive.bytes[$0 * 4] <= RingRenderer.track.a })
    }

    @Test func theRingStepsAtMostSixtyTimes() {
        #expect(RingRenderer.steppedFraction(remaining: 1200, total: 1200, steps: 60) == 1)
        #expect(RingRenderer.steppedFraction(remaining: 1199, total: 1200, steps: 60) == 1)
        #expect(RingRenderer.steppedFraction(remaining: 1180, total: 1200, steps: 60) == 59.0 / 60)
        #expect(RingRenderer.steppedFraction(remaining: 1, total: 1200, steps: 60) == 1.0 / 60)
        #expect(RingRenderer.steppedFraction(remaining: 0, total: 1200, steps: 60) == 0)
        #expect(RingRenderer.steppedFraction(remaining: 5000, total: 1200, steps: 60) == 1)
        #expect(RingRenderer.steppedFraction(remaining: -3, total: 1200, steps: 60) == 0)
        let distinct = Set((0...1200).map { RingRenderer.steppedFraction(remaining: Int64($0), total: 1200, steps: 60) })
        #expect(distinct.count == 61)
    }

    @Test func hostileFractionsDrawSomething() {
        #expect(RingRenderer.render(size: 16, fraction: .nan, look: .waiting) == RingRenderer.render(size: 16, fraction: 0, look: .waiting))
        #expect(RingRenderer.render(size: 16, fraction: 7, look: .waiting) == RingRenderer.render(size: 16, fraction: 1, look: .waiting))
    }

    @Test func theArcsEndIsWhereTheAngleSaysWithoutAnArctangent() {
        // Every sample point of a 48 px ring, for every step of a wait: the pseudo-angle puts it on the same side of
        // the arc's end as the true clockwise angle from twelve o'clock does.
        var disagreements = 0, checked = 0
        for step in 1..<60 {
            let f = Double(step) / 60
            let edge = RingEdge(f)
            for y in 0..<192 {
                for x in 0..<192 {
                    let dx = (Double(x) + 0.5) / 4 - 24, dy = (Double(y) + 0.5) / 4 - 24
                    var turn = atan2(dx, -dy) / (2 * Double.pi)
                    if turn < 0 { turn += 1 }
                    // Points within a hair of the end may go either way in floating point; the rest must agree.
                    guard abs(turn - f) > 1e-9 else { continue }
                    checked += 1
                    if edge.fills(dx, dy) != (turn < f) { disagreements += 1 }
                }
            }
        }
        #expect(checked > 2_000_000 && disagreements == 0)
        #expect(RingEdge(1).fills(-1, 1) && !RingEdge(0).fills(1, -1))
    }
}

/// When the ring is redrawn: at most 60 times in a wait, each second in a break, never while nothing counts.
@Suite struct RingFaceTests {
    static let minute = Micro.seconds(60)

    @Test func aWaitIsDrawnInSixtyStepsAtMost() {
        let interval = Micro.seconds(1200)
        let start: Timestamp = 1_000_000_000_000
        let status = ReminderStatus(state: .waiting, nextBreak: start + interval)
        var now = start
        var steps = 0
        var faces: [Double] = []
        while let next = RingFace.of(status, now: now, interval: interval, snooze: 0, breakLength: 0).nextStep {
            #expect(next > now)
            now = next
            steps += 1
            faces.append(RingFace.of(status, now: now, interval: interval, snooze: 0, breakLength: 0).fraction)
        }
        #expect(steps == 59, "59 redraws after the first, then the engine's deadline")
        #expect(faces.first == 59.0 / 60 && faces.last == 1.0 / 60)
        #expect(now == start + interval - Micro.seconds(20))
        let first = RingFace.of(status, now: start, interval: interval, snooze: 0, breakLength: 0)
        #expect(first.fraction == 1 && first.look == .waiting && first.secondsLeft == 1200)
    }

    @Test func aBreakStepsEachSecond() {
        let ends: Timestamp = 5_000_000_000
        let status = ReminderStatus(state: .break, breakEnds: ends)
        let face = RingFace.of(status, now: ends - Micro.seconds(20), interval: 0, snooze: 0, breakLength: Micro.seconds(20))
        #expect(face.look == .break && face.fraction == 1 && face.secondsLeft == 20)
        #expect(face.nextStep == ends - Micro.seconds(19))
        let later = RingFace.of(status, now: ends - Micro.seconds(5) - 1, interval: 0, snooze: 0, breakLength: Micro.seconds(20))
        #expect(later.fraction == 6.0 / 20 && later.nextStep == ends - Micro.seconds(5))
    }

    @Test func dueAndPausedAndInactiveDoNotTick() {
        for state in [ReminderState.due, .paused, .inactive] {
            let face = RingFace.of(ReminderStatus(state: state, nextBreak: 99), now: 1, interval: Self.minute, snooze: 0, breakLength: 1)
            #expect(face.look == state && face.nextStep == nil && face.secondsLeft == nil)
        }
    }
}
