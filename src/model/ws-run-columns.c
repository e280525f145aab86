/* ws-run-columns.c: the columns of a run, one list for every table and export of runs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-run-columns.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-analysis.h"
#include "ws-units.h"

void
ws_run_value_clear (WsRunValue *value)
{
  g_clear_pointer (&value->text, g_free);
  value->kind = WS_RUN_VALUE_EMPTY;
  value->number = 0;
}

const char *
ws_run_state_name (WsRunState state)
{
  switch (state)
    {
    case WS_RUN_STATE_RUNNING:
      return "running";
    case WS_RUN_STATE_COMPLETE:
      return "complete";
    case WS_RUN_STATE_FAILED:
      return "failed";
    case WS_RUN_STATE_REFUSED:
      return "refused";
    case WS_RUN_STATE_INCOMPLETE:
    default:
      return "incomplete";
    }
}

/* ---- values ------------------------------------------------------------------------------ */

static void
set_number (WsRunValue *v, double number)
{
  v->kind = WS_RUN_VALUE_NUMBER;
  v->number = number;
}

/* A measurement: 0 and NaN are what was not measured. */
static void
set_measured (WsRunValue *v, double number)
{
  if (isfinite (number) && number != 0)
    set_number (v, number);
}

static void
set_text (WsRunValue *v, const char *text)
{
  if (text == NULL)
    return;
  v->kind = WS_RUN_VALUE_TEXT;
  v->text = g_strdup (text);
}

static void
take_text (WsRunValue *v, char *text)
{
  v->kind = WS_RUN_VALUE_TEXT;
  v->text = text;
}

static char *
triple (const guint64 *v, int rank)
{
  if (rank == 1)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, v[0]);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT,
                          v[0], v[1], v[2]);
}

#define CONFIG(run) ws_run_get_config (run)
#define TIMING(run) ws_run_get_timing (run)

static void
get_run (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_number (v, CONFIG (r)->id);
}

static void
get_gpu (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (CONFIG (r)->device >= 0)
    set_number (v, CONFIG (r)->device);
}

static void
get_kernel (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_text (v, CONFIG (r)->kernel);
}

static void
get_family (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_text (v, CONFIG (r)->family);
}

static void
get_shape (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  take_text (v, triple (CONFIG (r)->shape, CONFIG (r)->shape_rank));
}

static void
get_size (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_measured (v, CONFIG (r)->size);
}

static void
get_block (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  const guint *b = CONFIG (r)->block;
  guint64 block[3] = { b[0], b[1], b[2] };

  take_text (v, triple (block, 3));
}

static void
get_threads (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_number (v, CONFIG (r)->threads_per_block);
}

static void
get_transfer (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_text (v, CONFIG (r)->transfer);
}

static void
get_state (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_text (v, ws_run_state_name (ws_run_get_state (r)));
}

/* The median, min, max or count of a timing's statistics, where there are repetitions. */
#define STATS_GETTER(name, member, field)                                                      \
  static void name (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)                      \
  {                                                                                            \
    const WsTiming *t = TIMING (r);                                                            \
                                                                                               \
    if (t != NULL && t->member.n > 0)                                                          \
      set_measured (v, t->member.field);                                                       \
  }

STATS_GETTER (get_kernel_median, kernel, median)
STATS_GETTER (get_kernel_min, kernel, min)
STATS_GETTER (get_kernel_max, kernel, max)
STATS_GETTER (get_e2e_median, e2e, median)
STATS_GETTER (get_e2e_min, e2e, min)
STATS_GETTER (get_e2e_max, e2e, max)
STATS_GETTER (get_h2d_median, h2d, median)
STATS_GETTER (get_d2h_median, d2h, median)

static void
get_kernel_n (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  const WsTiming *t = TIMING (r);

  if (t != NULL && t->kernel.n > 0)
    set_number (v, t->kernel.n);
}

static void
get_kernel_untraced (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    set_measured (v, TIMING (r)->kernel_untraced_ns);
}

static void
baseline_median (const WsCpuBaseline *b, WsRunValue *v)
{
  if (b->present && !b->skipped && b->stats.n > 0)
    set_measured (v, b->stats.median);
}

static void
get_cpu_1 (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    baseline_median (&TIMING (r)->cpu_one, v);
}

static void
get_cpu_all (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    baseline_median (&TIMING (r)->cpu_all, v);
}

static void
get_cpu_all_threads (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  const WsTiming *t = TIMING (r);

  if (t != NULL && t->cpu_all.present)
    set_number (v, t->cpu_all.threads);
}

#define SPEEDUP_GETTER(name, all_cores, e2e)                                                   \
  static void name (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)                      \
  {                                                                                            \
    set_measured (v, ws_run_get_speedup (r, all_cores, e2e));                                  \
  }

SPEEDUP_GETTER (get_speedup_kernel_1, FALSE, FALSE)
SPEEDUP_GETTER (get_speedup_e2e_1, FALSE, TRUE)
SPEEDUP_GETTER (get_speedup_kernel_all, TRUE, FALSE)
SPEEDUP_GETTER (get_speedup_e2e_all, TRUE, TRUE)

static void
get_gbs (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_measured (v, ws_run_get_gbs (r));
}

static void
get_gflops (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_measured (v, ws_run_get_gflops (r));
}

static void
get_occupancy (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  const WsLaunch *l = ws_run_get_launch (r);

  /* 0 is an occupancy (a block that cannot run), not a missing one. */
  if (l != NULL && isfinite (l->occupancy))
    set_number (v, l->occupancy);
}

static void
get_limiter (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (ws_run_get_launch (r) != NULL)
    set_text (v, ws_run_get_launch (r)->limiter);
}

static void
get_active_blocks (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (ws_run_get_launch (r) != NULL)
    set_number (v, ws_run_get_launch (r)->active_blocks_per_sm);
}

static void
get_registers (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (ws_run_get_launch (r) != NULL)
    set_number (v, ws_run_get_launch (r)->registers);
}

static void
get_waves (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (ws_run_get_launch (r) != NULL)
    set_measured (v, ws_run_get_launch (r)->waves);
}

static void
get_verified (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (ws_run_get_verify (r) != NULL)
    set_text (v, ws_run_get_verify (r)->pass ? "true" : "false");
}

static void
get_max_rel_err (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  const WsVerify *verify = ws_run_get_verify (r);

  if (verify != NULL && isfinite (verify->max_rel_err))
    set_number (v, verify->max_rel_err);
}

static void
get_findings (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  GString *ids = g_string_new (NULL);

  for (guint i = 0; x != NULL && x->findings != NULL && i < x->findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (x->findings, i);

      g_string_append_printf (ids, "%s%s", i > 0 ? ";" : "", f->id);
    }
  take_text (v, g_string_free (ids, FALSE));
}

static void
implementation (const WsCpuBaseline *b, WsRunValue *v)
{
  if (b->present)
    set_text (v, b->implementation);
}

static void
library (const WsCpuBaseline *b, WsRunValue *v)
{
  if (!b->present || b->library == NULL)
    return;
  take_text (v, b->library_version != NULL
                  ? g_strdup_printf ("%s %s", b->library, b->library_version)
                  : g_strdup (b->library));
}

static void
get_cpu_1_implementation (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    implementation (&TIMING (r)->cpu_one, v);
}

static void
get_cpu_1_library (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    library (&TIMING (r)->cpu_one, v);
}

static void
get_cpu_all_implementation (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    implementation (&TIMING (r)->cpu_all, v);
}

static void
get_cpu_all_library (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    library (&TIMING (r)->cpu_all, v);
}

static void
get_cache (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_text (v, CONFIG (r)->cache);
}

/* ---- text for people --------------------------------------------------------------------- */

static char *
text_transfer (WsRun *r)
{
  return g_strdup (CONFIG (r)->transfer != NULL ? ws_transfer_label (CONFIG (r)->transfer)
                                                 : WS_UNITS_NONE);
}

/* ---- the list ---------------------------------------------------------------------------- */

#define CSV(key, title, unit, get) { key, title, unit, TRUE, get, NULL }
#define CSV_TEXT(key, title, get, text) { key, title, WS_RUN_UNIT_PLAIN, TRUE, get, text }

static const WsRunColumn columns[] = {
  CSV ("run", N_("#"), WS_RUN_UNIT_PLAIN, get_run),
  { "gpu", N_("GPU"), WS_RUN_UNIT_PLAIN, FALSE, get_gpu, NULL },
  CSV ("kernel", N_("Kernel"), WS_RUN_UNIT_PLAIN, get_kernel),
  CSV ("family", NULL, WS_RUN_UNIT_PLAIN, get_family),
  CSV_TEXT ("shape", N_("Size"), get_shape, ws_run_dup_size_label),
  CSV ("size", NULL, WS_RUN_UNIT_PLAIN, get_size),
  CSV_TEXT ("block", N_("Block"), get_block, ws_run_dup_block_label),
  CSV ("threads_per_block", NULL, WS_RUN_UNIT_PLAIN, get_threads),
  CSV_TEXT ("transfer", N_("Host memory"), get_transfer, text_transfer),
  CSV ("state", NULL, WS_RUN_UNIT_PLAIN, get_state),
  CSV ("kernel_ns_median", N_("Kernel time"), WS_RUN_UNIT_NS, get_kernel_median),
  CSV ("kernel_ns_min", NULL, WS_RUN_UNIT_NS, get_kernel_min),
  CSV ("kernel_ns_max", NULL, WS_RUN_UNIT_NS, get_kernel_max),
  CSV ("kernel_ns_n", NULL, WS_RUN_UNIT_PLAIN, get_kernel_n),
  CSV ("kernel_untraced_ns", NULL, WS_RUN_UNIT_NS, get_kernel_untraced),
  CSV ("e2e_ns_median", N_("End to end"), WS_RUN_UNIT_NS, get_e2e_median),
  CSV ("e2e_ns_min", NULL, WS_RUN_UNIT_NS, get_e2e_min),
  CSV ("e2e_ns_max", NULL, WS_RUN_UNIT_NS, get_e2e_max),
  CSV ("h2d_ns_median", NULL, WS_RUN_UNIT_NS, get_h2d_median),
  CSV ("d2h_ns_median", NULL, WS_RUN_UNIT_NS, get_d2h_median),
  CSV ("cpu_1_ns_median", NULL, WS_RUN_UNIT_NS, get_cpu_1),
  CSV ("cpu_all_ns_median", NULL, WS_RUN_UNIT_NS, get_cpu_all),
  CSV ("cpu_all_threads", NULL, WS_RUN_UNIT_PLAIN, get_cpu_all_threads),
  CSV ("speedup_kernel_vs_1", N_("vs 1 CPU"), WS_RUN_UNIT_RATIO, get_speedup_kernel_1),
  CSV ("speedup_e2e_vs_1", NULL, WS_RUN_UNIT_RATIO, get_speedup_e2e_1),
  CSV ("speedup_kernel_vs_all", N_("vs all cores"), WS_RUN_UNIT_RATIO, get_speedup_kernel_all),
  CSV ("speedup_e2e_vs_all", NULL, WS_RUN_UNIT_RATIO, get_speedup_e2e_all),
  CSV ("kernel_gbs", NULL, WS_RUN_UNIT_GBS, get_gbs),
  CSV ("kernel_gflops", NULL, WS_RUN_UNIT_GFLOPS, get_gflops),
  CSV ("occupancy", N_("Occupancy"), WS_RUN_UNIT_FRACTION, get_occupancy),
  CSV ("limiter", NULL, WS_RUN_UNIT_PLAIN, get_limiter),
  CSV ("active_blocks_per_sm", NULL, WS_RUN_UNIT_PLAIN, get_active_blocks),
  CSV ("registers", NULL, WS_RUN_UNIT_PLAIN, get_registers),
  CSV ("waves", NULL, WS_RUN_UNIT_PLAIN, get_waves),
  CSV ("verified", N_("Verified"), WS_RUN_UNIT_PLAIN, get_verified),
  CSV ("max_rel_err", NULL, WS_RUN_UNIT_PLAIN, get_max_rel_err),
  CSV ("findings", N_("Findings"), WS_RUN_UNIT_PLAIN, get_findings),
  /* Added later, so at the end: what the speedups are against, and the cache state. */
  CSV ("cpu_1_implementation", NULL, WS_RUN_UNIT_PLAIN, get_cpu_1_implementation),
  CSV ("cpu_1_library", NULL, WS_RUN_UNIT_PLAIN, get_cpu_1_library),
  CSV ("cpu_all_implementation", NULL, WS_RUN_UNIT_PLAIN, get_cpu_all_implementation),
  CSV ("cpu_all_library", NULL, WS_RUN_UNIT_PLAIN, get_cpu_all_library),
  CSV ("cache", NULL, WS_RUN_UNIT_PLAIN, get_cache),
};

const WsRunColumn *
ws_run_columns (guint *n)
{
  *n = G_N_ELEMENTS (columns);
  return columns;
}

const WsRunColumn *
ws_run_column_find (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (g_strcmp0 (columns[i].key, key) == 0)
      return &columns[i];
  return NULL;
}

void
ws_run_column_get (const WsRunColumn *column, WsRun *run, const WsRunColumnContext *context,
                   WsRunValue *value)
{
  g_return_if_fail (column != NULL && WS_IS_RUN (run) && value != NULL);
  value->kind = WS_RUN_VALUE_EMPTY;
  value->number = 0;
  value->text = NULL;
  column->get (run, context, value);
}

char *
ws_run_column_dup_text (const WsRunColumn *column, WsRun *run,
                        const WsRunColumnContext *context)
{
  WsRunValue v;
  char *text;

  g_return_val_if_fail (column != NULL && WS_IS_RUN (run), NULL);
  if (column->text != NULL)
    return column->text (run);
  ws_run_column_get (column, run, context, &v);
  if (v.kind == WS_RUN_VALUE_EMPTY)
    return g_strdup (WS_UNITS_NONE);
  if (v.kind == WS_RUN_VALUE_TEXT)
    return g_steal_pointer (&v.text);
  switch (column->unit)
    {
    case WS_RUN_UNIT_NS:
      text = ws_units_duration (v.number);
      break;
    case WS_RUN_UNIT_RATIO:
      text = ws_units_ratio (v.number);
      break;
    case WS_RUN_UNIT_GBS:
      text = ws_units_gbs (v.number);
      break;
    case WS_RUN_UNIT_GFLOPS:
      text = ws_units_gflops (v.number);
      break;
    case WS_RUN_UNIT_FRACTION:
      text = ws_units_percent (v.number);
      break;
    case WS_RUN_UNIT_PLAIN:
    default:
      /* An id or a count of threads: its digits, as the runner gave them. */
      text = v.number == round (v.number) && fabs (v.number) < 1e15
               ? g_strdup_printf ("%.0f", v.number)
               : ws_units_number (v.number, 3);
      break;
    }
  ws_run_value_clear (&v);
  return text;
}
