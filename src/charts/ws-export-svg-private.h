/* ws-export-svg-private.h: text in exported SVG as <text> elements: while an SVG
 * is drawn, the charts record each line of text here (ws-export-svg.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-text-private.h"

G_BEGIN_DECLS

WsTextSink *_ws_text_sink_new (void);
void _ws_text_sink_free (WsTextSink *sink);
void _ws_text_sink_attach (WsTextSink *sink, cairo_surface_t *surface);
/* One line of text whose baseline starts (ax 0), is centred (0.5) or ends (1) at (x, y) in
 * the user space of cr. */
void _ws_text_sink_record (WsTextSink *sink, cairo_t *cr, const char *text, gssize length,
                           double x, double y, double ax, const PangoFontDescription *font,
                           const WsColor *color);
/* Appends the recorded text as SVG <text> elements. */
void _ws_text_sink_write (WsTextSink *sink, GString *svg);
WsTextSink *_ws_text_sink_from_surface (cairo_surface_t *surface);

G_END_DECLS
