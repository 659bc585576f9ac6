#ifndef CSIGNALFD_SHIM_H
#define CSIGNALFD_SHIM_H

// Swift's Glibc module does not carry signalfd; the event loop reads signals as an ordinary file descriptor.
#include <signal.h>
#include <sys/signalfd.h>

#endif
