import Testing

/// Every suite that needs a bus runs under this one. Each test starts its own `dbus-daemon` and `netactivityd` and
/// sees only what it started, so the tests run side by side, as two copies of the suite on one machine would;
/// what they await has a deadline, and times are checked only from below. `ClientLibraryTests`, which counts the
/// test process's own loop threads, runs alone (`Tests/run.sh`), and so do the desktops on screen.
@Suite enum Integration {}
