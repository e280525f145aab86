#!/bin/sh
# completion.sh CLI BASH_COMPLETION ZSH_COMPLETION: warpscope-cli's completions are true to
# it. Bash's, sourced and asked as bash asks it (COMP_WORDS, COMP_CWORD): the commands
# `warpscope-cli --help` lists, each command's long options exactly as its --help lists them,
# the values of --chart, --format and --severity, and sessions where a session is asked for.
# Zsh's: it parses, each command's block names the options of that command's --help, and at a
# prompt (zpty) it completes --chart with the charts.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
CLI=$1 BASH_FILE=$2 ZSH_FILE=$3
export LC_ALL=C.UTF-8 LANGUAGE=C

command -v bash >/dev/null 2>&1 || { echo "skip: no bash"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

long_options() { # the long options of a --help text
  grep -oE '^  (-[a-zA-Z], )?--[a-z][a-z0-9-]*' | sed 's/.*--/--/' | sort -u
}
same() { # what, got-file, wanted-file
  if cmp -s "$2" "$3"; then
    echo "ok: $1"
  else
    echo "not ok: $1:"; diff "$3" "$2" | sed 's/^/  /'; status=1
  fi
}

cat >"$tmp/ask.bash" <<'ASK'
. "$BASH_FILE"
# ask WORD…: what completing the last word offers, one a line, sorted.
ask() {
  COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
  _warpscope_cli warpscope-cli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u
}
ASK
ask() { BASH_FILE=$BASH_FILE bash -c ". '$tmp/ask.bash'; cd '$tmp/files'; ask \"\$@\"" ask "$@"; }
mkdir -p "$tmp/files/sub"
touch "$tmp/files/a.jsonl" "$tmp/files/notes.txt" "$tmp/files/k.cu"

commands=$("$CLI" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
{ echo "$commands"; echo help; echo --help; echo --version; } | sed '/^$/d' | sort -u >"$tmp/want"
ask warpscope-cli "" >"$tmp/got"
same "the commands" "$tmp/got" "$tmp/want"
echo export >"$tmp/want"
ask warpscope-cli ex >"$tmp/got"
same "ex completes to export" "$tmp/got" "$tmp/want"

for c in $commands; do
  [ "$c" = targets ] && continue # its options are add's (below)
  "$CLI" $c --help | long_options >"$tmp/want"
  ask warpscope-cli $c -- >"$tmp/got"
  same "the options of $c" "$tmp/got" "$tmp/want"
done
"$CLI" targets add --help | long_options >"$tmp/want"
ask warpscope-cli targets add NAME -- >"$tmp/got"
same "the options of targets add" "$tmp/got" "$tmp/want"

"$CLI" export --help | sed -n 's/^Charts: \([^.]*\)\..*/\1/p' | tr -d ' ' | tr ',' '\n' | sort >"$tmp/want"
ask warpscope-cli export a.jsonl --chart "" >"$tmp/got"
same "the charts of export --chart" "$tmp/got" "$tmp/want"
printf '%s\n' csv pdf png svg trace >"$tmp/want"
ask warpscope-cli export a.jsonl --format "" >"$tmp/got"
same "the formats of export --format" "$tmp/got" "$tmp/want"
printf '%s\n' csv json markdown table >"$tmp/want"
ask warpscope-cli report a.jsonl -f "" >"$tmp/got"
same "the formats of report -f" "$tmp/got" "$tmp/want"
printf '%s\n' high info low medium >"$tmp/want"
ask warpscope-cli report a.jsonl --severity "" >"$tmp/got"
same "the levels of --severity" "$tmp/got" "$tmp/want"
printf '%s\n' a.jsonl sub >"$tmp/want"
ask warpscope-cli report "" >"$tmp/got"
same "report offers sessions and folders" "$tmp/got" "$tmp/want"
printf '%s\n' k.cu sub >"$tmp/want"
ask warpscope-cli check "" >"$tmp/got"
same "check offers kernel sources and folders" "$tmp/got" "$tmp/want"

if command -v zsh >/dev/null 2>&1; then
  if zsh -n "$ZSH_FILE"; then echo "ok: the zsh completion parses"; else echo "not ok: zsh -n"; status=1; fi
  # The options a command's block in _warpscope-cli names, with the shared runner options
  # where it uses them.
  zsh_options() {
    shared=$(sed -n '/^local -a runner_opts=(/,/^)/p' "$ZSH_FILE")
    block=$(awk -v c="$1" -v add="$2" '
      $0 ~ "^    " c "\\)$" { on = 1; next }
      on && /^    [a-z]+\)$/ { exit }
      on && add == "" && /if \[\[ \$words\[2\] == add \]\]/ { skip = 1 }
      on && add == "" && skip && /else/ { skip = 0; next }
      on && add != "" && /else/ { exit }
      on && !skip { print }' "$ZSH_FILE")
    { echo "$block"; echo "$block" | grep -q runner_opts && echo "$shared"; echo "--help"; } |
      grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
  }
  for c in $commands; do
    [ "$c" = targets ] && continue
    "$CLI" $c --help | long_options >"$tmp/want"
    zsh_options "$c" "" >"$tmp/got"
    same "zsh: the options of $c" "$tmp/got" "$tmp/want"
  done
  "$CLI" targets add --help | long_options >"$tmp/want"
  zsh_options targets add >"$tmp/got"
  same "zsh: the options of targets add" "$tmp/got" "$tmp/want"
  # And as zsh completes at a prompt (zpty): the charts after --chart.
  mkdir -p "$tmp/zsh"
  cp "$ZSH_FILE" "$tmp/zsh/_warpscope-cli"
  cat >"$tmp/zpty.zsh" <<'ZPTY'
zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z "fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -d $1/dump; warpscope-cli() {}"
zpty -w -n z $'warpscope-cli export x.jsonl --chart \t'
integer i
all=
for ((i = 0; i < 150; i++)); do
  zpty -r -t z chunk && all+=$chunk
  [[ $all == *params*timeline* ]] && break
  sleep 0.1
done
zpty -d z
print -r -- "$all"
ZPTY
  listed=$(timeout 30 zsh -f "$tmp/zpty.zsh" "$tmp/zsh" 2>&1 | tr -d '\r' || true)
  missing=""
  for chart in timeline speedup blocks occupancy breakdown roofline params; do
    case $listed in *"$chart"*) ;; *) missing="$missing $chart" ;; esac
  done
  if [ -z "$missing" ]; then
    echo "ok: zsh completes --chart with the seven charts"
  else
    echo "not ok: zsh's completion of --chart lacks:$missing"; status=1
  fi
else
  echo "skip: zsh is not installed (./dev installs it): its completion is not checked"
fi
exit $status
