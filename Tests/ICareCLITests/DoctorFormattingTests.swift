import Testing
import DBusKit
import ReminderClient
@testable import ICareCLI

/// `icarectl doctor`'s text and JSON from a `Capabilities` reply (the service's side is DoctorTests').
@Suite struct DoctorFormattingTests {
    func status(_ entries: [(String, String, String)], limits: [String] = []) -> ServiceStatus {
        ServiceStatus(properties: [
            "Capabilities": .array(element: "(sss)", entries.map { .structure([.string($0.0), .string($0.1), .string($0.2)]) }),
            "SandboxLimits": .array(element: "s", limits.map { .string($0) }),
        ])
    }

    @Test func aLineEachWithItsMarkAndTheSandboxsSentencesUnderIt() {
        let s = status([("reminder-buttons", "works", "mako 1.7.1 shows Start, Snooze and Skip."),
                        ("phones", "off", "Off."), ("login", "limited", "Nothing starts iCare at login here."),
                        ("sandbox", "limited", "Inside the Flatpak's sandbox; not everything can work there."),
                        ("a-newer-one", "strange", "Words.")], limits: ["sleep"])
        #expect(DoctorFormatter(style: .plain).text(s) == """
            ✓ Reminder buttons   mako 1.7.1 shows Start, Snooze and Skip.
            – Phones             Off.
            ! Starting at login  Nothing starts iCare at login here.
            ! Sandbox            Inside the Flatpak's sandbox; not everything can work there.
                                 • A suspend is not seen, so a reminder may come right after waking up.
            ✗ a-newer-one        Words.

            """)
        #expect(s.capabilities.filter(\.fails).map(\.name) == ["login", "sandbox", "a-newer-one"])
        #expect(DoctorFormatter(style: .plain).json(s).text.hasSuffix(#""sandbox_limits":["sleep"],"failing":3}"#))
    }

    @Test func anOlderServiceSaysNothingAndNothingFails() {
        let s = ServiceStatus(properties: ["State": .string("waiting")])
        #expect(s.capabilities.isEmpty)
        #expect(DoctorFormatter(style: .plain).text(s) == "This iCare service does not say what it can see (it is older than icarectl).\n")
    }
}
