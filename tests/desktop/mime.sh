#!/bin/sh
# mime.sh MIME_XML DESKTOP_FILE SAMPLES_DIR: a double-clicked session opens in Warpscope. In a
# temporary XDG tree, as a desktop installs them: the MIME definition (update-mime-database)
# and the desktop file (update-desktop-database); then xdg-mime, as a file manager asks it,
# says a session file is application/x-warpscope-session (by its first record, with or
# without .jsonl), that another .jsonl file is not, and that Warpscope is the application
# for that type.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
MIME_XML=$1 DESKTOP=$2 SAMPLES=$3
TYPE=application/x-warpscope-session

for tool in xdg-mime update-mime-database update-desktop-database gio; do
  command -v "$tool" >/dev/null 2>&1 || { echo "skip: $tool is not installed (./dev installs it)"; exit 77; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_DATA_DIRS="$tmp/system:/usr/share"
export XDG_CONFIG_HOME="$tmp/config" XDG_CONFIG_DIRS="$tmp/config-system"
# xdg-mime asks GIO (as GNOME's Files does) for a file's type only on a known desktop.
export XDG_CURRENT_DESKTOP=GNOME
unset DESKTOP_SESSION KDE_FULL_SESSION || true
mkdir -p "$XDG_DATA_HOME/mime/packages" "$XDG_DATA_HOME/applications" "$XDG_CONFIG_HOME"
cp "$MIME_XML" "$XDG_DATA_HOME/mime/packages/"
update-mime-database "$XDG_DATA_HOME/mime"
cp "$DESKTOP" "$XDG_DATA_HOME/applications/"
update-desktop-database "$XDG_DATA_HOME/applications"

status=0
expect() { # what, got, wanted
  if [ "$2" = "$3" ]; then
    echo "ok: $1: $2"
  else
    echo "not ok: $1: got “$2”, wanted “$3”"
    status=1
  fi
}

cp "$SAMPLES/vector-add-sizes-h200.jsonl" "$tmp/session.jsonl"
cp "$SAMPLES/trace-vector-add-h200.jsonl" "$tmp/trace.jsonl"
# Downloaded or renamed without its extension: known by its hello record.
cp "$SAMPLES/matmul-sizes-h200.jsonl" "$tmp/session-without-extension"
printf 'not a session\n' >"$tmp/notes"
# JSON Lines of another program: .jsonl alone does not make a file Warpscope's.
printf '{"a":1}\n{"a":2}\n' >"$tmp/other.jsonl"

expect "a recorded sweep" "$(xdg-mime query filetype "$tmp/session.jsonl")" "$TYPE"
expect "a traced program" "$(xdg-mime query filetype "$tmp/trace.jsonl")" "$TYPE"
expect "a session without .jsonl" "$(xdg-mime query filetype "$tmp/session-without-extension")" "$TYPE"
got=$(xdg-mime query filetype "$tmp/notes")
if [ "$got" = "$TYPE" ]; then
  echo "not ok: a text file that is no session is called $TYPE"
  status=1
else
  echo "ok: a text file that is no session: $got"
fi
expect "a .jsonl file that is no session" "$(xdg-mime query filetype "$tmp/other.jsonl")" \
  application/jsonl
expect "the application for $TYPE" "$(xdg-mime query default "$TYPE")" "$(basename "$DESKTOP")"
exit $status
