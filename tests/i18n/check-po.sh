#!/bin/sh
# check-po.sh SRCROOT OUTDIR [XGETTEXT_ARG…]: every translation in po/ is complete and valid.
#   - msgfmt --check on each po/<lang>.po (formats, placeholders, header);
#   - every file that marks strings is listed in po/POTFILES.in;
#   - the strings extracted now (as `meson compile warpscope-pot` would) are all translated in
#     each po/<lang>.po, none fuzzy: a newly marked string without a translation fails here,
#     with its msgid named.
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
SRC=$1 OUT=$2
shift 2
mkdir -p "$OUT"
status=0
fail() { echo "not ok: $*"; status=1; }

cd "$SRC"

# Files with marked strings that po/POTFILES.in does not list.
listed=$(grep -v '^#' po/POTFILES.in | sed '/^$/d')
for f in $(grep -lE '(^|[^A-Za-z0-9_])(N?_|C_|NC_|ngettext|g_dngettext|WS_N_) ?\(' \
             src/app/*.c src/charts/*.c src/cli/*.c src/model/*.c kernels/*.cu 2>/dev/null) \
         $(grep -l 'translatable="yes"' ui/*.ui 2>/dev/null); do
  echo "$listed" | grep -qx "$f" || fail "$f marks strings but is not listed in po/POTFILES.in"
done

pot="$OUT/warpscope.pot"
xgettext --package-name=warpscope -f po/POTFILES.in -D "$SRC" -k_ -o "$pot" "$@"

for lang in $(grep -v '^#' po/LINGUAS); do
  po="po/$lang.po"
  if ! msgfmt --check --check-format -o /dev/null "$po" 2>"$OUT/$lang.msgfmt"; then
    cat "$OUT/$lang.msgfmt"
    fail "msgfmt --check $po"
    continue
  fi
  msgmerge --quiet --no-fuzzy-matching --no-wrap -o "$OUT/$lang.merged.po" "$po" "$pot"
  missing=$(msgattrib --untranslated --no-obsolete --no-wrap "$OUT/$lang.merged.po" | grep '^msgid ' | grep -vx 'msgid ""' || true)
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete --no-wrap "$po" | grep '^msgid ' | grep -vx 'msgid ""' || true)
  # A msgid written over several lines starts with msgid "": name it by its first line.
  missing_long=$(msgattrib --untranslated --no-obsolete --no-wrap "$OUT/$lang.merged.po" | grep -A1 -x 'msgid ""' | grep -v '^msgid\|^msgstr\|^--' | grep -v '"Project-Id-Version' || true)
  if [ -n "$missing$missing_long" ]; then
    echo "$missing"; echo "$missing_long"
    fail "$po: the strings above have no translation (meson compile -C build warpscope-pot warpscope-update-po, then translate them)"
  fi
  if [ -n "$fuzzy" ]; then
    echo "$fuzzy"
    fail "$po: the strings above are marked fuzzy: check their translation and remove the mark"
  fi
  [ $status = 0 ] && echo "ok: $po translates all $(grep -c '^msgid ' "$pot") strings of the template"
done
exit $status
