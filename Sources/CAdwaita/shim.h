#ifndef ICARE_CADWAITA_SHIM_H
#define ICARE_CADWAITA_SHIM_H
/* Written for iCare: GTK 4 and libadwaita for the app (Sources/icare).
 * GLib's signal connection and GTK's casts are macros, which Swift cannot
 * call; each wrapper below is one such macro as a function. The last part
 * runs the service's sd-event loop inside GLib's main loop. */
#include <adwaita.h>
#include <glib-unix.h>
#include <systemd/sd-event.h>

/* g_signal_connect: `handler` is any C function of the signal's shape. */
static inline gulong icare_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data)
{ return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0); }

static inline GtkWidget *icare_widget(gpointer object) { return GTK_WIDGET(object); }
static inline GtkWindow *icare_window(gpointer object) { return GTK_WINDOW(object); }
static inline GtkBox *icare_box(gpointer object) { return GTK_BOX(object); }
static inline GtkLabel *icare_label(gpointer object) { return GTK_LABEL(object); }
static inline GtkButton *icare_button(gpointer object) { return GTK_BUTTON(object); }
static inline GtkApplication *icare_gtk_application(gpointer object) { return GTK_APPLICATION(object); }
static inline GApplication *icare_g_application(gpointer object) { return G_APPLICATION(object); }
static inline GtkAccessible *icare_accessible(gpointer object) { return GTK_ACCESSIBLE(object); }
static inline GtkSpinButton *icare_spin(gpointer object) { return GTK_SPIN_BUTTON(object); }
static inline GtkSwitch *icare_switch(gpointer object) { return GTK_SWITCH(object); }
static inline GtkCheckButton *icare_check_button(gpointer object) { return GTK_CHECK_BUTTON(object); }
static inline GtkToggleButton *icare_toggle_button(gpointer object) { return GTK_TOGGLE_BUTTON(object); }
static inline GtkEditable *icare_editable(gpointer object) { return GTK_EDITABLE(object); }
static inline GtkLevelBar *icare_level_bar(gpointer object) { return GTK_LEVEL_BAR(object); }
static inline GtkOrientable *icare_orientable(gpointer object) { return GTK_ORIENTABLE(object); }
static inline GtkPicture *icare_picture(gpointer object) { return GTK_PICTURE(object); }
static inline GtkMenuButton *icare_menu_button(gpointer object) { return GTK_MENU_BUTTON(object); }
static inline GtkPopover *icare_popover(gpointer object) { return GTK_POPOVER(object); }
static inline GdkPaintable *icare_paintable(gpointer object) { return GDK_PAINTABLE(object); }
static inline GMenuModel *icare_menu_model(gpointer object) { return G_MENU_MODEL(object); }
static inline GListModel *icare_list_model(gpointer object) { return G_LIST_MODEL(object); }
static inline AdwPreferencesWindow *icare_adw_preferences_window(gpointer o) { return ADW_PREFERENCES_WINDOW(o); }
static inline AdwPreferencesPage *icare_adw_preferences_page(gpointer o) { return ADW_PREFERENCES_PAGE(o); }
static inline AdwPreferencesGroup *icare_adw_preferences_group(gpointer o) { return ADW_PREFERENCES_GROUP(o); }
static inline AdwActionRow *icare_adw_action_row(gpointer o) { return ADW_ACTION_ROW(o); }
static inline AdwPreferencesRow *icare_adw_preferences_row(gpointer o) { return ADW_PREFERENCES_ROW(o); }
static inline AdwComboRow *icare_adw_combo_row(gpointer o) { return ADW_COMBO_ROW(o); }
static inline AdwApplicationWindow *icare_adw_application_window(gpointer o) { return ADW_APPLICATION_WINDOW(o); }
static inline AdwStatusPage *icare_adw_status_page(gpointer o) { return ADW_STATUS_PAGE(o); }
static inline AdwToastOverlay *icare_adw_toast_overlay(gpointer o) { return ADW_TOAST_OVERLAY(o); }
static inline AdwHeaderBar *icare_adw_header_bar(gpointer o) { return ADW_HEADER_BAR(o); }
static inline AdwWindow *icare_adw_window(gpointer o) { return ADW_WINDOW(o); }
static inline AdwCarousel *icare_adw_carousel(gpointer o) { return ADW_CAROUSEL(o); }
static inline AdwCarouselIndicatorDots *icare_adw_carousel_indicator_dots(gpointer o) { return ADW_CAROUSEL_INDICATOR_DOTS(o); }
static inline GtkShortcutController *icare_shortcut_controller(gpointer object) { return GTK_SHORTCUT_CONTROLLER(object); }
static inline GtkListBox *icare_list_box(gpointer object) { return GTK_LIST_BOX(object); }

/* Labels screen readers read: the accessible label and description (varargs in GTK). */
static inline void icare_accessible_label(gpointer widget, const char *label)
{ gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1); }
static inline void icare_accessible_description(gpointer widget, const char *text)
{ gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1); }

/* A drawing area that screen readers see as an image (the accessible role is construct-only). */
static inline GtkWidget *icare_drawing_area_image(void)
{ return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL)); }

/* sd-event inside GLib's main loop: a GSource whose prepare, check and
 * dispatch are sd_event_prepare, sd_event_wait(0) and sd_event_dispatch,
 * polling sd-event's epoll fd. GLib calls prepare on every iteration, so
 * work that a GTK handler hands to sd-event (a deferred D-Bus dispatch)
 * runs in the same iteration; nothing polls on a timer. */
typedef struct { GSource source; sd_event *event; } IcareSdEventSource;

static inline gboolean icare_sd_prepare(GSource *s, gint *timeout)
{
    sd_event *e = ((IcareSdEventSource *)s)->event;
    *timeout = -1;
    int state = sd_event_get_state(e);
    /* Armed and not checked last time (a higher-priority source ran): finish that wait first. */
    if (state == SD_EVENT_ARMED) {
        if (sd_event_wait(e, 0) > 0) return TRUE;
        state = sd_event_get_state(e);
    }
    if (state == SD_EVENT_PENDING) return TRUE;
    return state == SD_EVENT_INITIAL && sd_event_prepare(e) > 0;
}
static inline gboolean icare_sd_check(GSource *s)
{
    sd_event *e = ((IcareSdEventSource *)s)->event;
    int state = sd_event_get_state(e);
    if (state == SD_EVENT_PENDING) return TRUE;
    return state == SD_EVENT_ARMED && sd_event_wait(e, 0) > 0;
}
static inline gboolean icare_sd_dispatch(GSource *s, GSourceFunc cb, gpointer data)
{
    sd_event *e = ((IcareSdEventSource *)s)->event;
    (void)cb; (void)data;
    if (sd_event_get_state(e) == SD_EVENT_PENDING) sd_event_dispatch(e);
    return G_SOURCE_CONTINUE;
}
static GSourceFuncs icare_sd_funcs = { icare_sd_prepare, icare_sd_check, icare_sd_dispatch, NULL, NULL, NULL };

/* Attaches `event` to GLib's default main context; returns the source's id. */
static inline guint icare_attach_sd_event(sd_event *event)
{
    GSource *s = g_source_new(&icare_sd_funcs, sizeof(IcareSdEventSource));
    ((IcareSdEventSource *)s)->event = event;
    g_source_add_unix_fd(s, sd_event_get_fd(event), G_IO_IN);
    guint id = g_source_attach(s, NULL);
    g_source_unref(s);
    return id;
}
#endif
