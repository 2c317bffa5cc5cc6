#ifndef NUDGE_CLINUX_SHIM_H
#define NUDGE_CLINUX_SHIM_H

/* The Linux descriptors the daemon's loop polls and malloc_trim, which Glibc's Swift module leaves out.
   Only re-exports; nothing else belongs here. */
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <signal.h>
#include <poll.h>
#include <malloc.h>

#endif
