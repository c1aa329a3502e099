#ifndef ICARE_CSYSTEMD_SHIM_H
#define ICARE_CSYSTEMD_SHIM_H
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <signal.h>
#include <time.h>
#include <systemd/sd-event.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
