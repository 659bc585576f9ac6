#ifndef CGLIBCEXTRAS_SHIM_H
#define CGLIBCEXTRAS_SHIM_H

// glibc interfaces that Swift's Glibc module does not carry.
// signalfd: the event loop reads termination signals as an ordinary file descriptor.
#include <signal.h>
#include <sys/signalfd.h>
// malloc_trim: the service hands freed memory back after a burst of activities.
#include <malloc.h>

#endif
