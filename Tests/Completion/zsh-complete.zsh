# Completes a command line in a real interactive zsh, as a person would with Tab, and prints the screen's text.
# Usage: zsh -f zsh-complete.zsh FOLDER LINE
#   FOLDER  put first on zsh's fpath, where _netactivity is installed
#   LINE    what to type before the Tab
# zsh completes only in its line editor, which needs a terminal: zpty gives it one. The screen is printed once zsh
# has listed the candidates and drawn the line again, or after 10 seconds, with each of its cursor movements as a
# line break.
zmodload zsh/zpty
setopt extendedglob
local folder=$1 line=$2 screen chunk
# zsh draws the line again without its trailing blanks.
local typed=${line%%[[:space:]]##}
zpty shell zsh -f -i
zpty -w shell "PROMPT='> '; fpath=($folder \$fpath); autoload -U compinit; compinit -u -D; print RE''ADY"

# Waits until $screen matches $1, reading what the shell prints, for at most 10 seconds.
await() {
  local deadline=$((SECONDS + 10))
  until [[ $screen == $~1 ]] || (( SECONDS >= deadline )); do
    if zpty -r -t shell chunk; then screen+=$chunk; else sleep 0.05; fi
  done
}
# The prompt after READY: zle is reading. Typed before that, the line would be echoed by the terminal too, and
# matched below before zsh has completed it.
await "*READY*> *"
screen=
zpty -w -n shell "$line"$'\t'
await "*$typed*$typed*"
zpty -d shell
print -r -- "${screen//$'\r'/}" | sed 's/\x1b\[[0-9;?]*[A-Za-z]/\n/g'
