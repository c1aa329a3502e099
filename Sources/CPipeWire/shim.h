#ifndef ICARE_CPIPEWIRE_SHIM_H
#define ICARE_CPIPEWIRE_SHIM_H
/* Written for iCare: libpipewire's loop, core, registry and node calls are
 * macros over spa's interface tables, which Swift cannot call. Each wrapper
 * below is one such macro as a function Swift can import. */
#include <errno.h>
#include <pipewire/pipewire.h>
#include <pipewire/impl-module.h>
#include <spa/utils/dict.h>
#include <spa/utils/hook.h>

static inline int icare_pw_loop_fd(struct pw_loop *loop) { return pw_loop_get_fd(loop); }
static inline void icare_pw_loop_enter(struct pw_loop *loop) { pw_loop_enter(loop); }
static inline void icare_pw_loop_leave(struct pw_loop *loop) { pw_loop_leave(loop); }
/* Dispatches what is ready without waiting (timeout 0). */
static inline int icare_pw_loop_dispatch(struct pw_loop *loop) { return pw_loop_iterate(loop, 0); }

static inline int icare_pw_core_add_listener(struct pw_core *core, struct spa_hook *hook,
                                             const struct pw_core_events *events, void *data)
{ return pw_core_add_listener(core, hook, events, data); }

static inline struct pw_registry *icare_pw_core_registry(struct pw_core *core)
{ return pw_core_get_registry(core, PW_VERSION_REGISTRY, 0); }

static inline int icare_pw_registry_add_listener(struct pw_registry *registry, struct spa_hook *hook,
                                                 const struct pw_registry_events *events, void *data)
{ return pw_registry_add_listener(registry, hook, events, data); }

static inline struct pw_proxy *icare_pw_registry_bind_node(struct pw_registry *registry, uint32_t id)
{ return (struct pw_proxy *)pw_registry_bind(registry, id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0); }

static inline int icare_pw_node_add_listener(struct pw_proxy *node, struct spa_hook *hook,
                                             const struct pw_node_events *events, void *data)
{ return pw_node_add_listener((struct pw_node *)node, hook, events, data); }

static inline const char *icare_spa_dict_lookup(const struct spa_dict *dict, const char *key)
{ return dict ? spa_dict_lookup(dict, key) : NULL; }

static inline void icare_spa_hook_remove(struct spa_hook *hook) { spa_hook_remove(hook); }

/* Version numbers of the event tables this code fills in. */
static const uint32_t icare_pw_core_events_version = PW_VERSION_CORE_EVENTS;
static const uint32_t icare_pw_registry_events_version = PW_VERSION_REGISTRY_EVENTS;
static const uint32_t icare_pw_node_events_version = PW_VERSION_NODE_EVENTS;
static const uint32_t icare_pw_id_core = PW_ID_CORE;
#endif
