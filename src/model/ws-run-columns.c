/* ws-run-columns.c: the columns of a run, one list for every table and export of runs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-run-columns.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-units.h"

void
ws_run_value_clear (WsRunValue *value)
{
  g_clear_pointer (&value->text, g_free);
  value->kind = WS_RUN_VALUE_EMPTY;
  value->number = 0;
  value->rank = 0;
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

static const WsRunnerError *
first_error (WsRun *run)
{
  GPtrArray *errors = ws_run_get_errors (run);

  for (guint i = 0; i < errors->len; i++)
    {
      WsRunnerError *e = g_ptr_array_index (errors, i);

      if (e->severity == WS_ERROR_SEVERITY_ERROR)
        return e;
    }
  return NULL;
}

char *
ws_run_dup_state_text (WsRun *run)
{
  const WsVerify *v;
  const WsRunnerError *e;

  g_return_val_if_fail (WS_IS_RUN (run), NULL);
  v = ws_run_get_verify (run);
  switch (ws_run_get_state (run))
    {
    case WS_RUN_STATE_COMPLETE:
      if (v != NULL && v->unverified)
        return g_strdup (_("unverified"));
      return g_strdup (_("pass"));
    case WS_RUN_STATE_FAILED:
      if (v != NULL && v->checked > 0)
        {
          g_autofree char *bad = ws_units_grouped ((guint64) (v->mismatches + v->unwritten));
          g_autofree char *checked = ws_units_grouped ((guint64) v->checked);

          return g_strdup_printf (_("FAIL: %s of %s wrong"), bad, checked);
        }
      return g_strdup (_("FAIL"));
    case WS_RUN_STATE_REFUSED:
      e = first_error (run);
      return e != NULL ? g_strdup_printf (_("refused (%s)"), e->code_name)
                       : g_strdup (_("refused"));
    case WS_RUN_STATE_RUNNING:
      return g_strdup (_("running"));
    case WS_RUN_STATE_INCOMPLETE:
    default:
      return g_strdup (_("incomplete"));
    }
}

void
ws_run_value_append_csv (const WsRunValue *value, GString *out,
                         void (*number) (GString *out, double value))
{
  g_return_if_fail (value != NULL && out != NULL && number != NULL);
  switch (value->kind)
    {
    case WS_RUN_VALUE_NUMBER:
      number (out, value->number);
      break;
    case WS_RUN_VALUE_TEXT:
      ws_format_append_csv_field (out, value->text);
      break;
    case WS_RUN_VALUE_DIMS:
      /* One number for a vector, all three otherwise: "4096x4096x1". */
      if (value->rank == 1)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, value->dims[0]);
      else
        g_string_append_printf (out, "%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT
                                "x%" G_GUINT64_FORMAT,
                                value->dims[0], value->dims[1], value->dims[2]);
      break;
    case WS_RUN_VALUE_EMPTY:
    case WS_RUN_VALUE_ABSENT:
    default:
      break;
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

static void
set_bool (WsRunValue *v, gboolean value)
{
  set_text (v, value ? "true" : "false");
}

static void
set_dims (WsRunValue *v, guint64 d0, guint64 d1, guint64 d2, int rank)
{
  v->kind = WS_RUN_VALUE_DIMS;
  v->dims[0] = d0;
  v->dims[1] = d1;
  v->dims[2] = d2;
  v->rank = rank;
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
  const guint64 *s = CONFIG (r)->shape;

  set_dims (v, s[0], s[1], s[2], CONFIG (r)->shape_rank);
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

  set_dims (v, b[0], b[1], b[2], 3);
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

static void
get_size_label (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  take_text (v, ws_run_dup_size_label (r));
}

static void
get_block_label (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  take_text (v, ws_run_dup_block_label (r));
}

static void
get_state_text (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  take_text (v, ws_run_dup_state_text (r));
}

static void
get_params (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (CONFIG (r)->params == NULL)
    v->kind = WS_RUN_VALUE_ABSENT;
  else
    set_text (v, CONFIG (r)->params);
}

/* The median, min, max or count of a timing's statistics, where there are repetitions. */
#define STATS_GETTERS(prefix, member)                                                          \
  static void prefix##_median (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)           \
  {                                                                                            \
    if (TIMING (r) != NULL && TIMING (r)->member.n > 0)                                        \
      set_measured (v, TIMING (r)->member.median);                                             \
  }                                                                                            \
  static void prefix##_min (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)              \
  {                                                                                            \
    if (TIMING (r) != NULL && TIMING (r)->member.n > 0)                                        \
      set_measured (v, TIMING (r)->member.min);                                                \
  }                                                                                            \
  static void prefix##_max (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)              \
  {                                                                                            \
    if (TIMING (r) != NULL && TIMING (r)->member.n > 0)                                        \
      set_measured (v, TIMING (r)->member.max);                                                \
  }                                                                                            \
  static void prefix##_n (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)                \
  {                                                                                            \
    if (TIMING (r) != NULL && TIMING (r)->member.n > 0)                                        \
      set_number (v, TIMING (r)->member.n);                                                    \
  }

STATS_GETTERS (get_kernel, kernel)
STATS_GETTERS (get_e2e, e2e)
STATS_GETTERS (get_h2d, h2d)
STATS_GETTERS (get_d2h, d2h)

static void
get_kernel_untraced (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (TIMING (r) != NULL)
    set_measured (v, TIMING (r)->kernel_untraced_ns);
}

/* ---- the GPU's counters, where they were read (docs/counters.md) ------------------------ */

static void
set_counter (WsRun *r, const char *key, WsRunValue *v)
{
  double value = ws_counters_get (ws_run_get_counters (r), key);

  if (isfinite (value))
    set_number (v, value);
}

static void
get_achieved (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_counter (r, "achieved_occupancy", v);
}

static void
get_dram_read (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_counter (r, "dram_bytes_read", v);
}

static void
get_dram_write (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  set_counter (r, "dram_bytes_write", v);
}

/* ---- the CPU baselines: what ran, its time, and the implementation's name ---------------- */

static void
baseline_library (const WsCpuBaseline *b, WsRunValue *v)
{
  if (b->library == NULL)
    return;
  take_text (v, b->library_version != NULL
                  ? g_strdup_printf ("%s %s", b->library, b->library_version)
                  : g_strdup (b->library));
}

/* A timing's baseline, or NULL where it was not asked for; whether it ran, and so has times. */
#define BASELINE(r, member)                                                                    \
  (TIMING (r) != NULL && TIMING (r)->member.present ? &TIMING (r)->member : NULL)
#define BASELINE_RAN(b) ((b) != NULL && !(b)->skipped && (b)->stats.n > 0)

#define BASELINE_GETTERS(prefix, member)                                                       \
  static void prefix##_threads (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)          \
  {                                                                                            \
    if (BASELINE (r, member) != NULL)                                                          \
      set_number (v, BASELINE (r, member)->threads);                                           \
  }                                                                                            \
  static void prefix##_skipped (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)          \
  {                                                                                            \
    if (BASELINE (r, member) != NULL)                                                          \
      set_bool (v, BASELINE (r, member)->skipped);                                             \
  }                                                                                            \
  static void prefix##_median (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)           \
  {                                                                                            \
    if (BASELINE_RAN (BASELINE (r, member)))                                                   \
      set_measured (v, BASELINE (r, member)->stats.median);                                    \
  }                                                                                            \
  static void prefix##_min (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)              \
  {                                                                                            \
    if (BASELINE_RAN (BASELINE (r, member)))                                                   \
      set_measured (v, BASELINE (r, member)->stats.min);                                       \
  }                                                                                            \
  static void prefix##_max (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)              \
  {                                                                                            \
    if (BASELINE_RAN (BASELINE (r, member)))                                                   \
      set_measured (v, BASELINE (r, member)->stats.max);                                       \
  }                                                                                            \
  static void prefix##_n (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)                \
  {                                                                                            \
    if (BASELINE_RAN (BASELINE (r, member)))                                                   \
      set_number (v, BASELINE (r, member)->stats.n);                                           \
  }                                                                                            \
  static void prefix##_note (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)             \
  {                                                                                            \
    if (BASELINE (r, member) != NULL)                                                          \
      set_text (v, BASELINE (r, member)->note);                                                \
  }                                                                                            \
  static void prefix##_implementation (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)   \
  {                                                                                            \
    if (BASELINE (r, member) != NULL)                                                          \
      set_text (v, BASELINE (r, member)->implementation);                                      \
  }                                                                                            \
  static void prefix##_library_name (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)    \
  {                                                                                            \
    if (BASELINE (r, member) != NULL)                                                          \
      set_text (v, BASELINE (r, member)->library);                                             \
  }                                                                                            \
  static void prefix##_library_version (WsRun *r, const WsRunColumnContext *x, WsRunValue *v) \
  {                                                                                            \
    if (BASELINE (r, member) != NULL)                                                          \
      set_text (v, BASELINE (r, member)->library_version);                                     \
  }

BASELINE_GETTERS (get_cpu_1, cpu_one)
BASELINE_GETTERS (get_cpu_all, cpu_all)
BASELINE_GETTERS (get_cpu_1_other, cpu_one_other)
BASELINE_GETTERS (get_cpu_all_other, cpu_all_other)

/* The CSV's library: name and version in one field. */
static void
get_cpu_1_library (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (BASELINE (r, cpu_one) != NULL)
    baseline_library (BASELINE (r, cpu_one), v);
}

static void
get_cpu_all_library (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  if (BASELINE (r, cpu_all) != NULL)
    baseline_library (BASELINE (r, cpu_all), v);
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

/* ---- the launch: nothing of it before its record ------------------------------------------ */

#define LAUNCH(r, v)                                                                           \
  const WsLaunch *l = ws_run_get_launch (r);                                                   \
                                                                                               \
  if (l == NULL)                                                                               \
    {                                                                                          \
      (v)->kind = WS_RUN_VALUE_ABSENT;                                                         \
      return;                                                                                  \
    }

static void
get_occupancy (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  LAUNCH (r, v);
  /* 0 is an occupancy (a block that cannot run), not a missing one. */
  if (isfinite (l->occupancy))
    set_number (v, l->occupancy);
}

static void
get_limiter (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  LAUNCH (r, v);
  set_text (v, l->limiter);
}

static void
get_active_blocks (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  LAUNCH (r, v);
  set_number (v, l->active_blocks_per_sm);
}

static void
get_registers (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  LAUNCH (r, v);
  set_number (v, l->registers);
}

static void
get_waves (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  LAUNCH (r, v);
  set_measured (v, l->waves);
}

/* ---- the verification -------------------------------------------------------------------- */

static void
get_verified (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  const WsVerify *verify = ws_run_get_verify (r);

  /* A run with no reference to compare against was not verified, whatever `pass` says. */
  if (verify != NULL && !verify->unverified)
    set_bool (v, verify->pass);
}

static void
get_max_rel_err (WsRun *r, const WsRunColumnContext *x, WsRunValue *v)
{
  const WsVerify *verify = ws_run_get_verify (r);

  if (verify == NULL || verify->unverified)
    v->kind = WS_RUN_VALUE_ABSENT;
  else if (isfinite (verify->max_rel_err))
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

#define NUMBER WS_RUN_JSON_NUMBER
#define INTEGER WS_RUN_JSON_INTEGER
#define STRING WS_RUN_JSON_STRING
#define BOOLEAN WS_RUN_JSON_BOOLEAN
#define ARRAY WS_RUN_JSON_ARRAY

/* A column of the report's CSV (and of its JSON, where `json` is not NULL). */
#define CSV(key, title, unit, json, type, get) { key, title, unit, TRUE, json, type, NULL, get, NULL }
/* The same with another header in the chart export's CSV. */
#define CSV_EXPORT(key, title, unit, json, type, export_key, get)                              \
  { key, title, unit, TRUE, json, type, export_key, get, NULL }
#define CSV_TEXT(key, title, json, type, get, text)                                            \
  { key, title, WS_RUN_UNIT_PLAIN, TRUE, json, type, NULL, get, text }
/* A member of the JSON that the CSV does not have. */
#define JSON(key, unit, json, type, get) { key, NULL, unit, FALSE, json, type, NULL, get, NULL }

/* The members of a baseline's object in the JSON, as columns; the CSV has its median, its
 * implementation and its library (name and version in one field). */
#define BASELINE_JSON(key, get)                                                         \
  JSON (key "_threads", WS_RUN_UNIT_PLAIN, key ".threads", INTEGER, get##_threads),            \
  JSON (key "_skipped", WS_RUN_UNIT_PLAIN, key ".skipped", BOOLEAN, get##_skipped),            \
  JSON (key "_ns_median", WS_RUN_UNIT_NS, key ".ns.median", NUMBER, get##_median),             \
  JSON (key "_ns_min", WS_RUN_UNIT_NS, key ".ns.min", NUMBER, get##_min),                      \
  JSON (key "_ns_max", WS_RUN_UNIT_NS, key ".ns.max", NUMBER, get##_max),                      \
  JSON (key "_ns_n", WS_RUN_UNIT_PLAIN, key ".ns.n", INTEGER, get##_n),                        \
  JSON (key "_note", WS_RUN_UNIT_PLAIN, key ".note", STRING, get##_note),                      \
  JSON (key "_implementation", WS_RUN_UNIT_PLAIN, key ".implementation", STRING,               \
        get##_implementation),                                                                 \
  JSON (key "_library_name", WS_RUN_UNIT_PLAIN, key ".library", STRING, get##_library_name),   \
  JSON (key "_library_version", WS_RUN_UNIT_PLAIN, key ".library_version", STRING,             \
        get##_library_version)

static const WsRunColumn columns[] = {
  CSV ("run", N_("#"), WS_RUN_UNIT_PLAIN, "id", INTEGER, get_run),
  { "gpu", N_("GPU"), WS_RUN_UNIT_PLAIN, FALSE, NULL, NUMBER, NULL, get_gpu, NULL },
  CSV ("kernel", N_("Kernel"), WS_RUN_UNIT_PLAIN, "kernel", STRING, get_kernel),
  CSV ("family", NULL, WS_RUN_UNIT_PLAIN, "family", STRING, get_family),
  CSV_TEXT ("shape", N_("Size"), "shape", ARRAY, get_shape, ws_run_dup_size_label),
  CSV ("size", NULL, WS_RUN_UNIT_PLAIN, "size", NUMBER, get_size),
  JSON ("size_label", WS_RUN_UNIT_PLAIN, "size_label", STRING, get_size_label),
  CSV_TEXT ("block", N_("Block"), "block", ARRAY, get_block, ws_run_dup_block_label),
  JSON ("block_label", WS_RUN_UNIT_PLAIN, "block_label", STRING, get_block_label),
  CSV ("threads_per_block", NULL, WS_RUN_UNIT_PLAIN, NULL, INTEGER, get_threads),
  CSV_TEXT ("transfer", N_("Host memory"), "transfer", STRING, get_transfer, text_transfer),
  CSV ("state", NULL, WS_RUN_UNIT_PLAIN, "state", STRING, get_state),
  JSON ("state_text", WS_RUN_UNIT_PLAIN, "state_text", STRING, get_state_text),
  CSV_EXPORT ("kernel_ns_median", N_("Kernel time"), WS_RUN_UNIT_NS, "kernel_ns.median", NUMBER,
              "kernel_median_ns", get_kernel_median),
  CSV_EXPORT ("kernel_ns_min", NULL, WS_RUN_UNIT_NS, "kernel_ns.min", NUMBER, "kernel_min_ns",
              get_kernel_min),
  CSV_EXPORT ("kernel_ns_max", NULL, WS_RUN_UNIT_NS, "kernel_ns.max", NUMBER, "kernel_max_ns",
              get_kernel_max),
  CSV ("kernel_ns_n", NULL, WS_RUN_UNIT_PLAIN, "kernel_ns.n", INTEGER, get_kernel_n),
  CSV ("kernel_untraced_ns", NULL, WS_RUN_UNIT_NS, "kernel_untraced_ns", NUMBER,
       get_kernel_untraced),
  CSV_EXPORT ("e2e_ns_median", N_("End to end"), WS_RUN_UNIT_NS, "e2e_ns.median", NUMBER,
              "e2e_median_ns", get_e2e_median),
  CSV_EXPORT ("e2e_ns_min", NULL, WS_RUN_UNIT_NS, "e2e_ns.min", NUMBER, "e2e_min_ns",
              get_e2e_min),
  CSV_EXPORT ("e2e_ns_max", NULL, WS_RUN_UNIT_NS, "e2e_ns.max", NUMBER, "e2e_max_ns",
              get_e2e_max),
  JSON ("e2e_ns_n", WS_RUN_UNIT_PLAIN, "e2e_ns.n", INTEGER, get_e2e_n),
  CSV ("h2d_ns_median", NULL, WS_RUN_UNIT_NS, "h2d_ns.median", NUMBER, get_h2d_median),
  JSON ("h2d_ns_min", WS_RUN_UNIT_NS, "h2d_ns.min", NUMBER, get_h2d_min),
  JSON ("h2d_ns_max", WS_RUN_UNIT_NS, "h2d_ns.max", NUMBER, get_h2d_max),
  JSON ("h2d_ns_n", WS_RUN_UNIT_PLAIN, "h2d_ns.n", INTEGER, get_h2d_n),
  CSV ("d2h_ns_median", NULL, WS_RUN_UNIT_NS, "d2h_ns.median", NUMBER, get_d2h_median),
  JSON ("d2h_ns_min", WS_RUN_UNIT_NS, "d2h_ns.min", NUMBER, get_d2h_min),
  JSON ("d2h_ns_max", WS_RUN_UNIT_NS, "d2h_ns.max", NUMBER, get_d2h_max),
  JSON ("d2h_ns_n", WS_RUN_UNIT_PLAIN, "d2h_ns.n", INTEGER, get_d2h_n),
  CSV_EXPORT ("cpu_1_ns_median", NULL, WS_RUN_UNIT_NS, "cpu_1.ns.median", NUMBER,
              "cpu_1_thread_median_ns", get_cpu_1_median),
  CSV_EXPORT ("cpu_all_ns_median", NULL, WS_RUN_UNIT_NS, "cpu_all.ns.median", NUMBER,
              "cpu_all_cores_median_ns", get_cpu_all_median),
  CSV_EXPORT ("cpu_all_threads", NULL, WS_RUN_UNIT_PLAIN, "cpu_all.threads", INTEGER,
              "cpu_all_cores_threads", get_cpu_all_threads),
  CSV_EXPORT ("speedup_kernel_vs_1", N_("vs 1 CPU"), WS_RUN_UNIT_RATIO, "speedup.kernel_vs_1",
              NUMBER, "speedup_kernel_vs_1_thread", get_speedup_kernel_1),
  CSV_EXPORT ("speedup_e2e_vs_1", NULL, WS_RUN_UNIT_RATIO, "speedup.e2e_vs_1", NUMBER,
              "speedup_e2e_vs_1_thread", get_speedup_e2e_1),
  CSV_EXPORT ("speedup_kernel_vs_all", N_("vs all cores"), WS_RUN_UNIT_RATIO,
              "speedup.kernel_vs_all", NUMBER, "speedup_kernel_vs_all_cores",
              get_speedup_kernel_all),
  CSV_EXPORT ("speedup_e2e_vs_all", NULL, WS_RUN_UNIT_RATIO, "speedup.e2e_vs_all", NUMBER,
              "speedup_e2e_vs_all_cores", get_speedup_e2e_all),
  CSV ("kernel_gbs", NULL, WS_RUN_UNIT_GBS, "kernel_gbs", NUMBER, get_gbs),
  CSV ("kernel_gflops", NULL, WS_RUN_UNIT_GFLOPS, "kernel_gflops", NUMBER, get_gflops),
  CSV ("occupancy", N_("Occupancy"), WS_RUN_UNIT_FRACTION, "occupancy", NUMBER, get_occupancy),
  CSV ("limiter", NULL, WS_RUN_UNIT_PLAIN, "limiter", STRING, get_limiter),
  CSV ("active_blocks_per_sm", NULL, WS_RUN_UNIT_PLAIN, "active_blocks_per_sm", INTEGER,
       get_active_blocks),
  CSV ("registers", NULL, WS_RUN_UNIT_PLAIN, NULL, INTEGER, get_registers),
  CSV ("waves", NULL, WS_RUN_UNIT_PLAIN, "waves", NUMBER, get_waves),
  JSON ("params", WS_RUN_UNIT_PLAIN, "params", STRING, get_params),
  CSV ("verified", N_("Verified"), WS_RUN_UNIT_PLAIN, "verified", BOOLEAN, get_verified),
  CSV ("max_rel_err", NULL, WS_RUN_UNIT_PLAIN, "max_rel_err", NUMBER, get_max_rel_err),
  CSV ("findings", N_("Findings"), WS_RUN_UNIT_PLAIN, "findings", WS_RUN_JSON_FINDINGS,
       get_findings),
  /* Added later, so at the end: what the speedups are against, and the cache state. The
   * JSON has the library's name and version apart (cpu_1.library, cpu_1.library_version). */
  CSV ("cpu_1_implementation", NULL, WS_RUN_UNIT_PLAIN, "cpu_1.implementation", STRING,
       get_cpu_1_implementation),
  CSV ("cpu_1_library", NULL, WS_RUN_UNIT_PLAIN, NULL, STRING, get_cpu_1_library),
  CSV ("cpu_all_implementation", NULL, WS_RUN_UNIT_PLAIN, "cpu_all.implementation", STRING,
       get_cpu_all_implementation),
  CSV ("cpu_all_library", NULL, WS_RUN_UNIT_PLAIN, NULL, STRING, get_cpu_all_library),
  CSV ("cache", NULL, WS_RUN_UNIT_PLAIN, "cache", STRING, get_cache),
  /* The GPU's counters, the headline three (the JSON has every one in `counters`); empty
   * where they were not read. */
  CSV ("achieved_occupancy_pct", NULL, WS_RUN_UNIT_PLAIN, NULL, NUMBER, get_achieved),
  CSV ("dram_bytes_read", NULL, WS_RUN_UNIT_PLAIN, NULL, NUMBER, get_dram_read),
  CSV ("dram_bytes_write", NULL, WS_RUN_UNIT_PLAIN, NULL, NUMBER, get_dram_write),
  /* The rest of the baselines' objects in the JSON. */
  JSON ("cpu_1_threads", WS_RUN_UNIT_PLAIN, "cpu_1.threads", INTEGER, get_cpu_1_threads),
  JSON ("cpu_1_skipped", WS_RUN_UNIT_PLAIN, "cpu_1.skipped", BOOLEAN, get_cpu_1_skipped),
  JSON ("cpu_1_ns_min", WS_RUN_UNIT_NS, "cpu_1.ns.min", NUMBER, get_cpu_1_min),
  JSON ("cpu_1_ns_max", WS_RUN_UNIT_NS, "cpu_1.ns.max", NUMBER, get_cpu_1_max),
  JSON ("cpu_1_ns_n", WS_RUN_UNIT_PLAIN, "cpu_1.ns.n", INTEGER, get_cpu_1_n),
  JSON ("cpu_1_note", WS_RUN_UNIT_PLAIN, "cpu_1.note", STRING, get_cpu_1_note),
  JSON ("cpu_1_library_name", WS_RUN_UNIT_PLAIN, "cpu_1.library", STRING,
        get_cpu_1_library_name),
  JSON ("cpu_1_library_version", WS_RUN_UNIT_PLAIN, "cpu_1.library_version", STRING,
        get_cpu_1_library_version),
  JSON ("cpu_all_skipped", WS_RUN_UNIT_PLAIN, "cpu_all.skipped", BOOLEAN, get_cpu_all_skipped),
  JSON ("cpu_all_ns_min", WS_RUN_UNIT_NS, "cpu_all.ns.min", NUMBER, get_cpu_all_min),
  JSON ("cpu_all_ns_max", WS_RUN_UNIT_NS, "cpu_all.ns.max", NUMBER, get_cpu_all_max),
  JSON ("cpu_all_ns_n", WS_RUN_UNIT_PLAIN, "cpu_all.ns.n", INTEGER, get_cpu_all_n),
  JSON ("cpu_all_note", WS_RUN_UNIT_PLAIN, "cpu_all.note", STRING, get_cpu_all_note),
  JSON ("cpu_all_library_name", WS_RUN_UNIT_PLAIN, "cpu_all.library", STRING,
        get_cpu_all_library_name),
  JSON ("cpu_all_library_version", WS_RUN_UNIT_PLAIN, "cpu_all.library_version", STRING,
        get_cpu_all_library_version),
  /* The other implementation beside each, where it was timed. */
  BASELINE_JSON ("cpu_1_other", get_cpu_1_other),
  BASELINE_JSON ("cpu_all_other", get_cpu_all_other),
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

const WsRunColumn *
ws_run_column_find_export (const char *export_key)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (g_strcmp0 (columns[i].export_key != NULL ? columns[i].export_key : columns[i].key,
                   export_key) == 0)
      return &columns[i];
  return NULL;
}

void
ws_run_column_get (const WsRunColumn *column, WsRun *run, const WsRunColumnContext *context,
                   WsRunValue *value)
{
  g_return_if_fail (column != NULL && WS_IS_RUN (run) && value != NULL);
  memset (value, 0, sizeof *value);
  value->kind = WS_RUN_VALUE_EMPTY;
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
  if (v.kind == WS_RUN_VALUE_EMPTY || v.kind == WS_RUN_VALUE_ABSENT)
    return g_strdup (WS_UNITS_NONE);
  if (v.kind == WS_RUN_VALUE_TEXT)
    return g_steal_pointer (&v.text);
  if (v.kind == WS_RUN_VALUE_DIMS)
    return ws_units_shape (v.dims, v.rank);
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
