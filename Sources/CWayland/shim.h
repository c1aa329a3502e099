#ifndef ICARE_CWAYLAND_SHIM_H
#define ICARE_CWAYLAND_SHIM_H
#include <wayland-client-core.h>
#include <wayland-client-protocol.h>
#endif
