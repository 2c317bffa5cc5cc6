#ifndef NUDGE_CLINUX_SHIM_H
#define NUDGE_CLINUX_SHIM_H

/* What Glibc's Swift module leaves out: the Linux descriptors the event loop polls (a
   child as a pidfd too), malloc_trim, libintl (gettext), and statfs (which file system a
   path is in), and closefrom for a spawned child and memmem (the daemon's search over titles): glibc
   declares both only under _GNU_SOURCE, so they are declared here as glibc does. Only re-exports; nothing else belongs
   here. */
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/pidfd.h>
#include <signal.h>
#include <poll.h>
#include <malloc.h>
#include <libintl.h>
#include <locale.h>
#include <sys/vfs.h>
#include <spawn.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

#endif
