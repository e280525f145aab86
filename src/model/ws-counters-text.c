/* ws-counters-text.c: a run's counters beside its theory, in words: what the report's
 * "Measured on the GPU" section and the app say of a run whose counters were read.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-counters-text.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-units.h"

static void
add (GString *s, const char *sentence)
{
  if (s->len > 0)
    g_string_append_c (s, ' ');
  g_string_append (s, sentence);
}

char *
ws_run_dup_measured_text (WsRun *run)
{
  const WsCounters *c = ws_run_get_counters (run);
  const WsLaunch *l = ws_run_get_launch (run);
  const WsRunConfig *cfg = ws_run_get_config (run);
  g_autoptr (GString) s = g_string_new (NULL);
  double achieved, read, written, add_n, mul_n, fma_n, threads;

  if (c == NULL)
    return NULL;
  achieved = ws_counters_get (c, "achieved_occupancy");
  read = ws_counters_get (c, "dram_bytes_read");
  written = ws_counters_get (c, "dram_bytes_write");
  add_n = ws_counters_get (c, "fp32_add");
  mul_n = ws_counters_get (c, "fp32_mul");
  fma_n = ws_counters_get (c, "fp32_fma");
  threads = ws_counters_get (c, "threads_per_instruction");
  if (isfinite (achieved))
    {
      g_autofree char *a = ws_units_percent (achieved / 100);
      g_autofree char *t = l != NULL ? ws_units_percent (l->occupancy) : NULL;
      g_autofree char *line
        = t != NULL ? g_strdup_printf (_("Achieved occupancy %s, of the theoretical %s."), a, t)
                    : g_strdup_printf (_("Achieved occupancy %s."), a);

      add (s, line);
    }
  if (isfinite (read) && isfinite (written))
    {
      g_autofree char *r = ws_units_bytes (read), *w = ws_units_bytes (written);
      g_autofree char *f = cfg->bytes > 0 ? ws_units_bytes (cfg->bytes) : NULL;
      g_autofree char *line
        = f != NULL ? g_strdup_printf (_("DRAM: %s read and %s written, against %s by the "
                                         "formula."),
                                       r, w, f)
                    : g_strdup_printf (_("DRAM: %s read and %s written."), r, w);

      add (s, line);
    }
  if (isfinite (add_n) && isfinite (mul_n) && isfinite (fma_n))
    {
      g_autofree char *e = ws_units_count (add_n + mul_n + 2 * fma_n);
      g_autofree char *f = cfg->flops > 0 ? ws_units_count (cfg->flops) : NULL;
      g_autofree char *line
        = f != NULL ? g_strdup_printf (_("FP32 FLOP executed: %s, against %s by the formula."),
                                       e, f)
                    : g_strdup_printf (_("FP32 FLOP executed: %s."), e);

      add (s, line);
    }
  if (isfinite (threads))
    {
      g_autofree char *p = ws_units_percent (threads / 32);
      g_autofree char *line
        = g_strdup_printf (_("%.1f threads of 32 active per warp instruction (SIMT efficiency "
                             "%s)."),
                           threads, p);

      add (s, line);
    }
  {
    g_autofree char *cost = ws_units_duration (c->cost_ns);
    g_autofree char *line
      = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "Read on %s in %d pass of the kernel (%s).",
                                      "Read on %s in %d passes of the kernel (%s).", c->passes),
                         c->chip ? c->chip : "?", c->passes, cost);

    add (s, line);
  }
  return g_string_free (g_steal_pointer (&s), FALSE);
}
