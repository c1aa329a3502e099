#ifndef ICARE_CPIPEWIRE_SHIM_H
#define ICARE_CPIPEWIRE_SHIM_H
/* Written for iCare: libpipewire's loop, core, registry and node calls are
 * macros over spa's interface tables, which Swift cannot call. Each wrapper
 * below is one such macro as a function Swift can import. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

/* libpipewire's log, handed to the program: each line it would print on
 * stderr goes to `sink` instead, already formatted. The route is the
 * program's memory (a spa_log of version 0, whose `log`/`logv` libpipewire
 * calls with the route as their object), kept until icare_pw_log_unroute. */
typedef void (*icare_pw_log_sink)(void *data, int level, const char *text);
struct icare_pw_log_route {
  struct spa_log log;
  struct spa_log_methods methods;
  icare_pw_log_sink sink;
  void *data;
};

static void icare_pw_logv(void *object, enum spa_log_level level, const char *file, int line,
                          const char *func, const char *fmt, va_list args)
{
  (void)file; (void)line; (void)func;
  struct icare_pw_log_route *route = object;
  char text[512];
  vsnprintf(text, sizeof text, fmt, args);
  route->sink(route->data, (int)level, text);
}

static void icare_pw_log(void *object, enum spa_log_level level, const char *file, int line,
                         const char *func, const char *fmt, ...)
{
  va_list args;
  va_start(args, fmt);
  icare_pw_logv(object, level, file, line, func, fmt, args);
  va_end(args);
}

/* Routes libpipewire's log at `level` and above (SPA_LOG_LEVEL_*) to `sink`. */
static inline void icare_pw_log_route(struct icare_pw_log_route *route, icare_pw_log_sink sink, void *data, int level)
{
  route->methods = (struct spa_log_methods){ .version = 0, .log = icare_pw_log, .logv = icare_pw_logv };
  route->log.iface = (struct spa_interface)SPA_INTERFACE_INIT(SPA_TYPE_INTERFACE_Log, 0, &route->methods, route);
  route->log.level = (enum spa_log_level)level;
  route->sink = sink;
  route->data = data;
  pw_log_set(&route->log);
  pw_log_set_level((enum spa_log_level)level);
}

/* libpipewire's own logger again, silenced: the route may go after this. */
static inline void icare_pw_log_unroute(void)
{
  pw_log_set(NULL);
  pw_log_set_level(SPA_LOG_LEVEL_NONE);
}

/* Version numbers of the event tables this code fills in. */
static const uint32_t icare_pw_core_events_version = PW_VERSION_CORE_EVENTS;
static const uint32_t icare_pw_registry_events_version = PW_VERSION_REGISTRY_EVENTS;
static const uint32_t icare_pw_node_events_version = PW_VERSION_NODE_EVENTS;
static const uint32_t icare_pw_id_core = PW_ID_CORE;
#endif
