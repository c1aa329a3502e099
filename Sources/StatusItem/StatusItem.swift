import Glibc
import DBusKit
import SystemdKit
import ReminderCore
import RingDrawing

/// iCare's StatusNotifierItem: shown while a watcher owns
/// `org.kde.StatusNotifierWatcher`, the item is enabled and iCare's own
/// GNOME Shell extension does not draw the ring (it owns
/// `org.icare.Reminder.ShellRing` while enabled: one ring in the top bar), registered
/// again whenever the watcher's owner changes, and gone (no object, no
/// connection, no timer) otherwise. Fed by the daemon with the engine's status,
/// like the notifier; clicks come back as `MenuAction`s.
///
/// The item lives on a bus connection of its own and registers by its object
/// path, as libappindicator's items do: no well-known name. Watchers then know
/// it by that connection's unique name, which never changes owner, and drop it
/// when the connection closes (`hide`). GNOME's AppIndicator extension watches
/// a well-known name an item registers with, and when that watch answers after
/// the item's properties arrived it forgets `Id` and `Menu`, fails to read them
/// again and drops the item: about one start in three (docs/desktop-facts.md,
/// "GNOME Shell 43, run here").
public final class StatusItem {
    static let itemPath = ObjectPath("/StatusNotifierItem")
    static let menuPath = ObjectPath("/StatusNotifierItem/Menu")
    static let watcherName = BusName("org.kde.StatusNotifierWatcher")
    /// Owned by iCare's GNOME Shell extension (gnome-extension/) while it shows the ring.
    static let shellRingName = BusName("org.icare.Reminder.ShellRing")
    static let iconName = "org.icare.Reminder"

    /// The theme icon offered beside the pixmaps: none while the ring is
    /// drawn. GNOME's AppIndicator, Plasma's tray and xfce4-panel draw an
    /// item's `IconName` whenever the theme has it, and an installed iCare
    /// puts `org.icare.Reminder` (the static eye) into hicolor. The ring is
    /// rendered before the item is exported, so the name is a fallback only.
    var iconName: String { pixmapsEmpty ? StatusItem.iconName : "" }

    /// The daemon's connection: it follows the watcher's name.
    let bus: Connection
    /// The item's own connection while it is shown.
    private var itemBus: Connection?
    let loop: EventLoop
    let log: Log
    let clock: (Timestamp) -> String
    /// A click that should change the engine or a setting.
    public var onAction: ((MenuAction) -> Void)?
    /// A left click when no break is due: show the status (a title and today's tally) briefly, as a notification.
    public var onShowStatus: ((_ summary: String, _ body: String) -> Void)?

    private var enabled = true
    private var watcherOwner: String?
    private var watch: NameWatch?
    private var shellRingOwner: String?

    /// Where the ring is now, for `Capabilities`.
    public enum Place: Sendable { case shellExtension, tray, nowhere, off }
    public var place: Place {
        if shellRingOwner != nil { return .shellExtension }
        if !enabled { return .off }
        return watcherOwner != nil ? .tray : .nowhere
    }
    /// Runs when `place` may have changed.
    public var onPlaceChange: (() -> Void)?
    private var shellRingWatch: NameWatch?
    private var shown = false
    private var status = ReminderStatus(state: .inactive)
    private var settings = Settings()
    private var timeScale = TimeScale.real
    private(set) var face = RingFace(look: .inactive, fraction: 0, secondsLeft: nil, nextStep: nil)
    private(set) var pixmaps: DBusValue = .array(element: "(iiay)", [])
    private(set) var tooltip = ""
    private(set) var label = ""
    /// What the ring shows, in words (`IconAccessibleDesc`, `AttentionAccessibleDesc`).
    private(set) var accessibleDescription = ""
    private var itemObject: ExportedObject?
    private var menu: StatusMenu?
    private var stepTimer: EventSource?

    public init(bus: Connection, loop: EventLoop, log: Log, clock: @escaping (Timestamp) -> String) {
        self.bus = bus
        self.loop = loop
        self.log = log
        self.clock = clock
    }

    /// Starts following the watcher's name, and the Shell extension's.
    public func start() {
        shellRingWatch = bus.watchName(StatusItem.shellRingName) { [unowned self] owner in
            if owner != nil && self.shellRingOwner == nil && self.shown {
                self.log.info("iCare's GNOME Shell extension shows the ring; the status item steps aside.")
            }
            self.shellRingOwner = owner
            self.reconcile(registerAgain: false)
            self.onPlaceChange?()
        }
        watch = bus.watchName(StatusItem.watcherName) { [unowned self] owner in
            self.watcherOwner = owner
            self.reconcile(registerAgain: true)
            self.onPlaceChange?()
        }
    }

    /// The engine's status changed (or its settings); the `StatusItem`
    /// setting turns the item on or off at once.
    public func update(status: ReminderStatus, settings: Settings, timeScale: TimeScale) {
        self.status = status
        self.settings = settings
        self.timeScale = timeScale
        if settings.statusItem != enabled {
            enabled = settings.statusItem
            reconcile(registerAgain: false)
            return
        }
        guard shown else { return }
        refresh()
        menu?.update(status: status, settings: settings, extras: extras)
    }

    /// The phones a reminder can tap (`Phones`), named under "Remind my phone too", and whether iCare cannot
    /// see something here (an item that opens the app's page "This desktop").
    public var extras = MenuExtras() {
        didSet { if extras != oldValue, shown { menu?.update(status: status, settings: settings, extras: extras) } }
    }

    var itemStatus: String { status.state == .due ? "NeedsAttention" : "Active" }

    /// A left click: starts the break that is due; otherwise shows the
    /// status and today's tally: not every host shows the tooltip, and
    /// none on a touch screen.
    func activate() {
        if status.state == .due {
            onAction?(.event(.startBreak))
        } else {
            onShowStatus?(StatusItemTexts.headline(status, clock: clock), StatusItemTexts.tally(status))
        }
    }

    // MARK: showing and hiding

    private func reconcile(registerAgain: Bool) {
        let want = enabled && watcherOwner != nil && shellRingOwner == nil
        if want && !shown { show() } else if !want && shown { hide() } else if want && registerAgain { register() }
    }

    private func show() {
        let itemBus: Connection
        do {
            itemBus = try Connection(bus: .session, loop: loop)
        } catch {
            log.warning("Could not connect the status item to the session bus: \(error)")
            return
        }
        self.itemBus = itemBus
        let menu = StatusMenu(status: status, settings: settings, extras: extras, clock: clock)
        menu.onAction = { [unowned self] action in self.onAction?(action) }
        menu.onActivate = { [unowned self] in self.activate() }
        let menuObject = ExportedObject(path: StatusItem.menuPath, interfaces: [menu.describe()])
        menu.object = menuObject
        let item = ExportedObject(path: StatusItem.itemPath, interfaces: [ItemInterface.describe(self)])
        self.menu = menu
        itemObject = item
        shown = true
        refresh(announce: false)
        itemBus.export(item)
        itemBus.export(menuObject)
        register()
    }

    private func hide() {
        shown = false
        stepTimer?.cancel()
        stepTimer = nil
        itemBus?.unexport(StatusItem.itemPath)
        itemBus?.unexport(StatusItem.menuPath)
        itemObject = nil
        menu = nil
        // Closing the connection is how every watcher learns the item is gone.
        itemBus?.close()
        itemBus = nil
    }

    private func register() {
        guard let owner = watcherOwner, let itemBus else { return }
        let call = Message.methodCall(destination: BusName(owner), path: ObjectPath("/StatusNotifierWatcher"),
                                      interface: InterfaceName("org.kde.StatusNotifierWatcher"),
                                      member: MemberName("RegisterStatusNotifierItem"), arguments: [.string(StatusItem.itemPath.rawValue)])
        itemBus.call(call, timeoutMs: 5_000) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: self.log.info("The status item is in the panel (registered with \(owner)).")
            case .failure(let e): self.log.warning("The panel's watcher refused the status item: \(e)")
            }
        }
    }

    // MARK: the face

    /// Works out the face for now; redraws and announces what changed; arms the next step.
    private func refresh(announce: Bool = true) {
        let now = Timestamp(Clock.realtime.now())
        let next = RingFace.of(status, now: now, interval: timeScale.wait(settings.interval),
                               snooze: timeScale.wait(settings.snoozeDuration),
                               breakLength: Micro.seconds(settings.breakDuration))
        let oldStatus = itemStatus, oldTip = tooltip, oldLabel = label, oldFace = face, oldWords = accessibleDescription
        let iconChanged = next.look != oldFace.look || next.fraction != oldFace.fraction || pixmapsEmpty
        face = next
        if iconChanged { pixmaps = StatusItem.render(next) }
        tooltip = StatusItemTexts.tooltip(status, clock: clock)
        label = StatusItemTexts.label(next)
        accessibleDescription = StatusItemTexts.accessibleDescription(status, next, clock: clock)
        arm(next.nextStep)
        guard announce, let item = itemObject else { return }
        // Hosts read IconAccessibleDesc again on NewIcon, AttentionAccessibleDesc on NewAttentionIcon (GNOME's AppIndicator).
        if iconChanged || accessibleDescription != oldWords {
            item.emit(ItemInterface.name, "NewIcon")
            // While due, hosts draw the attention icon: the same ring.
            if itemStatus == "NeedsAttention" { item.emit(ItemInterface.name, "NewAttentionIcon") }
        }
        if tooltip != oldTip { item.emit(ItemInterface.name, "NewToolTip") }
        if label != oldLabel { item.emit(ItemInterface.name, "XAyatanaNewLabel", [.string(label), .string("88 min")]) }
        if itemStatus != oldStatus || oldFace.look != next.look {
            item.emit(ItemInterface.name, "NewStatus", [.string(itemStatus)])
        }
    }

    private var pixmapsEmpty: Bool { pixmaps.array?.isEmpty ?? true }

    static func render(_ face: RingFace) -> DBusValue {
        .array(element: "(iiay)", RingRenderer.sizes.map { size in
            let image = RingRenderer.render(size: size, fraction: face.fraction, look: face.look)
            return .structure([.int32(Int32(size)), .int32(Int32(size)), .bytes(image.bytes)])
        })
    }

    /// One realtime timer, on only while the ring has a next step and the item is shown.
    private func arm(_ at: Timestamp?) {
        guard shown, let at else {
            stepTimer?.setEnabled(.off)
            return
        }
        if stepTimer == nil {
            stepTimer = try? loop.addTimer(clock: .realtime, at: UInt64(max(0, at)), accuracy: 1_000) { [unowned self] in
                self.refresh()
            }
        }
        stepTimer?.setTime(UInt64(max(0, at)))
        stepTimer?.setEnabled(.oneshot)
    }
}
