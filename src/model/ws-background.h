/* ws-background.h: work that must not take the CPU from the main loop (analysing a whole
 * session, building a timeline's lanes) in a thread of its own at a lower priority.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* As g_task_run_in_thread, but in a new thread that asks the kernel for less of the CPU than
 * the rest of the process (on Linux a nice value 10 above the thread that starts it, at most
 * 19; elsewhere the thread keeps its priority): on a machine of two cores, a main loop that
 * competes with such work on equal terms misses its frames. The task is completed in its own
 * context, as with g_task_run_in_thread. */
void ws_task_run_in_background (GTask *task, GTaskThreadFunc func);

G_END_DECLS
