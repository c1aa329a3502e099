import CAdwaita
import ReminderCore
import ReminderClient
import RingDrawing

/// The panel's ring, larger, with the time left in it: the pixels come from StatusItem's own renderer
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
    /// The countdown drawn in the ring ("12 min", "0:08"); also its accessible description.
    fileprivate var text = ""

    init(size: Int32) {
        self.size = size
        widget = icare_drawing_area_image()!
        let area = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkDrawingArea.self)
        gtk_drawing_area_set_content_width(area, size)
        gtk_drawing_area_set_content_height(area, size)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        // The countdown's font: the label style it had as a label of its own.
        for c in ["title-1", "numeric"] { gtk_widget_add_css_class(widget, c) }
        let draw: GtkDrawingAreaDrawFunc = { area, cr, width, height, data in
            let me = Unmanaged<RingPicture>.fromOpaque(data!).takeUnretainedValue()
            guard let surface = me.surface, me.pixels > 0 else { return }
            let scale = Double(min(width, height)) / Double(me.pixels)
            cairo_translate(cr, Double(width) / 2 - Double(me.pixels) * scale / 2, Double(height) / 2 - Double(me.pixels) * scale / 2)
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
            cairo_identity_matrix(cr)
            guard !me.text.isEmpty, let area, let layout = gtk_widget_create_pango_layout(icare_widget(gp(area)), me.text) else { return }
            var colour = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(icare_widget(gp(area))), &colour)
            cairo_set_source_rgba(cr, Double(colour.red), Double(colour.green), Double(colour.blue), Double(colour.alpha))
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_pixel_size(layout, &w, &h)
            cairo_move_to(cr, Double(width - w) / 2, Double(height - h) / 2)
            pango_cairo_show_layout(cr, layout)
            g_object_unref(gp(layout))
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

    /// Draws `face` with `countdown` in it, unless both already show: a redraw, never a new layout
    /// (a label of its own changing its text would lay the window out again each minute, each second of a break).
    func show(_ face: RingFace, countdown: String) {
        if countdown != text {
            text = countdown
            icare_accessible_description(gp(widget), countdown)
            gtk_widget_queue_draw(widget)
        }
        render(face)
    }

    /// Renders `face` unless its pixels are already showing.
    private func render(_ face: RingFace) {
        guard face.look != shown?.look || face.fraction != shown?.fraction else { return }
        shown = face
        let n = Int(size) * Int(max(1, gtk_widget_get_scale_factor(widget)))
        let image = RingRenderer.render(size: n, fraction: face.fraction, look: face.look)
        if surface == nil || Int(pixels) != n {
            if let surface { cairo_surface_destroy(surface) }
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(n), Int32(n))
            pixels = Int32(n)
        }
        guard let surface, let data = cairo_image_surface_get_data(surface) else { return }
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
    }
}
