#!/bin/sh
# readme.sh README DEV CLI: the README's command lines work from a fresh clone as written. A
# line of a ```sh block may not start with a program that only an install puts on PATH
# (warpscope, warpscope-cli, warpscope-runner); each `./dev COMMAND` is one that dev takes, and
# each `./dev cli COMMAND …` names a command that warpscope-cli (CLI, the build's) knows.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
README=$1 DEV=$2 CLI=$3
status=0
fail() { echo "not ok: $*"; status=1; }

lines=$(awk '/^```/ { if (inblock) inblock = 0; else inblock = ($0 == "```sh"); next }
             inblock && !cont { print } { cont = inblock && /\\$/ }' "$README")
[ -n "$lines" ] || fail "no \`\`\`sh block in $README"
dev_commands=$(sed -n 's/^  \([a-z]*\)).*/\1/p' "$DEV")
echo "$lines" | while IFS= read -r line; do
  set -f
  # shellcheck disable=SC2086
  set -- $line
  set +f
  # Environment assignments before the command, as in LANGUAGE=zh_CN … command.
  while [ $# -gt 0 ] && case $1 in *=*) true ;; *) false ;; esac; do shift; done
  [ $# -gt 0 ] || continue
  case $1 in
    warpscope|warpscope-cli|warpscope-runner)
      echo "not ok: '$line' calls $1, which exists only after an install: write ./dev cli or build/…"
      exit 1 ;;
    ./dev)
      echo "$dev_commands" | grep -qx "${2:-run}" || { echo "not ok: '$line': dev has no '${2:-}'"; exit 1; }
      if [ "${2:-}" = cli ]; then
        "$CLI" "$3" --help >/dev/null 2>&1 || { echo "not ok: '$line': warpscope-cli has no '$3'"; exit 1; }
      fi
      echo "ok: $line" ;;
  esac
done || status=1
exit $status
