// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Dispatch
import Localization

/// The plain forms of `begin`, `end`, `run` and `watch` skip swift-argument-parser (`PlainInvocation`) and Dispatch's
/// worker threads (`ActivityAction.exitStatus()`); everything else is an async `main` of swift-argument-parser's.
/// The program (`Sources/netactivity`) is only this; the command is a library so that a fuzz target can read
/// command lines with it (docs/reliability.md).
public enum EntryPoint {
    public static func main() -> Never {
        // Tables, messages and notifications in the person's language; what is printed for programs leaves it.
        Language.followThePerson()
        if let status = runPlainForm() { exit(status) }
        Task { @MainActor in
            await NetActivityCommand.main(nil)
            exit(0)
        }
        dispatchMain()
    }

    /// The exit status of a plain form, nil for any other command line. Apart from `main`, so that what the action
    /// made is freed before the program exits, as LeakSanitizer checks (docs/testing.md, "Sanitizers").
    private static func runPlainForm() -> Int32? {
        PlainInvocation.action(for: CommandLine.arguments.dropFirst())?.exitStatus()
    }
}
