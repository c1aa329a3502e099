#ifndef ICARE_CCANBERRA_SHIM_H
#define ICARE_CCANBERRA_SHIM_H
/* Written for iCare. libcanberra's declarations (libcanberra-dev), for its types, property names
 * and error codes. Not linked: the sound's own short-lived process (icared --play-sound) opens
 * libcanberra.so.0 with dlopen (see Sources/Sound), so the service never maps it, nor the Pulse
 * client library it loads (which is marked NODELETE and would stay for good once loaded).
 * Also the process calls the sound needs that Swift's Glibc module lacks or cannot call
 * (variadic): spawning with all other descriptors closed, pidfd_open, the parent-death signal. */
#include <canberra.h>
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A descriptor that becomes readable when process `pid` exits (Linux 5.3; -1 and errno before). */
static inline int icare_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/* Closes every descriptor from `from` up in the child (glibc 2.34). */
static inline int icare_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

/* pipe2, which Swift's Glibc module does not declare. */
static inline int icare_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

/* The calling process gets SIGKILL when its parent dies. */
static inline int icare_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL); }

#endif
