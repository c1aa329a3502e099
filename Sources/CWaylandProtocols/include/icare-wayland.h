#ifndef ICARE_WAYLAND_H
#define ICARE_WAYLAND_H
/* Written by hand (not generated): the addresses of libwayland's and the
 * generated code's interface descriptions. libwayland keeps the pointer it
 * is given for the proxy's whole life, so Swift must pass the real object,
 * not a copy, and an `extern const` global cannot be taken by address there. */
#include <wayland-client.h>
#include "ext-idle-notify-v1-client-protocol.h"
#include "kde-idle-client-protocol.h"

static inline const struct wl_interface *icare_wl_seat_interface(void) { return &wl_seat_interface; }
static inline const struct wl_interface *icare_ext_idle_notifier_v1_interface(void) { return &ext_idle_notifier_v1_interface; }
static inline const struct wl_interface *icare_org_kde_kwin_idle_interface(void) { return &org_kde_kwin_idle_interface; }
#endif
