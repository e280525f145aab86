/* ws-run-columns-json.c: a run's columns as the report's JSON has them: the members of the
 * run's object, some grouped into objects of their own ("kernel_ns": {median, min, max, n}).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-run-columns.h"

#include <string.h>

/* ---- the objects that group members ------------------------------------------------------ */

typedef enum
{
  GROUP_PRESENT,
  GROUP_NULL,   /* written as null: statistics without repetitions, a baseline not asked for */
  GROUP_ABSENT, /* left out, with its members: a baseline of a run without timings */
} GroupState;

typedef struct
{
  const char *path; /* "cpu_1.ns" */
  const char *key;  /* its member in the object around it: "ns" */
  GroupState (*state) (WsRun *run);
} Group;

#define TIMING(run) ws_run_get_timing (run)

#define STATS_STATE(name, member)                                                              \
  static GroupState name (WsRun *r)                                                            \
  {                                                                                            \
    return TIMING (r) != NULL && TIMING (r)->member.n > 0 ? GROUP_PRESENT : GROUP_NULL;        \
  }

STATS_STATE (kernel_state, kernel)
STATS_STATE (e2e_state, e2e)
STATS_STATE (h2d_state, h2d)
STATS_STATE (d2h_state, d2h)

/* A baseline is written wherever the run has timings (null when it was not asked for); the
 * other implementation beside it only where there was one. */
#define BASELINE_STATES(prefix, member, absent)                                                \
  static GroupState prefix##_state (WsRun *r)                                                  \
  {                                                                                            \
    if (TIMING (r) == NULL)                                                                    \
      return GROUP_ABSENT;                                                                     \
    return TIMING (r)->member.present ? GROUP_PRESENT : absent;                                \
  }                                                                                            \
  static GroupState prefix##_ns_state (WsRun *r)                                               \
  {                                                                                            \
    const WsCpuBaseline *b = &TIMING (r)->member;                                              \
                                                                                               \
    return !b->skipped && b->stats.n > 0 ? GROUP_PRESENT : GROUP_NULL;                         \
  }

BASELINE_STATES (cpu_1, cpu_one, GROUP_NULL)
BASELINE_STATES (cpu_all, cpu_all, GROUP_NULL)
BASELINE_STATES (cpu_1_other, cpu_one_other, GROUP_ABSENT)
BASELINE_STATES (cpu_all_other, cpu_all_other, GROUP_ABSENT)

static GroupState
always (WsRun *r)
{
  return GROUP_PRESENT;
}

static const Group groups[] = {
  { "kernel_ns", "kernel_ns", kernel_state },
  { "e2e_ns", "e2e_ns", e2e_state },
  { "h2d_ns", "h2d_ns", h2d_state },
  { "d2h_ns", "d2h_ns", d2h_state },
  { "cpu_1", "cpu_1", cpu_1_state },
  { "cpu_1.ns", "ns", cpu_1_ns_state },
  { "cpu_all", "cpu_all", cpu_all_state },
  { "cpu_all.ns", "ns", cpu_all_ns_state },
  { "cpu_1_other", "cpu_1_other", cpu_1_other_state },
  { "cpu_1_other.ns", "ns", cpu_1_other_ns_state },
  { "cpu_all_other", "cpu_all_other", cpu_all_other_state },
  { "cpu_all_other.ns", "ns", cpu_all_other_ns_state },
  { "speedup", "speedup", always },
};

static const Group *
find_group (const char *path, gsize length)
{
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    if (strlen (groups[i].path) == length && strncmp (groups[i].path, path, length) == 0)
      return &groups[i];
  return NULL;
}

/* Whether the member at `path` is inside the group at `group`. */
static gboolean
is_inside (const char *path, const char *group)
{
  gsize length = strlen (group);

  return strncmp (path, group, length) == 0 && path[length] == '.';
}

/* ---- the order ---------------------------------------------------------------------------- */

#define BASELINE_ORDER(key)                                                                    \
  key "_threads", key "_skipped", key "_ns_median", key "_ns_min", key "_ns_max", key "_ns_n", \
    key "_note", key "_implementation", key "_library_name", key "_library_version"

/* The columns in the JSON's order (keys of ws-run-columns.c): the configuration, the times,
 * the baselines, the rates, the launch, the verification, the findings. */
static const char *const json_order[] = {
  "run", "kernel", "family", "shape", "size", "size_label", "block", "block_label", "transfer",
  "state", "state_text",
  "kernel_ns_median", "kernel_ns_min", "kernel_ns_max", "kernel_ns_n", "kernel_untraced_ns",
  "e2e_ns_median", "e2e_ns_min", "e2e_ns_max", "e2e_ns_n",
  "h2d_ns_median", "h2d_ns_min", "h2d_ns_max", "h2d_ns_n",
  "d2h_ns_median", "d2h_ns_min", "d2h_ns_max", "d2h_ns_n",
  BASELINE_ORDER ("cpu_1"), BASELINE_ORDER ("cpu_all"), BASELINE_ORDER ("cpu_1_other"),
  BASELINE_ORDER ("cpu_all_other"),
  "cache",
  "speedup_kernel_vs_1", "speedup_e2e_vs_1", "speedup_kernel_vs_all", "speedup_e2e_vs_all",
  "kernel_gbs", "kernel_gflops",
  "occupancy", "limiter", "active_blocks_per_sm", "waves",
  "params", "verified", "max_rel_err",
  "findings",
};

/* The columns of json_order, looked up once: a report writes them for every run. */
static const WsRunColumn *const *
ordered_columns (void)
{
  static const WsRunColumn *columns[G_N_ELEMENTS (json_order)];
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (json_order); i++)
        {
          columns[i] = ws_run_column_find (json_order[i]);
          g_assert (columns[i] != NULL && columns[i]->json != NULL);
        }
      g_once_init_leave (&done, 1);
    }
  return columns;
}

/* ---- values -------------------------------------------------------------------------------- */

static void
write_member (WsJsonWriter *json, const char *key, const WsRunColumn *column, WsRun *run,
              const WsRunColumnContext *context)
{
  WsRunValue v;

  if (column->json_type == WS_RUN_JSON_FINDINGS)
    {
      GPtrArray *findings = context != NULL ? context->findings : NULL;

      ws_json_writer_begin_array (json, key);
      for (guint i = 0; findings != NULL && i < findings->len; i++)
        ws_finding_write_json (json, g_ptr_array_index (findings, i), WS_FINDING_ABOUT_RUN,
                               context->audience);
      ws_json_writer_end_array (json);
      return;
    }
  ws_run_column_get (column, run, context, &v);
  switch (v.kind)
    {
    case WS_RUN_VALUE_ABSENT:
      break;
    case WS_RUN_VALUE_EMPTY:
      ws_json_writer_null (json, key);
      break;
    case WS_RUN_VALUE_DIMS:
      ws_json_writer_begin_inline_array (json, key);
      for (int i = 0; i < v.rank && i < 3; i++)
        ws_json_writer_int (json, NULL, (gint64) v.dims[i]);
      ws_json_writer_end_array (json);
      break;
    case WS_RUN_VALUE_TEXT:
      if (column->json_type == WS_RUN_JSON_BOOLEAN)
        ws_json_writer_bool (json, key, g_str_equal (v.text, "true"));
      else
        ws_json_writer_string (json, key, v.text);
      break;
    case WS_RUN_VALUE_NUMBER:
    default:
      if (column->json_type == WS_RUN_JSON_INTEGER)
        ws_json_writer_int (json, key, (gint64) v.number);
      else
        ws_json_writer_double (json, key, v.number);
      break;
    }
  ws_run_value_clear (&v);
}

/* ---- the row ------------------------------------------------------------------------------- */

#define MAX_DEPTH 4

/* The run's counters, where they were read, as the runner wrote them: by the catalogue's keys,
 * null where one was not read (docs/counters.md). A run without them has no member. */
static void
write_counters (WsJsonWriter *json, const WsCounters *c)
{
  size_t n;
  const WsCounterMetric *m = ws_counters_metrics (&n);

  if (c == NULL)
    return;
  ws_json_writer_begin_object (json, "counters");
  ws_json_writer_string (json, "chip", c->chip);
  ws_json_writer_string (json, "groups", c->groups);
  ws_json_writer_int (json, "passes", c->passes);
  ws_json_writer_double (json, "cost_ns", c->cost_ns);
  ws_json_writer_begin_object (json, "values");
  for (size_t i = 0; i < n; i++)
    if (isfinite (c->values[i]))
      ws_json_writer_double (json, m[i].key, c->values[i]);
  ws_json_writer_end_object (json);
  ws_json_writer_end_object (json);
}

void
ws_run_columns_write_json (WsJsonWriter *json, WsRun *run, const WsRunColumnContext *context)
{
  const char *open[MAX_DEPTH]; /* the groups now open, outermost first */
  guint depth = 0;
  const char *skip = NULL; /* a group written as null or left out: not its members */
  const WsRunColumn *const *columns;

  g_return_if_fail (json != NULL && WS_IS_RUN (run));
  columns = ordered_columns ();
  for (guint i = 0; i < G_N_ELEMENTS (json_order); i++)
    {
      const char *path = columns[i]->json, *key;

      if (skip != NULL && is_inside (path, skip))
        continue;
      skip = NULL;
      while (depth > 0 && !is_inside (path, open[depth - 1]))
        {
          ws_json_writer_end_object (json);
          depth--;
        }
      key = path + (depth > 0 ? strlen (open[depth - 1]) + 1 : 0);
      for (const char *dot = strchr (key, '.'); dot != NULL; dot = strchr (key, '.'))
        {
          const Group *group = find_group (path, (gsize) (dot - path));

          g_assert (group != NULL && depth < MAX_DEPTH);
          switch (group->state (run))
            {
            case GROUP_NULL:
              ws_json_writer_null (json, group->key);
              G_GNUC_FALLTHROUGH;
            case GROUP_ABSENT:
              skip = group->path;
              break;
            case GROUP_PRESENT:
            default:
              ws_json_writer_begin_object (json, group->key);
              open[depth++] = group->path;
              key = dot + 1;
              continue;
            }
          break;
        }
      if (skip == NULL)
        write_member (json, key, columns[i], run, context);
    }
  while (depth-- > 0)
    ws_json_writer_end_object (json);
  write_counters (json, ws_run_get_counters (run));
}
