#!/usr/bin/env bash
# Pack the Warpscope app built here (Debian 12) with the GTK 4 runtime, an X server and a few
# X tools, so that the app can run under Xvfb on a GPU machine that has no GLib or GTK.
# Usage: tools/gpu-app/bundle.sh BUILD_DIR OUT_DIR   -> OUT_DIR/gui.tar.xz and OUT_DIR/gui-run.sh
# (BUILD_DIR: a build of the app, e.g. build/ of ./dev build; takes a few minutes: xz)
set -eu
for p in patchelf xvfb x11-apps xdotool; do
  dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q "ok installed" || apt-get install -y -q --no-install-recommends $p >/dev/null
done
BUILD=$(cd "$1" && pwd); OUT=$2; mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
T=$(mktemp -d); G=$T/gui; mkdir -p "$G/bin" "$G/lib" "$G/share"
LIBDIR=/usr/lib/x86_64-linux-gnu
cp "$BUILD/src/app/warpscope" "$BUILD/src/cli/warpscope-cli" "$G/bin/"
for b in Xvfb xkbcomp xwd xdotool; do cp "$(command -v $b)" "$G/bin/"; done
mkdir -p "$G/lib/pixbuf"; cp $LIBDIR/gdk-pixbuf-2.0/2.10.0/loaders/libpixbufloader-svg.so "$G/lib/pixbuf/"
# The libraries they need, less the C runtime and the C++ runtime, which the GPU machine has newer.
skip='^(libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64|libstdc\+\+|libgcc_s|libgomp)\.so'
for f in "$G"/bin/* "$G"/lib/pixbuf/*.so; do ldd "$f"; done | awk '/=> \//{print $1, $3}' | sort -u |
  while read -r name path; do
    echo "$name" | grep -Eq "$skip" && continue
    [ -e "$G/lib/$name" ] || cp -L "$path" "$G/lib/$name"
  done
for f in "$G"/bin/*; do patchelf --set-rpath '$ORIGIN/../lib' "$f"; done
for f in "$G"/lib/*.so*; do patchelf --set-rpath '$ORIGIN' "$f" 2>/dev/null || true; done
patchelf --set-rpath '$ORIGIN/..' "$G/lib/pixbuf/libpixbufloader-svg.so"
# Data: settings schemas, icons, fonts, keyboard maps, the pixbuf loader cache (paths fixed at run time).
mkdir -p "$G/share/glib-2.0/schemas"
cp /usr/share/glib-2.0/schemas/org.gnome.desktop.*.xml /usr/share/glib-2.0/schemas/org.gtk.*.xml "$G/share/glib-2.0/schemas/" 2>/dev/null || true
cp "$BUILD"/../resources/*.gschema.xml "$G/share/glib-2.0/schemas/" 2>/dev/null || cp "$(dirname "$BUILD")"/resources/*.gschema.xml "$G/share/glib-2.0/schemas/"
glib-compile-schemas "$G/share/glib-2.0/schemas"
mkdir -p "$G/share/icons/Adwaita" "$G/share/icons/hicolor"
cp -r /usr/share/icons/Adwaita/{index.theme,scalable,scalable-up-to-32,16x16,22x22,24x24,32x32} "$G/share/icons/Adwaita/"
cp /usr/share/icons/hicolor/index.theme "$G/share/icons/hicolor/"
mkdir -p "$G/share/fonts"; cp /usr/share/fonts/truetype/dejavu/DejaVuSans{,-Bold,Mono,Mono-Bold}.ttf "$G/share/fonts/"
cp -r /usr/share/X11/xkb "$G/share/xkb"
# GtkSourceView's language definitions (CUDA) and styles, for the kernel editor
cp -r /usr/share/gtksourceview-5 "$G/share/"
# the MIME database: GTK finds the SVG loader for its icons by content type
mkdir -p "$G/share/mime"; (cd /usr/share/mime && cp XMLnamespaces aliases generic-icons globs globs2 icons magic mime.cache subclasses treemagic types version "$G/share/mime/" 2>/dev/null || true)
printf '"@LIB@/pixbuf/libpixbufloader-svg.so"\n' > "$G/lib/pixbuf/loaders.cache"
grep -A20 'libpixbufloader-svg.so"' $LIBDIR/gdk-pixbuf-2.0/2.10.0/loaders.cache | sed -n '2,/^$/p' >> "$G/lib/pixbuf/loaders.cache"
XZ_OPT="-6 -T2" tar -C "$T" -cJf "$OUT/gui.tar.xz" gui
cat > "$OUT/gui-run.sh" <<'RUN'
#!/usr/bin/env bash
# On the GPU machine: unpack the bundle to /tmp/gui, start Xvfb on :99 (SIZE, default 1600x900),
# and export what the app needs. Source it: `. gui-run.sh [SIZE]`; then run "$GUI/bin/warpscope".
GUI=/tmp/gui; HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -d $GUI ] || tar -C /tmp -xJf "$HERE/gui.tar.xz"
# Xvfb runs xkbcomp from /usr/bin: a wrapper there runs the bundled one (with its libraries)
[ -e /usr/bin/xkbcomp ] || printf '#!/bin/sh\nexec %s/bin/xkbcomp "$@"\n' $GUI > /usr/bin/xkbcomp && chmod +x /usr/bin/xkbcomp
sed -i "s|@LIB@|$GUI/lib|" $GUI/lib/pixbuf/loaders.cache
mkdir -p /tmp/fc; cat > $GUI/fonts.conf <<FC
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>$GUI/share/fonts</dir><cachedir>/tmp/fc</cachedir></fontconfig>
FC
export FONTCONFIG_FILE=$GUI/fonts.conf GDK_PIXBUF_MODULE_FILE=$GUI/lib/pixbuf/loaders.cache
export XDG_DATA_DIRS=$GUI/share GSETTINGS_SCHEMA_DIR=$GUI/share/glib-2.0/schemas GSETTINGS_BACKEND=memory
D=${GUI_DISPLAY:-99}
export GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 DISPLAY=:$D PATH=$GUI/bin:$PATH
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p -m 700 $XDG_RUNTIME_DIR
$GUI/bin/Xvfb :$D -screen 0 ${1:-1600x900}x24 -xkbdir $GUI/share/xkb -nolisten tcp >/tmp/xvfb.log 2>&1 &
XVFB_PID=$!; for i in $(seq 50); do [ -e /tmp/.X11-unix/X$D ] && break; sleep 0.1; done
shot() { $GUI/bin/xwd -root -silent > "$1.xwd"; }   # convert to PNG where ImageMagick is
RUN
chmod +x "$OUT/gui-run.sh"; rm -rf "$T"; ls -la "$OUT"
