#ifndef CGLIBCEXTRAS_SHIM_H
#define CGLIBCEXTRAS_SHIM_H

// glibc interfaces that Swift's Glibc module does not carry.
// signalfd: the event loop reads termination signals as an ordinary file descriptor.
#include <signal.h>
#include <sys/signalfd.h>
// malloc_trim: the service hands freed memory back after a burst of activities.
#include <malloc.h>
// timerfd and eventfd: a connection shared by threads is told of its calls' deadlines and of work for its loop
// through descriptors its loop polls, which any thread may arm without waking it.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
// prctl(PR_SET_NAME): a connection's own thread is named, so that it can be told apart in /proc and in tests.
#include <sys/prctl.h>
static inline int cglibc_name_this_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

#endif
