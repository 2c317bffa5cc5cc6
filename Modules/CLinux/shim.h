#ifndef NUDGE_CLINUX_SHIM_H
#define NUDGE_CLINUX_SHIM_H

/* What Glibc's Swift module leaves out: the Linux descriptors the event loop polls (a
   child as a pidfd too), malloc_trim, libintl (gettext), and statfs (which file system a
   path is in). Only re-exports; nothing else belongs here. */
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

#endif
