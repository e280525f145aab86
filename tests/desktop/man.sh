#!/bin/sh
# man.sh MANDIR CLI APP RUNNER: the manual pages read cleanly (man --warnings says nothing)
# and are true to the programs: every option a program's --help lists is in its page, and
# the page lists none the program lacks. APP or RUNNER is "-" when it was not built (its page
# is then checked for warnings only).
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
MANDIR=$1 CLI=$2 APP=$3 RUNNER=$4
export LC_ALL=C.UTF-8 LANGUAGE=C MANWIDTH=80

command -v man >/dev/null 2>&1 || { echo "skip: man is not installed (./dev installs man-db)"; exit 77; }

status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The long options a text names: "--chart", "--help-all", "--cpu-budget".
options() {
  grep -oE '(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*' | sed 's/^[^-]*--/--/' | sort -u
}

# Options of a page, from its source: \- is a dash there, \fB… a font.
page_options() {
  sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$1" | options
}

check_page() { # NAME HELP-TEXT-FILE (empty: warnings only)
  page="$MANDIR/$1.1"
  warnings=$(man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null) || {
    echo "not ok: man cannot format $page"; status=1; return; }
  if [ -n "$warnings" ]; then
    echo "not ok: man --warnings on $page:"; echo "$warnings"; status=1
  else
    echo "ok: $1.1 formats without warnings"
  fi
  [ -n "$2" ] || return 0
  options <"$2" >"$tmp/help"
  page_options "$page" >"$tmp/page"
  missing=$(comm -23 "$tmp/help" "$tmp/page" | tr '\n' ' ')
  extra=$(comm -13 "$tmp/help" "$tmp/page" | tr '\n' ' ')
  if [ -n "$missing" ]; then
    echo "not ok: $1.1 lacks what --help lists: $missing"; status=1
  fi
  if [ -n "$extra" ]; then
    echo "not ok: $1.1 lists what --help does not: $extra"; status=1
  fi
  [ -z "$missing$extra" ] && echo "ok: $1.1 lists the $(wc -l <"$tmp/help") options of --help"
  return 0
}

# warpscope-cli: its own help and every command's.
"$CLI" --help >"$tmp/cli"
for c in $(sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$tmp/cli"); do
  "$CLI" "$c" --help >>"$tmp/cli"
done
"$CLI" targets add --help >>"$tmp/cli"
check_page warpscope-cli "$tmp/cli"

if [ "$APP" != - ]; then
  "$APP" --help >"$tmp/app"
  check_page warpscope "$tmp/app"
else
  check_page warpscope ""
fi

if [ "$RUNNER" != - ]; then
  { "$RUNNER" --help; "$RUNNER" --trace --help; } >"$tmp/runner" 2>&1 || true
  check_page warpscope-runner "$tmp/runner"
else
  check_page warpscope-runner ""
fi
exit $status
