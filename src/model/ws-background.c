/* ws-background.c: tasks in threads of their own at a lower priority.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* gettid */
#include "ws-config.h"

#include "ws-background.h"

#ifdef __linux__
#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

typedef struct
{
  GTask *task;
  GTaskThreadFunc func;
} Work;

static gpointer
background_thread (gpointer data)
{
  Work *work = data;

#ifdef __linux__
  /* On Linux a thread has a nice value of its own, at first its creator's; raising it needs
   * no privilege, but lowering it again does: a thread of GLib's shared pool could not be
   * given its priority back, so the work has a thread of its own. Failing is harmless: the
   * work runs at its creator's priority. */
  int nice;

  errno = 0;
  nice = getpriority (PRIO_PROCESS, (id_t) gettid ());
  if (errno == 0)
    (void) setpriority (PRIO_PROCESS, (id_t) gettid (), MIN (19, nice + 10));
#endif
  work->func (work->task, g_task_get_source_object (work->task), g_task_get_task_data (work->task),
              g_task_get_cancellable (work->task));
  g_object_unref (work->task);
  g_free (work);
  return NULL;
}

void
ws_task_run_in_background (GTask *task, GTaskThreadFunc func)
{
  Work *work;

  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (func != NULL);
  work = g_new (Work, 1);
  work->task = g_object_ref (task);
  work->func = func;
  g_thread_unref (g_thread_new ("ws-background", background_thread, work));
}
