/* ws-run.c: one configuration of a session, filled in record by record as they arrive.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-run-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-format.h"
#include "ws-units.h"
#include "ws-protocol.h"

struct _WsRun
{
  GObject parent_instance;
  WsRunConfig config;
  WsLaunch launch;
  WsTiming timing;
  WsVerify verify;
  WsCounters *counters; /* NULL until its counters record */
  gboolean has_launch, has_timing, has_verify;
  WsRunState state;
  GStringChunk *strings; /* the strings the structs above point at */
  GArray *activities; /* WsSpan */
  gboolean sorted;
  gboolean sealed;    /* no room to spare in activities */
  GPtrArray *errors;
};

G_DEFINE_FINAL_TYPE (WsRun, ws_run, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_ID,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
ws_runner_error_free (WsRunnerError *error)
{
  if (error == NULL)
    return;
  g_free (error->code_name);
  g_free (error->message);
  g_free (error->detail);
  g_free (error->file);
  g_free (error);
}

static void
ws_run_finalize (GObject *object)
{
  WsRun *self = WS_RUN (object);

  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->activities, g_array_unref);
  g_clear_pointer (&self->errors, g_ptr_array_unref);
  g_clear_pointer (&self->counters, ws_counters_free);
  G_OBJECT_CLASS (ws_run_parent_class)->finalize (object);
}

static void
ws_run_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsRun *self = WS_RUN (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_int (value, self->config.id);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_run_class_init (WsRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_run_finalize;
  object_class->get_property = ws_run_get_property;
  properties[PROP_ID] = g_param_spec_int ("id", NULL, NULL, 0, G_MAXINT, 0,
                                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] = g_param_spec_int ("state", NULL, NULL, 0, WS_RUN_STATE_INCOMPLETE, 0,
                                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                               | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_run_init (WsRun *self)
{
  self->activities = g_array_new (FALSE, FALSE, sizeof (WsSpan));
  self->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_runner_error_free);
  self->sorted = TRUE;
  self->verify.first_bad_index = -1;
  self->strings = g_string_chunk_new (256);
}

static const char *
keep (WsRun *self, const char *s)
{
  return s ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

WsRunnerError *
_ws_runner_error_new_from_record (const WsRecord *r)
{
  WsRunnerError *e = g_new0 (WsRunnerError, 1);
  WsRecordNode o = WS_RECORD_ROOT;
  const char *code = ws_record_string (r, o, WS_KEY_CODE);

  e->run = (int) ws_record_int (r, o, WS_KEY_RUN, 0);
  e->severity = ws_error_severity_from_string (ws_record_string (r, o, WS_KEY_SEVERITY));
  e->code = ws_error_code_from_string (code);
  if (e->code == WS_ERROR_NONE)
    e->code = WS_ERROR_UNKNOWN;
  e->code_name = g_strdup (code ? code : ws_error_code_to_string (WS_ERROR_UNKNOWN));
  e->message = g_strdup (ws_record_string (r, o, WS_KEY_MESSAGE) ?: "");
  e->detail = g_strdup (ws_record_string (r, o, WS_KEY_DETAIL));
  e->file = g_strdup (ws_record_string (r, o, WS_KEY_FILE));
  e->line = (int) ws_record_int (r, o, WS_KEY_LINE, 0);
  e->column = (int) ws_record_int (r, o, WS_KEY_COLUMN, 0);
  return e;
}

/* {"TILE": 16, "UNROLL": 2} as "TILE=16, UNROLL=2"; NULL when absent or empty. */
static const char *
read_params (WsRun *self, const WsRecord *r)
{
  WsRecordNode po = ws_record_object (r, WS_RECORD_ROOT, WS_KEY_PARAMS);
  g_autoptr (GString) text = g_string_new (NULL);

  if (po == WS_RECORD_NONE)
    return NULL;
  for (WsRecordNode n = ws_record_first_child (r, po); n != WS_RECORD_NONE;
       n = ws_record_next_sibling (r, n))
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];
      double d;

      if (!ws_record_node_double (r, n, &d))
        continue;
      g_ascii_formatd (number, sizeof number, "%.10g", d);
      g_string_append_printf (text, "%s%s=%s", text->len ? ", " : "", ws_record_key (r, n),
                              number);
    }
  return text->len > 0 ? keep (self, text->str) : NULL;
}

WsRun *
_ws_run_new_from_record (const WsRecord *r)
{
  WsRun *self;
  WsRunConfig *c;
  WsRecordNode o = WS_RECORD_ROOT;
  gint64 v[3] = { 0, 0, 0 };
  const char *transfer;
  guint n;

  g_return_val_if_fail (r != NULL, NULL);

  self = g_object_new (WS_TYPE_RUN, NULL);
  c = &self->config;
  c->id = (int) ws_record_int (r, o, WS_KEY_ID, 0);
  c->kernel = keep (self, ws_record_string (r, o, WS_KEY_KERNEL) ?: "unknown");
  c->family = keep (self, ws_record_string (r, o, WS_KEY_FAMILY) ?: c->kernel);
  n = ws_record_ints (r, o, WS_KEY_SHAPE, v, 3);
  c->shape_rank = n >= 2 ? (int) n : 1;
  for (int i = 0; i < 3; i++)
    c->shape[i] = (guint64) (i < (int) MAX (n, 1) ? v[i] : 1);
  c->size = ws_record_double (r, o, WS_KEY_SIZE, (double) c->shape[0]);
  c->size_text = keep (self, ws_record_string (r, o, WS_KEY_SIZE_TEXT));
  v[0] = v[1] = v[2] = 1;
  c->library = ws_record_type (r, ws_record_member (r, o, WS_KEY_BLOCK)) == WS_RECORD_NULL
               && ws_record_member (r, o, WS_KEY_BLOCK) != WS_RECORD_NONE;
  c->has_block = ws_record_type (r, ws_record_member (r, o, WS_KEY_BLOCK)) != WS_RECORD_NULL;
  c->has_grid = ws_record_type (r, ws_record_member (r, o, WS_KEY_GRID)) != WS_RECORD_NULL;
  ws_record_ints (r, o, WS_KEY_BLOCK, v, 3);
  for (int i = 0; i < 3; i++)
    c->block[i] = (guint) MAX (v[i], 1);
  v[0] = v[1] = v[2] = 1;
  ws_record_ints (r, o, WS_KEY_GRID, v, 3);
  for (int i = 0; i < 3; i++)
    c->grid[i] = (guint) MAX (v[i], 1);
  c->threads_per_block = (guint) ws_record_int (r, o, WS_KEY_THREADS_PER_BLOCK,
                                                c->block[0] * c->block[1] * c->block[2]);
  transfer = ws_record_string (r, o, WS_KEY_TRANSFER);
  c->transfer_kind = ws_transfer_from_string (transfer);
  c->transfer = keep (self, transfer ?: ws_transfer_to_string (c->transfer_kind));
  c->reps = (int) ws_record_int (r, o, WS_KEY_REPS, 0);
  c->warmup = (int) ws_record_int (r, o, WS_KEY_WARMUP, 0);
  c->seed = ws_record_uint (r, o, WS_KEY_SEED, 0);
  c->cpu = keep (self, ws_record_string (r, o, WS_KEY_CPU));
  c->cache = g_strcmp0 (ws_record_string (r, o, WS_KEY_CACHE), "cold") == 0 ? "cold" : "warm";
  c->flops = ws_record_double (r, o, WS_KEY_FLOPS, 0);
  c->bytes = ws_record_double (r, o, WS_KEY_BYTES, 0);
  c->input_bytes = ws_record_int (r, o, WS_KEY_INPUT_BYTES, 0);
  c->output_bytes = ws_record_int (r, o, WS_KEY_OUTPUT_BYTES, 0);
  c->device = (int) ws_record_int (r, o, WS_KEY_DEVICE, -1);
  c->device_uuid = keep (self, ws_record_string (r, o, WS_KEY_DEVICE_UUID));
  c->source_hash = keep (self, ws_record_string (r, o, WS_KEY_SOURCE_HASH));
  c->params = read_params (self, r);
  return self;
}

static void
read_stats (const WsRecord *r, const char *member, WsStats *s)
{
  WsRecordNode so = ws_record_object (r, WS_RECORD_ROOT, member);

  memset (s, 0, sizeof *s);
  if (so == WS_RECORD_NONE)
    return;
  s->median = ws_record_double (r, so, WS_KEY_MEDIAN, 0);
  s->min = ws_record_double (r, so, WS_KEY_MIN, s->median);
  s->max = ws_record_double (r, so, WS_KEY_MAX, s->median);
  s->n = (int) ws_record_int (r, so, WS_KEY_N, s->median > 0 ? 1 : 0);
}

static void
read_baseline (WsRun *self, const WsRecord *r, const char *member, WsCpuBaseline *b)
{
  WsRecordNode bo = ws_record_object (r, WS_RECORD_ROOT, member);

  memset (b, 0, sizeof *b);
  if (bo == WS_RECORD_NONE)
    return;
  b->present = TRUE;
  b->threads = (int) ws_record_int (r, bo, WS_KEY_THREADS, 1);
  b->skipped = ws_record_bool (r, bo, WS_KEY_SKIPPED, FALSE);
  if (!b->skipped)
    {
      b->stats.median = ws_record_double (r, bo, WS_KEY_MEDIAN, 0);
      b->stats.min = ws_record_double (r, bo, WS_KEY_MIN, b->stats.median);
      b->stats.max = ws_record_double (r, bo, WS_KEY_MAX, b->stats.median);
      b->stats.n = (int) ws_record_int (r, bo, WS_KEY_N, b->stats.median > 0 ? 1 : 0);
      b->skipped = b->stats.n == 0;
    }
  b->warmed_up = ws_record_bool (r, bo, WS_KEY_WARMED_UP, FALSE);
  b->estimate_ns = ws_record_double (r, bo, WS_KEY_ESTIMATE, 0);
  b->from_run = (int) ws_record_int (r, bo, WS_KEY_FROM_RUN, 0);
  b->max_threads = (int) ws_record_int (r, bo, WS_KEY_MAX_THREADS, 0);
  b->one_thread_faster = ws_record_bool (r, bo, WS_KEY_ONE_THREAD_FASTER, FALSE);
  b->note = keep (self, ws_record_string (r, bo, WS_KEY_NOTE));
  b->implementation = g_strcmp0 (ws_record_string (r, bo, WS_KEY_IMPLEMENTATION), "blas") == 0
                        ? "blas"
                        : "hand_written";
  b->library = keep (self, ws_record_string (r, bo, WS_KEY_LIBRARY));
  b->library_version = keep (self, ws_record_string (r, bo, WS_KEY_LIBRARY_VERSION));
  b->library_config = keep (self, ws_record_string (r, bo, WS_KEY_LIBRARY_CONFIG));
  b->library_note = keep (self, ws_record_string (r, bo, WS_KEY_LIBRARY_NOTE));
  if (b->library == NULL && g_str_equal (b->implementation, "blas"))
    b->library = "BLAS";
}

static void
read_launch (WsRun *self, const WsRecord *r)
{
  WsLaunch *l = &self->launch;
  WsRecordNode o = WS_RECORD_ROOT;
  WsRecordNode limits = ws_record_object (r, o, WS_KEY_LIMITS);

  l->registers = (int) ws_record_int (r, o, WS_KEY_REGISTERS, 0);
  l->registers_compiled = (int) ws_record_int (r, o, WS_KEY_REGISTERS_COMPILED, 0);
  l->static_smem = (int) ws_record_int (r, o, WS_KEY_STATIC_SMEM, 0);
  l->dynamic_smem = (int) ws_record_int (r, o, WS_KEY_DYNAMIC_SMEM, 0);
  l->local_bytes = (int) ws_record_int (r, o, WS_KEY_LOCAL_BYTES, 0);
  l->kernel_max_threads = (int) ws_record_int (r, o, WS_KEY_KERNEL_MAX_THREADS, 0);
  l->threads_per_block = (int) ws_record_int (r, o, WS_KEY_THREADS_PER_BLOCK,
                                              self->config.threads_per_block);
  l->warps_per_block = (int) ws_record_int (r, o, WS_KEY_WARPS_PER_BLOCK,
                                            (l->threads_per_block + 31) / 32);
  l->active_blocks_per_sm = (int) ws_record_int (r, o, WS_KEY_ACTIVE_BLOCKS_PER_SM, 0);
  l->active_warps_per_sm = (int) ws_record_int (r, o, WS_KEY_ACTIVE_WARPS_PER_SM, 0);
  l->max_warps_per_sm = (int) ws_record_int (r, o, WS_KEY_MAX_WARPS_PER_SM, 0);
  l->occupancy = ws_record_double (r, o, WS_KEY_OCCUPANCY, 0);
  l->limiter = keep (self, ws_record_string (r, o, WS_KEY_LIMITER));
  l->limit_blocks = (int) ws_record_int (r, limits, WS_KEY_BLOCKS_PER_SM, 0);
  l->limit_warps = (int) ws_record_int (r, limits, WS_KEY_WARPS, 0);
  l->limit_registers = (int) ws_record_int (r, limits, WS_KEY_REGISTERS, 0);
  l->limit_smem = (int) ws_record_int (r, limits, WS_KEY_SHARED_MEMORY, 0);
  l->blocks = ws_record_int (r, o, WS_KEY_BLOCKS, 0);
  l->waves = ws_record_double (r, o, WS_KEY_WAVES, 0);
  self->has_launch = TRUE;
}

static void
read_timing (WsRun *self, const WsRecord *r)
{
  WsTiming *t = &self->timing;

  t->traced = ws_record_bool (r, WS_RECORD_ROOT, WS_KEY_TRACED, FALSE);
  read_stats (r, WS_KEY_KERNEL_NS, &t->kernel);
  read_stats (r, WS_KEY_KERNEL_IN_SEQUENCE_NS, &t->kernel_in_sequence);
  read_stats (r, WS_KEY_H2D_NS, &t->h2d);
  read_stats (r, WS_KEY_D2H_NS, &t->d2h);
  read_stats (r, WS_KEY_MEMSET_NS, &t->memset);
  read_stats (r, WS_KEY_E2E_NS, &t->e2e);
  t->kernel_untraced_ns = ws_record_double (r, WS_RECORD_ROOT, WS_KEY_KERNEL_UNTRACED_NS, 0);
  t->untraced_launches = (int) ws_record_int (r, WS_RECORD_ROOT, WS_KEY_UNTRACED_LAUNCHES, 0);
  t->untraced_method = keep (self, ws_record_string (r, WS_RECORD_ROOT, WS_KEY_UNTRACED_METHOD));
  read_baseline (self, r, WS_KEY_CPU_1, &t->cpu_one);
  read_baseline (self, r, WS_KEY_CPU_ALL, &t->cpu_all);
  /* The other implementation is written under its own name. */
  read_baseline (self, r, WS_KEY_CPU_1_HAND_WRITTEN, &t->cpu_one_other);
  if (!t->cpu_one_other.present)
    read_baseline (self, r, WS_KEY_CPU_1_BLAS, &t->cpu_one_other);
  read_baseline (self, r, WS_KEY_CPU_ALL_HAND_WRITTEN, &t->cpu_all_other);
  if (!t->cpu_all_other.present)
    read_baseline (self, r, WS_KEY_CPU_ALL_BLAS, &t->cpu_all_other);
  self->has_timing = TRUE;
}

static void
read_verify (WsRun *self, const WsRecord *r)
{
  WsVerify *v = &self->verify;
  WsRecordNode o = WS_RECORD_ROOT;

  v->pass = ws_record_bool (r, o, WS_KEY_PASS, FALSE);
  v->method = keep (self, ws_record_string (r, o, WS_KEY_METHOD));
  v->checked = ws_record_int (r, o, WS_KEY_CHECKED, 0);
  v->total = ws_record_int (r, o, WS_KEY_TOTAL, 0);
  v->mismatches = ws_record_int (r, o, WS_KEY_MISMATCHES, 0);
  v->unwritten = ws_record_int (r, o, WS_KEY_UNWRITTEN, 0);
  v->max_abs_err = ws_record_double (r, o, WS_KEY_MAX_ABS_ERR, 0);
  v->max_rel_err = ws_record_double (r, o, WS_KEY_MAX_REL_ERR, 0);
  v->rtol = ws_record_double (r, o, WS_KEY_RTOL, 0);
  v->atol = ws_record_double (r, o, WS_KEY_ATOL, 0);
  v->first_bad_index = ws_record_int (r, o, WS_KEY_FIRST_BAD_INDEX, -1);
  v->first_bad_value = ws_record_double (r, o, WS_KEY_FIRST_BAD_VALUE, 0);
  v->first_bad_expected = ws_record_double (r, o, WS_KEY_FIRST_BAD_EXPECTED, 0);
  v->unverified = g_strcmp0 (v->method, "none") == 0;
  v->note = keep (self, ws_record_string (r, o, WS_KEY_NOTE));
  v->first_bad_buffer = keep (self, ws_record_string (r, o, WS_KEY_FIRST_BAD_BUFFER));
  self->has_verify = TRUE;
}

static void
update_state (WsRun *self)
{
  WsRunState state = self->state;

  if (self->has_verify && self->has_timing)
    state = self->verify.pass ? WS_RUN_STATE_COMPLETE : WS_RUN_STATE_FAILED;
  for (guint i = 0; i < self->errors->len; i++)
    {
      WsRunnerError *e = g_ptr_array_index (self->errors, i);

      if (e->severity == WS_ERROR_SEVERITY_ERROR)
        state = WS_RUN_STATE_REFUSED;
    }
  if (state != self->state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
}

void
_ws_run_set_record (WsRun *self, const char *type, const WsRecord *record)
{
  if (g_str_equal (type, WS_RECORD_TYPE_LAUNCH))
    read_launch (self, record);
  else if (g_str_equal (type, WS_RECORD_TYPE_TIMING))
    read_timing (self, record);
  else if (g_str_equal (type, WS_RECORD_TYPE_VERIFY))
    read_verify (self, record);
  else if (g_str_equal (type, WS_RECORD_TYPE_COUNTERS))
    {
      g_clear_pointer (&self->counters, ws_counters_free);
      self->counters = ws_counters_new_from_record (record);
    }
  else
    return;
  update_state (self);
}

void
_ws_run_add_error (WsRun *self, WsRunnerError *error)
{
  g_ptr_array_add (self->errors, error);
  update_state (self);
}

void
_ws_run_append_activity (WsRun *self, const WsSpan *activity)
{
  guint n = self->activities->len;

  if (n > 0 && activity->start < g_array_index (self->activities, WsSpan, n - 1).start)
    self->sorted = FALSE;
  self->sealed = FALSE;
  g_array_append_val (self->activities, *activity);
  /* The group it belongs to, whatever the record said (an activity without a run goes to the
   * last run announced). */
  g_array_index (self->activities, WsSpan, n).run = (guint32) self->config.id;
}

static int
compare_start (gconstpointer a, gconstpointer b)
{
  const WsSpan *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

void
_ws_run_finish_activities (WsRun *self)
{
  if (!self->sorted)
    {
      g_array_sort (self->activities, compare_start);
      self->sorted = TRUE;
    }
}

void
_ws_run_seal_activities (WsRun *self)
{
  guint n = self->activities->len;
  GArray *exact;

  _ws_run_finish_activities (self);
  if (n == 0 || self->sealed)
    return;
  /* The array grew by doubling while the run's records came: a session of many runs would
   * keep up to half of its spans' memory unused. Once the reader has moved on to the next
   * run, the spans are kept in an array of their own size. */
  exact = g_array_sized_new (FALSE, FALSE, sizeof (WsSpan), n);
  g_array_append_vals (exact, self->activities->data, n);
  g_array_unref (self->activities);
  self->activities = exact;
  self->sealed = TRUE;
}

void
_ws_run_mark_incomplete (WsRun *self)
{
  if (self->state != WS_RUN_STATE_RUNNING)
    return;
  self->state = WS_RUN_STATE_INCOMPLETE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

int
ws_run_get_id (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), 0);
  return self->config.id;
}

const WsRunConfig *
ws_run_get_config (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  return &self->config;
}

const WsLaunch *
ws_run_get_launch (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  return self->has_launch ? &self->launch : NULL;
}

const WsTiming *
ws_run_get_timing (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  return self->has_timing ? &self->timing : NULL;
}

const WsCounters *
ws_run_get_counters (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  return self->counters;
}

const WsVerify *
ws_run_get_verify (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  return self->has_verify ? &self->verify : NULL;
}

WsRunState
ws_run_get_state (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), WS_RUN_STATE_RUNNING);
  return self->state;
}

GPtrArray *
ws_run_get_errors (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  return self->errors;
}

const WsSpan *
ws_run_get_activities (WsRun *self, guint *n_activities)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  _ws_run_finish_activities (self);
  if (n_activities != NULL)
    *n_activities = self->activities->len;
  return (const WsSpan *) (gpointer) self->activities->data;
}

guint
ws_run_find_activity (WsRun *self, gint64 start)
{
  guint n, lo = 0, hi;
  const WsSpan *a = ws_run_get_activities (self, &n);

  /* Activities are sorted by start and, within one stream, do not overlap much: the first
   * whose start is after `start` minus the longest span is a safe place to begin. */
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (a[mid].start < start)
        lo = mid + 1;
      else
        hi = mid;
    }
  while (lo > 0 && a[lo - 1].end > start)
    lo--;
  return lo;
}

gboolean
ws_run_get_time_range (WsRun *self, gint64 *start, gint64 *end)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (self, &n);
  gint64 s = G_MAXINT64, e = G_MININT64;

  if (n == 0)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      s = MIN (s, a[i].start);
      e = MAX (e, a[i].end);
    }
  if (start)
    *start = s;
  if (end)
    *end = e;
  return TRUE;
}

double
ws_run_get_kernel_ns (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), 0);
  if (!self->has_timing)
    return 0;
  if (self->timing.kernel.n > 0)
    return self->timing.kernel.median;
  return self->timing.kernel_untraced_ns;
}

char *
ws_run_dup_block_label (WsRun *self)
{
  if (self->config.library)
    return g_strdup ("");
  return ws_units_block (self->config.block);
}

const char *
ws_transfer_label (const char *transfer)
{
  WsTransfer kind = ws_transfer_from_string (transfer);

  /* A run's record without one means pageable; a label of nothing stays nothing. */
  if (transfer != NULL && kind == WS_TRANSFER_PAGEABLE)
    return C_ ("host memory", "pageable");
  if (kind == WS_TRANSFER_PINNED)
    return C_ ("host memory", "pinned");
  return transfer; /* "streams:4", and modes of later versions, as written */
}

char *
ws_run_dup_block_phrase (WsRun *self)
{
  g_autofree char *label = ws_run_dup_block_label (self);

  if (*label == '\0')
    return g_steal_pointer (&label);
  /* Translators: a block of threads, "16×16 block"; a 1D block, "256 threads". */
  return self->config.block[1] > 1 ? g_strdup_printf (_("%s block"), label)
                                   : g_strdup_printf (_("%s threads"), label);
}

char *
ws_run_dup_kernel_label (WsRun *self)
{
  g_return_val_if_fail (WS_IS_RUN (self), NULL);
  if (self->config.params == NULL)
    return g_strdup (self->config.kernel);
  return g_strdup_printf ("%s %s", self->config.kernel, self->config.params);
}

char *
ws_run_dup_size_label (WsRun *self)
{
  return ws_units_shape (self->config.shape, self->config.shape_rank);
}

/* ---- totals ---------------------------------------------------------------------------- */

typedef struct
{
  gint64 start, end;
} Span;

static int
compare_span (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorts and merges the spans in place; returns the length of their union. */
static gint64
union_length (GArray *spans)
{
  gint64 total = 0, cur_start = 0, cur_end = G_MININT64;

  g_array_sort (spans, compare_span);
  for (guint i = 0; i < spans->len; i++)
    {
      Span *s = &g_array_index (spans, Span, i);

      if (s->start > cur_end)
        {
          if (cur_end > G_MININT64)
            total = ws_ns_add_saturated (total, ws_ns_sub_saturated (cur_end, cur_start));
          cur_start = s->start;
          cur_end = s->end;
        }
      else if (s->end > cur_end)
        cur_end = s->end;
    }
  if (cur_end > G_MININT64)
    total = ws_ns_add_saturated (total, ws_ns_sub_saturated (cur_end, cur_start));
  return total;
}

static void
totals_filtered (const WsSpan *a, guint n, gint64 start, gint64 end, int phase,
                 WsTotals *t)
{
  g_autoptr (GArray) copies = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr (GArray) h2d = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr (GArray) d2h = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr (GArray) both = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr (GArray) busy = g_array_new (FALSE, FALSE, sizeof (Span));
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  memset (t, 0, sizeof *t);
  for (guint i = 0; i < n; i++)
    {
      Span s = { MAX (a[i].start, start), MIN (a[i].end, end) };

      if (s.end <= s.start || (phase >= 0 && a[i].phase != phase))
        continue;
      if (a[i].kind != WS_ACTIVITY_MEMCPY && a[i].kind != WS_ACTIVITY_KERNEL
          && a[i].kind != WS_ACTIVITY_MEMSET)
        continue;
      lo = MIN (lo, s.start);
      hi = MAX (hi, s.end);
      g_array_append_val (busy, s);
      if (a[i].kind == WS_ACTIVITY_MEMCPY)
        {
          g_array_append_val (copies, s);
          g_array_append_val (both, s);
          if (a[i].direction == WS_COPY_HTOD)
            g_array_append_val (h2d, s);
          else if (a[i].direction == WS_COPY_DTOH)
            g_array_append_val (d2h, s);
        }
      else if (a[i].kind == WS_ACTIVITY_KERNEL)
        {
          g_array_append_val (kernels, s);
          g_array_append_val (both, s);
        }
    }
  if (busy->len == 0)
    return;
  /* A window asked for spans what it spans; a run's totals span its own activities. */
  if (phase < 0)
    lo = start, hi = end;
  /* Saturating: a run's activities across the whole of int64 give totals of G_MAXINT64, not
   * an overflow. */
  t->span_ns = ws_ns_sub_saturated (hi, lo);
  t->copy_ns = union_length (copies);
  t->h2d_ns = union_length (h2d);
  t->d2h_ns = union_length (d2h);
  t->kernel_ns = union_length (kernels);
  t->overlap_ns = MAX (ws_ns_sub_saturated (ws_ns_add_saturated (t->copy_ns, t->kernel_ns),
                                            union_length (both)), 0);
  t->idle_ns = MAX (ws_ns_sub_saturated (t->span_ns, union_length (busy)), 0);
}

void
ws_run_get_totals (WsRun *self, WsTotals *totals)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (self, &n);

  totals_filtered (a, n, G_MININT64, G_MAXINT64, WS_PHASE_SEQUENCE, totals);
}

void
ws_totals_for_window (const WsSpan *activities, guint n, gint64 start, gint64 end,
                      WsTotals *totals)
{
  /* Activities lie within ±2^53 ns; a wider window's span would overflow as it grows to
   * G_MININT64…G_MAXINT64, and holds nothing more. */
  const gint64 limit = G_GINT64_CONSTANT (1) << 61;

  totals_filtered (activities, n, CLAMP (start, -limit, limit), CLAMP (end, -limit, limit), -1,
                   totals);
}

char *
ws_runs_dup_kernels_label (GPtrArray *runs)
{
  GString *kernels = g_string_new (NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint named = 0;

  for (guint i = 0; i < runs->len; i++)
    {
      const char *k = ws_run_get_config (g_ptr_array_index (runs, i))->kernel;

      if (k == NULL || !g_hash_table_add (seen, (gpointer) k))
        continue;
      if (named++ < 3)
        g_string_append_printf (kernels, "%s%s", named > 1 ? ", " : "", k);
    }
  if (named > 3)
    g_string_append_printf (kernels, _(" and %u more"), named - 3);
  return g_string_free (kernels, FALSE);
}

gint64
ws_runs_compared_length (WsRun *a, WsRun *b)
{
  gint64 sa, ea, sb, eb;

  g_return_val_if_fail (WS_IS_RUN (a) && WS_IS_RUN (b), 0);
  if (!ws_run_get_time_range (a, &sa, &ea) || !ws_run_get_time_range (b, &sb, &eb))
    return 0;
  return MAX (MAX (ws_time_length (sa, ea), ws_time_length (sb, eb)), 1000);
}
