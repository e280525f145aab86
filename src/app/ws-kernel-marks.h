/* ws-kernel-marks.h: what is wrong with an own kernel, marked on its lines in the Source
 * view's gutter: the header's errors as it is typed, the runner's compile errors (file, line
 * and column of its error records) and the memory check's findings (memcheck records), each
 * with an icon of its category and its message as the tooltip.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtksourceview/gtksource.h>

#include "ws-kernel-source.h"
#include "ws-session.h"

G_BEGIN_DECLS

#define WS_MARK_ERROR "ws-error"       /* the header's and the compiler's errors */
#define WS_MARK_WARNING "ws-warning"   /* the compiler's warnings */
#define WS_MARK_MEMCHECK "ws-memcheck" /* compute-sanitizer's findings */

/* The categories' icons and tooltips, on `view`. */
void ws_kernel_marks_setup (GtkSourceView *view);
/* Replaces the marks of `buffer` with those of `source` (may be NULL) and of `session` (may
 * be NULL: its errors with a line, its memory-check findings). */
void ws_kernel_marks_update (GtkSourceBuffer *buffer, WsKernelSource *source,
                             WsSession *session);
/* The first marked place of `buffer` into `iter`; FALSE when nothing is marked. */
gboolean ws_kernel_marks_first (GtkSourceBuffer *buffer, GtkTextIter *iter);
/* Brings the first marked line of `view`'s buffer into sight, wherever in the file: now, and
 * again in each of the next two seconds of frames and each time the view's size or length
 * changes in them, wherever it has gone out of sight (GTK forgets a scroll asked of a view
 * with no height yet, and a window still being laid out moves the line again). */
void ws_kernel_marks_scroll_to_first (GtkSourceView *view);
/* The messages of the marks on the line under (x, y) of `view`'s widget coordinates, one a
 * line, or NULL: the line's tooltip. */
char *ws_kernel_marks_dup_tooltip_at (GtkSourceView *view, int x, int y);
/* The message of the first mark of `category` on `line` (1-based), or NULL: for the tests. */
const char *ws_kernel_marks_get (GtkSourceBuffer *buffer, guint line, const char *category);

G_END_DECLS
