// The process's arguments for Swift's `CommandLine.arguments`, as glibc hands them to the program's constructors.
//
// The Swift runtime's own way on Linux is a constructor that reads /proc/self/maps to find the stack and walks it
// back to argv, at every start of every program: 170,000 instructions with sscanf, and the kernel's time to print
// the maps, 7% of a `netactivity begin` (docs/performance.md). The standard library asks the runtime for the
// arguments through the two functions below; a program that defines them itself leaves the runtime's
// CommandLine.cpp, and its constructor, out of the link. Should a later runtime define something else there that
// the standard library needs, the link fails on the duplicate definitions instead of silently running both.

#include <stddef.h>

static char **given_arguments;
static int given_count;
static char **override_arguments;
static int override_count;

// glibc calls the main program's constructors with main's arguments.
static void capture_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    given_count = argc;
    given_arguments = argv;
}

__attribute__((section(".init_array"), used))
static void (*const capture_arguments_at_start)(int, char **, char **) = capture_arguments;

char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *no_arguments[] = { NULL };
    if (override_arguments) {
        *outArgLen = override_count;
        return override_arguments;
    }
    *outArgLen = given_count;
    return given_arguments ? given_arguments : no_arguments;
}

void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_arguments = argv;
    override_count = argc;
}
