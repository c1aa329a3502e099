import Foundation
import Testing
import TestSupport

/// The app follows the desktop's light or dark style (libadwaita's colour
/// scheme; here chosen with ADW_DEBUG_COLOR_SCHEME, as the desktop's setting
/// would): the window's background, read from a screenshot of it, is light or
/// dark. With ICARE_SCREENSHOTS=<folder> the pictures go there for the docs
/// (docs/screenshots/app-{light,dark}-{en,nl}.png, scripts/screenshots).
@Suite(.serialized) struct AppStyleTests {
    @Test(arguments: [("light", "en"), ("dark", "en"), ("light", "nl"), ("dark", "nl")])
    func theWindowFollowsTheStyle(style: String, language: String) throws {
        var environment = ["ADW_DEBUG_COLOR_SCHEME": style == "dark" ? "prefer-dark" : "prefer-light"]
        if language == "nl" { environment.merge(try AppDutchTests.dutch()) { $1 } }
        let rig = try AppRig(appEnvironment: environment)
        defer { rig.stop() }
        // A day with breaks in it: one skipped (the chart and today's list have something to show).
        try rig.service.call("Skip")
        let tally = language == "nl" ? "0 voltooid, 1 overgeslagen" : "0 completed, 1 skipped"
        try rig.waitForHome("today's tally") { $0.contains { $0.name == tally } }
        let shot = rig.work.appendingPathComponent("window.ppm").path
        let window = try rig.windowShot(to: shot)
        // The background beside the ring (left of it, below the header bar).
        let pixel = window.pixel(12, 120)
        let light = pixel.map(Int.init).reduce(0, +) / 3
        if style == "dark" {
            #expect(light < 90, "a dark background, not \(pixel)")
        } else {
            #expect(light > 200, "a light background, not \(pixel)")
        }
        if let folder = ProcessInfo.processInfo.environment["ICARE_SCREENSHOTS"], !folder.isEmpty {
            let r = try Subprocess.run(["convert", shot, "-strip", "-depth", "8", "\(folder)/app-\(style)-\(language).png"])
            #expect(r.status == 0, "\(r)")
        }
    }
}
