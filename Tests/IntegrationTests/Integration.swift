import Testing

/// Every suite that needs a bus runs under this one, one test at a time in a process: most of them block the thread
/// they run on while they wait for a program, and Foundation learns that a child process has exited on a thread of
/// the same pool, so side by side they could wait for it for ever; and the library's tests count the process's
/// loop threads. Each test starts its own `dbus-daemon` and `netactivityd` and sees only what it started, so that
/// `Tests/run.sh` runs the suites in three processes at once, as copies of the suite on one machine would run.
@Suite(.serialized) enum Integration {}
