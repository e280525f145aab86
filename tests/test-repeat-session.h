/* test-repeat-session.h: a big session made from a real recording, its runs repeated with new
 * ids and later times, fed line by line through the session reader (header only: the chart
 * tests, the export tests and ws-chart-bench each build one).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "ws-session.h"

typedef struct
{
  const char *key; /* "\"run\":" */
  gint64 offset;
} WsTestShift;

/* `line` with `offset` added to the integer after each key, wherever the key occurs. */
static inline void
ws_test_shift_line (GString *out, const char *line, const WsTestShift *shifts, guint n_shifts)
{
  const char *p = line;

  g_string_truncate (out, 0);
  for (;;)
    {
      const char *hit = NULL;
      const WsTestShift *shift = NULL;

      for (guint k = 0; k < n_shifts; k++)
        {
          const char *h = strstr (p, shifts[k].key);

          if (h != NULL && (hit == NULL || h < hit))
            hit = h, shift = &shifts[k];
        }
      if (hit == NULL)
        {
          g_string_append (out, p);
          return;
        }
      hit += strlen (shift->key);
      g_string_append_len (out, p, hit - p);
      p = hit;
      if (g_ascii_isdigit (*p) || *p == '-')
        {
          char *end;
          gint64 v = g_ascii_strtoll (p, &end, 10);

          g_string_append_printf (out, "%" G_GINT64_FORMAT, v + shift->offset);
          p = end;
        }
    }
}

static inline gboolean
ws_test_line_is (const char *line, const char *type)
{
  g_autofree char *needle = g_strdup_printf ("\"type\":\"%s\"", type);

  return strstr (line, needle) != NULL;
}

/* The recording at `path`, its runs `copies` times over: copy c has run ids moved up by c
 * times the recording's highest id and activity times by c times its span plus a gap. The
 * hello, device and catalog records come once, progress records not at all, done at the end. */
static inline WsSession *
ws_test_repeat_session (const char *path, guint copies)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) line = g_string_new (NULL);
  gint64 max_id = 0, t0 = G_MAXINT64, t1 = G_MININT64, span;
  const char *done = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    g_error ("cannot read %s", path);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *l = lines[i], *at;

      if (ws_test_line_is (l, "run") && (at = strstr (l, "\"id\":")) != NULL)
        max_id = MAX (max_id, g_ascii_strtoll (at + 5, NULL, 10));
      if (ws_test_line_is (l, "activity"))
        {
          if ((at = strstr (l, "\"start\":")) != NULL)
            t0 = MIN (t0, g_ascii_strtoll (at + 8, NULL, 10));
          if ((at = strstr (l, "\"end\":")) != NULL)
            t1 = MAX (t1, g_ascii_strtoll (at + 6, NULL, 10));
        }
    }
  /* A gap of a tenth of the span between copies, as between the sweeps of a long session. */
  span = t1 > t0 ? (t1 - t0) + (t1 - t0) / 10 : 1000000;
  for (guint c = 0; c < copies; c++)
    {
      const WsTestShift shifts[] = {
        { "\"run\":", c * max_id },   { "\"id\":", c * max_id }, { "\"from_run\":", c * max_id },
        { "\"start\":", c * span }, { "\"end\":", c * span },
      };

      for (guint i = 0; lines[i]; i++)
        {
          const char *l = lines[i];

          if (*l == '\0' || ws_test_line_is (l, "progress"))
            continue;
          if (ws_test_line_is (l, "done"))
            {
              done = l;
              continue;
            }
          if (ws_test_line_is (l, "hello") || ws_test_line_is (l, "device")
              || ws_test_line_is (l, "kernel"))
            {
              if (c == 0)
                ws_session_feed_line (session, l, -1, NULL);
              continue;
            }
          ws_test_shift_line (line, l, shifts, G_N_ELEMENTS (shifts));
          ws_session_feed_line (session, line->str, (gssize) line->len, NULL);
        }
    }
  if (done != NULL)
    ws_session_feed_line (session, done, -1, NULL);
  ws_session_end (session);
  return session;
}
