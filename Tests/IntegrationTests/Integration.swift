import Testing

/// Every suite that needs a bus runs under this one, one test at a time: each test starts its own
/// `dbus-daemon` and `netactivityd`, and the timing of signals is easier to reason about without neighbours.
@Suite(.serialized) enum Integration {}
