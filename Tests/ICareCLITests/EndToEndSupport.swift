import Foundation
import TestSupport

/// Runs the built `icarectl` with the harness's bus and folders, in UTC.
func icarectl(_ h: ServiceHarness, _ args: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
    var env = h.environment
    env["TZ"] = "UTC"
    env["NO_COLOR"] = "1"
    for (k, v) in extra { env[k] = v }
    return try Subprocess.run([try Products.path("icarectl")] + args, environment: env, timeout: 20)
}

/// `HH:MM` / `HH:MM:SS` of an ISO 8601 string from the JSON output.
func clock(_ iso: String, seconds: Bool = false) -> String {
    let t = iso.split(separator: "T")[1]
    return String(t.prefix(seconds ? 8 : 5))
}

/// What icarectl writes for a time from the JSON output, in UTC: `HH:MM`, or `tomorrow HH:MM` once
/// it is past midnight (a break due at 00:14 seen at 23:54).
func clockFromToday(_ iso: String) -> String {
    iso.hasPrefix(utcDay().date) ? clock(iso) : "tomorrow " + clock(iso)
}

func jsonObject(_ text: String) throws -> [String: Any] {
    guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { throw HarnessError("not a JSON object: \(text)") }
    return o
}

/// The key order of a one-line JSON object, as printed.
func keys(_ text: String) -> [String] {
    let pattern = try! NSRegularExpression(pattern: #"[{,]"([a-z_A-Z]+)":"#)
    let ns = text as NSString
    return pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
}

/// Today in UTC as `Fri 2024-11-29`.
func utcDay(offsetDays: Int = 0) -> (weekday: String, date: String) {
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = TimeZone(identifier: "UTC")!
    let d = cal.date(byAdding: .day, value: offsetDays, to: Date())!
    let f = DateFormatter()
    f.timeZone = cal.timeZone
    f.locale = Locale(identifier: "en_US_POSIX")
    f.dateFormat = "EEE"
    let w = f.string(from: d)
    f.dateFormat = "yyyy-MM-dd"
    return (w, f.string(from: d))
}
