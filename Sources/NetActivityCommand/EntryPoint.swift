#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Dispatch

/// The plain forms of `begin`, `end`, `run` and `watch` skip swift-argument-parser (`PlainInvocation`) and Dispatch's
/// worker threads (`ActivityAction.exitStatus()`); everything else is an async `main` of swift-argument-parser's.
/// The program (`Sources/netactivity`) is only this; the command is a library so that a fuzz target can read
/// command lines with it (docs/reliability.md).
public enum EntryPoint {
    public static func main() -> Never {
        if let action = PlainInvocation.action(for: CommandLine.arguments.dropFirst()) {
            exit(action.exitStatus())
        }
        Task { @MainActor in
            await NetActivityCommand.main(nil)
            exit(0)
        }
        dispatchMain()
    }
}
