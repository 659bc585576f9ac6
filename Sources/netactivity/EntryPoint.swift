#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Dispatch

/// The plain forms of `begin`, `end`, `run` and `watch` skip swift-argument-parser (`PlainInvocation`) and Dispatch's
/// worker threads (`ActivityAction.exitStatus()`); everything else is an async `main` of swift-argument-parser's.
@main
enum EntryPoint {
    static func main() {
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
