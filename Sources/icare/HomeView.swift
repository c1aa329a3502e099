import CAdwaita
import ReminderCore
import ReminderClient
import Localization
import RingDrawing

/// The home view: the ring with the time to the next break (or the break's
/// countdown), the state in words, the actions that make sense now, today's
/// breaks and the last seven days. A page of its own says when the service
/// is absent. Redrawn on every change the model reports; the one timer is the
/// next step of the ring or of the countdown's text.
final class HomeView {
    let model: AppModel
    let root: Widget
    private let stack: Widget
    private let ring = RingPicture(size: 200)
    private let stateLabel = UI.label(classes: ["title-3"], wrap: true)
    private let detail = UI.label(classes: ["dim-label"], wrap: true)
    private let notice = UI.label(classes: ["warning"], wrap: true)
    private var start, snooze, skip, resume, pauseRow: Widget!
    private let history: HistoryView
    private let absent: Widget
    /// The page shown until the first answer (removed then).
    private var starting: Widget?
    private var focusFirst = false
    /// What the ring says to screen readers, and the Snooze button's words, as last set: set again only when they change
    /// (each setting is a change event on the accessibility bus, a label's each a new layout).
    private var ringWords = "", snoozeWords = ""
    private lazy var timer = OneShotTimer { [unowned self] in self.update() }

    init(model: AppModel) {
        self.model = model
        history = HistoryView(model: model)
        stack = gtk_stack_new()!
        absent = adw_status_page_new()!
        root = stack
        build()
    }

    private func build() {

        start = UI.button(HomeTexts.startBreak, classes: ["suggested-action", "pill"]) { [unowned self] in self.model.call("StartBreak") }
        snooze = UI.button(HomeTexts.snooze(300), classes: ["pill"]) { [unowned self] in self.model.call("Snooze", [.uint32(0)]) }
        skip = UI.button(HomeTexts.skip, classes: ["pill"]) { [unowned self] in self.model.call("Skip") }
        resume = UI.button(HomeTexts.resume, classes: ["suggested-action", "pill"]) { [unowned self] in self.model.call("Resume") }
        let actions = UI.box(false, spacing: 12, [start, snooze, skip, resume])
        gtk_widget_set_halign(actions, GTK_ALIGN_CENTER)
        pauseRow = UI.box(false, spacing: 6, [
            UI.button(HomeTexts.pause30, classes: ["flat"]) { [unowned self] in self.model.call("Pause", [.uint32(1800)]) },
            UI.button(HomeTexts.pause60, classes: ["flat"]) { [unowned self] in self.model.call("Pause", [.uint32(3600)]) },
            UI.button(HomeTexts.pauseUntilResumed, classes: ["flat"]) { [unowned self] in self.model.call("Pause", [.uint32(0)]) },
        ])
        gtk_widget_set_halign(pauseRow, GTK_ALIGN_CENTER)

        let column = UI.box(true, spacing: 12, [ring.widget, stateLabel, detail, actions, pauseRow, notice, history.root])
        UI.margins(column, 24)
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(OpaquePointer(gp(clamp)), 560)
        adw_clamp_set_child(OpaquePointer(gp(clamp)), column)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(gp(scroller)), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(gp(scroller)), clamp)
        gtk_widget_set_vexpand(scroller, 1)

        let page = icare_adw_status_page(gp(absent))
        adw_status_page_set_icon_name(page, "org.icare.Reminder")
        adw_status_page_set_title(page, HomeTexts.notRunningTitle)
        let retry = UI.button(HomeTexts.tryAgain, classes: ["pill"]) { [unowned self] in self.model.retry() }
        gtk_widget_set_halign(retry, GTK_ALIGN_CENTER)
        adw_status_page_set_child(page, retry)

        let s = OpaquePointer(gp(stack))
        // Only the page that shows is measured: the first frame (the "starting" page) does not lay out the home view.
        gtk_stack_set_hhomogeneous(s, 0)
        gtk_stack_set_vhomogeneous(s, 0)
        gtk_stack_add_named(s, scroller, "home")
        gtk_stack_add_named(s, absent, "absent")
        starting = UI.label(HomeTexts.starting, classes: ["dim-label"])
        gtk_stack_add_named(s, starting, "starting")
        gtk_stack_set_visible_child_name(s, "starting")
    }

    /// Shows the model's state at this moment and sets the timer for the next step.
    func update() {
        let s = OpaquePointer(gp(stack))
        let page = icare_adw_status_page(gp(absent))
        guard let status = model.status else {
            timer.cancel()
            if model.feed.stopped {
                adw_status_page_set_title(page, HomeTexts.notRunningTitle)
                adw_status_page_set_description(page, model.feed.problem ?? ReminderBus.notRunning)
                gtk_stack_set_visible_child_name(s, "absent")
            }
            return
        }
        // Another login's icared keeps the breaks: this one's has nothing else to show.
        guard !status.isKeptElsewhere else {
            timer.cancel()
            adw_status_page_set_title(page, HomeTexts.keptElsewhereTitle)
            adw_status_page_set_description(page, status.keptElsewhereSentence)
            gtk_stack_set_visible_child_name(s, "absent")
            return
        }
        gtk_stack_set_visible_child_name(s, "home")
        if let page = starting {
            gtk_stack_remove(s, page)
            starting = nil
            BenchHook.showedStatus()
            focusFirst = true
        }
        let now = AppModel.now()
        let face = RingPicture.face(status, now: now)
        ring.show(face, countdown: HomeTexts.countdown(status, now: now))
        let words = HomeTexts.state(status, now: now, time: model.time)
        UI.setText(stateLabel, words)
        if words != ringWords {
            ringWords = words
            icare_accessible_label(gp(ring.widget), words)
        }
        let more = HomeTexts.detail(status, now: now, time: model.time)
        UI.setText(detail, more)
        UI.show(detail, !more.isEmpty)
        showActions(status)
        if focusFirst {
            // The keyboard starts on the first action that shows (Start break now, or Resume).
            focusFirst = false
            for b in [start, snooze, skip, resume] where gtk_widget_get_visible(b!) != 0 {
                _ = gtk_widget_grab_focus(b!)
                break
            }
        }
        var notes: [String] = []
        if status.desktopEyeBreaks { notes.append(HomeTexts.desktopEyeBreaks) }
        if !status.configProblems.isEmpty { notes.append(([HomeTexts.configProblems] + status.configProblems).joined(separator: "\n")) }
        if !status.sandboxLimits.isEmpty { notes.append(([ServiceStatus.sandboxHeading] + status.sandboxSentences).joined(separator: "\n")) }
        UI.setText(notice, notes.joined(separator: "\n\n"))
        UI.show(notice, !notes.isEmpty)
        history.update(status)
        schedule(status, face: face, now: now)
    }

    private func showActions(_ status: ServiceStatus) {
        let state = status.state
        let userPaused = state == "paused" && status.pauseReason == "user"
        UI.show(start, state == "waiting" || state == "snoozed" || state == "due")
        var snoozeLength: UInt32 = 300
        if case .uint(let v)? = status.settings[.snoozeDuration] { snoozeLength = v }
        let snoozeText = HomeTexts.snooze(snoozeLength)
        if snoozeText != snoozeWords {
            snoozeWords = snoozeText
            gtk_button_set_label(icare_button(gp(snooze)), snoozeText)
        }
        UI.show(snooze, state == "due")
        UI.show(skip, state == "due" || state == "break")
        UI.show(resume, userPaused)
        UI.show(pauseRow, !userPaused)
    }

    /// The next moment the ring or the countdown's text changes: the ring's
    /// step, the next minute of the time left, each second of a break.
    private func schedule(_ status: ServiceStatus, face: RingFace, now: Timestamp) {
        var next = face.nextStep
        let end: Timestamp = status.state == "break" ? status.breakEnds : status.nextBreak
        if let left = face.secondsLeft, left > 0, end > now {
            let unit: Int64 = status.state == "break" ? 1 : 60
            let change = end - ((left + unit - 1) / unit - 1) * unit * Micro.second
            if change > now { next = min(next ?? change, change) }
        }
        guard let next else { timer.cancel(); return }
        timer.schedule(inMs: (next - now + 999) / 1000)
    }
}
