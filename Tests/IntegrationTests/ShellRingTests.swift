import Testing
import Foundation
import DBusKit
import TestSupport
import LoopSupport

/// One ring in the top bar: while iCare's GNOME Shell extension
/// (gnome-extension/) is enabled it owns `org.icare.Reminder.ShellRing` and draws the
/// ring itself, so the real icared's status item leaves the watcher, and
/// comes back when the name goes (the extension disabled, or the Shell gone).
@Suite(.serialized) struct ShellRingTests {
    static let ringName = "org.icare.Reminder.ShellRing"

    @Test func theStatusItemStepsAsideWhileTheShellExtensionOwnsItsName() throws {
        let rig = try DndBusRig()
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        try rig.service.start()
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        let first = try StatusItemTests.itemName(rig)

        // The extension is enabled: the item's connection closes, so the watcher forgets it.
        let ring = FakeBusProgram(busName: Self.ringName)
        try rig.appear(ring)
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).isEmpty })
        #expect(try waitUntil(timeout: 5) { try !StatusItemTests.hasOwner(rig, first) })
        #expect(try rig.service.statusItemOwner() == nil)
        #expect(try rig.service.busctl(["introspect", "org.icare.Reminder", "/StatusNotifierItem"]).status != 0)

        // A watcher that restarts meanwhile gets nothing either.
        try rig.sync { watcher.vanish() }
        // The bus lets the name go once it has seen the connection close (a loaded machine lags here).
        #expect(try waitUntil(timeout: 5) { try !StatusItemTests.hasOwner(rig, "org.kde.StatusNotifierWatcher") })
        try rig.appear(watcher)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try StatusItemTests.registered(rig, watcher).isEmpty)

        // The extension is disabled: the item is back by itself, on a new connection.
        try rig.sync { ring.vanish() }
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
        let again = try StatusItemTests.itemName(rig)
        #expect(try StatusItemTests.registered(rig, watcher) == [again + "/StatusNotifierItem"])
        #expect(try rig.service.nameHasOwner())
    }

    @Test func anExtensionAlreadyThereWhenIcaredStartsMeansNoItemAtAll() throws {
        let rig = try DndBusRig()
        let watcher = FakeWatcher()
        try rig.appear(watcher)
        let ring = FakeBusProgram(busName: Self.ringName)
        try rig.appear(ring)
        try rig.service.start()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try StatusItemTests.registered(rig, watcher).isEmpty)
        #expect(try rig.sync { watcher.calls }.isEmpty, "never registered, not even for a moment")
        #expect(try rig.service.statusItemOwner() == nil)

        try rig.sync { ring.vanish() }
        #expect(try waitUntil(timeout: 5) { try StatusItemTests.registered(rig, watcher).count == 1 })
    }
}
