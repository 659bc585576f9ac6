#if !DEBUG
// A fuzz target tests the modules' internals (`@testable import`), which only a debug build compiles them for:
// `bash Tests/fuzz.sh` and the test suite build it so. A release build (`swift build -c release` at the
// package's root) makes this stub instead, which says so.
@main
enum ReleaseBuild {
    static func main() {
        print("fuzz-tray-objects is a fuzz target: build it in debug (bash Tests/fuzz.sh)")
    }
}
#endif
