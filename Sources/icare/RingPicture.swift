import CAdwaita
import ReminderCore
import ReminderClient
import StatusItem

/// The panel's ring, larger: the pixels come from StatusItem's own renderer
/// (`RingFace` says what to show, `RingRenderer` draws it), handed to GTK as a
/// texture in the same byte order (A, R, G, B, not premultiplied).
final class RingPicture {
    let widget: Widget
    let size: Int32
    private var shown: RingFace?

    init(size: Int32) {
        self.size = size
        widget = gtk_image_new()!
        gtk_image_set_pixel_size(OpaquePointer(gp(widget)), size)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
    }

    /// The face for `s` at `now`, as the panel computes it.
    static func face(_ s: ServiceStatus, now: Timestamp) -> RingFace {
        let status = ReminderStatus(state: ReminderState(rawValue: s.state) ?? .waiting,
                                    pauseReason: PauseReason(rawValue: s.pauseReason) ?? .none,
                                    nextBreak: s.nextBreak, breakEnds: s.breakEnds, pausedUntil: s.pausedUntil)
        let scale = Int64(max(1, s.timeScale))
        var snooze: Int64 = 300
        if case .uint(let v)? = s.settings[.snoozeDuration] { snooze = Int64(v) }
        return RingFace.of(status, now: now, interval: Int64(s.interval) * Micro.second / scale,
                           snooze: snooze * Micro.second / scale, breakLength: Int64(s.breakDuration) * Micro.second)
    }

    /// Draws `face` unless it is already showing.
    func show(_ face: RingFace) {
        guard face.look != shown?.look || face.fraction != shown?.fraction else { return }
        shown = face
        let pixels = Int(size) * Int(max(1, gtk_widget_get_scale_factor(widget)))
        let image = RingRenderer.render(size: pixels, fraction: face.fraction, look: face.look)
        let bytes = image.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let texture = gdk_memory_texture_new(Int32(pixels), Int32(pixels), GDK_MEMORY_A8R8G8B8, bytes, gsize(pixels * 4))
        g_bytes_unref(bytes)
        gtk_image_set_from_paintable(OpaquePointer(gp(widget)), icare_paintable(gp(texture)))
        g_object_unref(gp(texture))
    }
}
