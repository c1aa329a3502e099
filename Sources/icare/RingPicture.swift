import CAdwaita
import ReminderCore
import ReminderClient
import StatusItem

/// The panel's ring, larger: the pixels come from StatusItem's own renderer
/// (`RingFace` says what to show, `RingRenderer` draws it). A drawing area of
/// a fixed size paints them (cairo, premultiplied), so that a new step of the
/// ring only redraws it: a GtkImage given a new texture asks for a new layout
/// of the whole window, which on X11 costs a dozen round trips to the X server
/// (the window's geometry, its work area, its size hints) on every step.
final class RingPicture {
    let widget: Widget
    let size: Int32
    private var shown: RingFace?
    /// The ring as cairo wants it: ARGB32, premultiplied, native byte order; `pixels` square.
    fileprivate var surface: OpaquePointer?
    fileprivate var pixels: Int32 = 0

    init(size: Int32) {
        self.size = size
        widget = icare_drawing_area_image()!
        let area = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkDrawingArea.self)
        gtk_drawing_area_set_content_width(area, size)
        gtk_drawing_area_set_content_height(area, size)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        let draw: GtkDrawingAreaDrawFunc = { _, cr, width, height, data in
            let me = Unmanaged<RingPicture>.fromOpaque(data!).takeUnretainedValue()
            guard let surface = me.surface, me.pixels > 0 else { return }
            let scale = Double(min(width, height)) / Double(me.pixels)
            cairo_translate(cr, Double(width) / 2 - Double(me.pixels) * scale / 2, Double(height) / 2 - Double(me.pixels) * scale / 2)
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
        }
        // The picture lives as long as the home view, which lives as long as the window.
        gtk_drawing_area_set_draw_func(area, draw, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit { if let surface { cairo_surface_destroy(surface) } }

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

    /// Draws `face` unless its pixels are already showing; returns whether they changed.
    @discardableResult
    func show(_ face: RingFace) -> Bool {
        guard face.look != shown?.look || face.fraction != shown?.fraction else { return false }
        shown = face
        let n = Int(size) * Int(max(1, gtk_widget_get_scale_factor(widget)))
        let image = RingRenderer.render(size: n, fraction: face.fraction, look: face.look)
        if surface == nil || Int(pixels) != n {
            if let surface { cairo_surface_destroy(surface) }
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(n), Int32(n))
            pixels = Int32(n)
        }
        guard let surface, let data = cairo_image_surface_get_data(surface) else { return false }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        image.bytes.withUnsafeBufferPointer { src in
            for y in 0..<n {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<n {
                    let i = (y * n + x) * 4
                    let a = UInt32(src[i])
                    func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                    row[x] = a << 24 | pre(src[i + 1]) << 16 | pre(src[i + 2]) << 8 | pre(src[i + 3])
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        gtk_widget_queue_draw(widget)
        return true
    }
}
