// SPDX-License-Identifier: Apache-2.0
import ArgumentParser

struct ShellInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell-init",
        abstract: "Print a hook for your shell's rc file that shows the network commands you run as activities.",
        discussion: """
            bash: eval "$(netactivity shell-init bash)" in ~/.bashrc. zsh: eval "$(netactivity shell-init zsh)" \
            in ~/.zshrc. fish: netactivity shell-init fish | source in ~/.config/fish/config.fish. \
            While a command on the list runs, it shows as an activity labelled with the command line. The list \
            is NETACTIVITY_SHELL_COMMANDS, entries such as curl or "git pull" (a command and its first argument \
            that is not an option) between colons; set it before the hook to replace the default list, or after \
            it to extend it ("${NETACTIVITY_SHELL_COMMANDS}:docker pull"). A command that is not on the list starts \
            no process and makes no bus call; when the service is missing the hook is silent, and it never changes \
            a command's exit status. An activity whose shell is killed before its command ends lasts an hour.
            """)

    @Argument(help: "The shell: bash, zsh or fish.")
    var shell: ShellHook

    func run() {
        print(shell.script)
    }
}

extension ShellHook: ExpressibleByArgument {}
