// SPDX-License-Identifier: Apache-2.0
/// What `netactivity shell-init SHELL` prints: a hook for the interactive shell that shows the network commands a
/// person runs as activities while they run.
///
/// Before each simple command of a command line (bash's DEBUG trap; zsh's `preexec` and fish's `fish_preexec`,
/// which get the whole line and split it at `;`, `&&`, `||` and `|`), the hook compares the command with the list
/// in `NETACTIVITY_SHELL_COMMANDS`, in the shell's own code: a command that is not on it starts no process and makes
/// no bus call. The first one that is on it begins a timed activity labelled with the command
/// (`netactivity begin --timeout 3600`); when the prompt returns, the activity ends in the background (`netactivity
/// end`), so the prompt waits for nothing. The command's exit status is the shell's as ever, and when the service
/// is missing, `begin` fails in silence.
///
/// A list entry is a command (`curl`) or a command and its first argument that is not an option (`git pull`);
/// `sudo`, `doas`, `env`, `nice`, `nohup`, `time`, `command` and assignments (`LANG=C`) before the command are
/// looked through. The timeout ends an activity whose shell was killed before its prompt came back.
enum ShellHook: String, CaseIterable {
    case bash, zsh, fish

    /// The network commands shown by default, `:` between entries.
    static let defaultCommands = [
        "git clone", "git fetch", "git pull", "git push", "curl", "wget", "rsync", "scp", "sftp",
        "apt update", "apt upgrade", "apt full-upgrade", "apt install", "apt-get update", "apt-get upgrade",
        "apt-get dist-upgrade", "apt-get install", "pip install", "pip3 install", "npm install", "npm ci",
        "cargo build", "cargo fetch", "cargo install", "flatpak update", "flatpak install",
    ].joined(separator: ":")

    /// How long an activity lasts when its shell never comes back to the prompt, in seconds.
    static let timeout = 3600
    /// Labels are the command line's first characters.
    static let labelLength = 80

    var script: String {
        switch self {
        case .bash: Self.bashScript
        case .zsh: Self.zshScript
        case .fish: Self.fishScript
        }
    }

    private static let header = """
        # netactivity: the network commands you run show as activities while they run (netactivity shell-init).
        # The commands: NETACTIVITY_SHELL_COMMANDS, entries such as `curl` or `git pull` between colons.
        """

    private static let bashScript = """
        \(header)
        : "${NETACTIVITY_SHELL_COMMANDS=\(defaultCommands)}"
        __netactivity_id=
        __netactivity_armed=
        __netactivity_is_network() {
            while [ $# -gt 0 ]; do
                case $1 in
                    sudo|doas|env|nice|nohup|time|command|-*|[A-Za-z_]*=*) shift ;;
                    *) break ;;
                esac
            done
            [ $# -gt 0 ] || return 1
            local name=${1##*/} subcommand= word
            shift
            for word; do
                case $word in -*) ;; *) subcommand=$word; break ;; esac
            done
            case ":$NETACTIVITY_SHELL_COMMANDS:" in
                *":$name:"* | *":$name $subcommand:"*) return 0 ;;
            esac
            return 1
        }
        __netactivity_preexec() {
            [ -n "$__netactivity_armed" ] || return 0
            local - words
            set -f
            words=($BASH_COMMAND)
            __netactivity_is_network "${words[@]}" || return 0
            __netactivity_armed=
            local label=${BASH_COMMAND//[[:cntrl:]]/ }
            __netactivity_id=$(command netactivity begin --label "${label:0:\(labelLength)}" --timeout \(timeout) 2>/dev/null)
        }
        __netactivity_precmd() {
            local status=$?
            if [ -n "$__netactivity_id" ]; then
                (command netactivity end "$__netactivity_id" >/dev/null 2>&1 &)
                __netactivity_id=
            fi
            __netactivity_armed=1
            return $status
        }
        # The prompt's own commands are not the user's: unarmed from the first of them to the last.
        __netactivity_disarm() {
            local status=$?
            __netactivity_armed=
            return $status
        }
        __netactivity_return() { return "$1"; }
        if [[ $PROMPT_COMMAND != *__netactivity_precmd* ]]; then
            # An earlier DEBUG trap (bash-preexec's, starship's) runs after this one, with the command's $?.
            eval "__netactivity_previous_trap=($(trap -p DEBUG))"
            __netactivity_previous_trap=${__netactivity_previous_trap[2]}
            trap '__netactivity_status=$?; __netactivity_preexec; __netactivity_return $__netactivity_status; eval "$__netactivity_previous_trap"' DEBUG
            PROMPT_COMMAND="__netactivity_disarm${PROMPT_COMMAND:+
        $PROMPT_COMMAND}
        __netactivity_precmd"
        fi
        """

    private static let zshScript = """
        \(header)
        : ${NETACTIVITY_SHELL_COMMANDS=\(defaultCommands)}
        typeset -g __netactivity_id=
        __netactivity_is_network() {
            while (( $# )) && [[ $1 == (sudo|doas|env|nice|nohup|time|command|noglob|-*|[A-Za-z_]*=*) ]]; do shift; done
            (( $# )) || return 1
            local name=${1:t} subcommand= word
            shift
            for word in "$@"; do
                [[ $word == -* ]] || { subcommand=$word; break }
            done
            local -a entries=("${(@s.:.)NETACTIVITY_SHELL_COMMANDS}")
            (( ${entries[(Ie)$name]} || ${entries[(Ie)$name $subcommand]} ))
        }
        __netactivity_preexec() {
            local -a words=("${(z)1}") simple=()
            local word
            for word in "${words[@]}" ';'; do
                if [[ $word == (';'|'&&'|'||'|'|'|'|&'|'&'|'&!'|'&|'|'('|')'|'{'|'}') ]]; then
                    if (( $#simple )) && __netactivity_is_network "${(Q)simple[@]}"; then
                        local label=${${(j: :)simple}//[[:cntrl:]]/ }
                        __netactivity_id=$(command netactivity begin --label "${label[1,\(labelLength)]}" --timeout \(timeout) 2>/dev/null)
                        return 0
                    fi
                    simple=()
                else
                    simple+=("$word")
                fi
            done
        }
        __netactivity_precmd() {
            [[ -n $__netactivity_id ]] || return 0
            command netactivity end "$__netactivity_id" >/dev/null 2>&1 &!
            __netactivity_id=
        }
        autoload -Uz add-zsh-hook
        add-zsh-hook preexec __netactivity_preexec
        add-zsh-hook precmd __netactivity_precmd
        """

    private static let fishScript = """
        \(header)
        set -q NETACTIVITY_SHELL_COMMANDS; or set -g NETACTIVITY_SHELL_COMMANDS '\(defaultCommands)'
        function __netactivity_is_network
            set -l words $argv
            while set -q words[1]; and string match -qr -- '^(sudo|doas|env|nice|nohup|time|command|builtin|and|or|not|begin|-.*|[A-Za-z_]\\\\w*=.*)$' $words[1]
                set -e words[1]
            end
            set -q words[1]; or return 1
            set -l name (string replace -r -- '.*/' '' $words[1])
            set -l subcommand
            for word in $words[2..-1]
                if not string match -q -- '-*' $word
                    set subcommand $word
                    break
                end
            end
            set -l entries (string split -- : $NETACTIVITY_SHELL_COMMANDS)
            contains -- $name $entries; or contains -- "$name $subcommand" $entries
        end
        function __netactivity_preexec --on-event fish_preexec
            # Most lines name no listed command: a look at their words settles that before any parsing.
            set -l names (string replace -r -- ' .*' '' (string split -- : $NETACTIVITY_SHELL_COMMANDS))
            set -l named 0
            for word in (string replace -r -- '.*/' '' (string split -n -- ' ' $argv[1]))
                if contains -- $word $names
                    set named 1
                    break
                end
            end
            test $named = 1; or return 0
            for simple in (string split -n -- ';' (string replace -ra -- '&&|\\\\|\\\\||\\\\||&' ';' $argv[1]))
                set -l words (string split -n -- ' ' (string trim -- $simple))
                if __netactivity_is_network $words
                    set -l label (string replace -ra -- '[[:cntrl:]]' ' ' (string join -- ' ' $words))
                    set -g __netactivity_id (command netactivity begin --label (string sub -l \(labelLength) -- $label) --timeout \(timeout) 2>/dev/null)
                    return 0
                end
            end
        end
        function __netactivity_postexec --on-event fish_postexec
            set -q __netactivity_id[1]; or return 0
            # Through sh, so that fish keeps no job to report when it ends.
            command sh -c 'netactivity end "$1" >/dev/null 2>&1 &' sh $__netactivity_id
            set -e __netactivity_id
        end
        """
}
