/* ws-session-ranges.c: the range of every number the model reads from a record, in one
 * table, so that a file cannot hand the views a number they would misprint or overflow on.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-json-util.h"
#include "ws-record.h"

typedef enum
{
  WHOLE,   /* an integer in [min, max] */
  WHOLES,  /* an array of them */
  NUMBER,  /* a number in [min, max] (max may be HUGE_VAL: no upper bound) */
  UINT64,  /* an integer in [0, 2^64 - 1] */
  TEXT,    /* a string (or null): the views read these through json-glib, whose string
            * getters hand back NULL for a number and fail an assertion for an array */
} Kind;

typedef struct
{
  const char *type;
  const char *object; /* NULL: a member of the record itself */
  const char *field;
  Kind kind;
  double min, max;    /* every bound below is exact in a double */
} Range;

#define INT32 0, G_MAXINT32
#define UINT32 0, G_MAXUINT32
#define UINT16 0, G_MAXUINT16
/* Byte counts, element counts and times in ns: beyond 2^53 a double (what charts and
 * rates compute in) no longer holds every integer, and no GPU's memory or session comes near
 * (8 PiB; 104 days). */
#define EXACT 0, WS_MAX_EXACT
/* CUDA's limits on every GPU since compute capability 2.0: 1024 threads per block, 1024 in
 * x and y, 64 in z. */
#define THREADS 0, 1024
/* The runner refuses a size of 0, and a problem of no elements has no place on a size axis. */
#define SIZE 1, WS_MAX_EXACT
/* Shared memory in bytes: 512 MiB, 2,000 times an H200's per SM, so that static and dynamic
 * add up within an int. */
#define SMEM 0, 1 << 29
/* Rates and amounts of work a GPU could not reach by a factor of a hundred or more (an H200:
 * 4,800 GB/s, 67,000 GFLOP/s), so that charts on logarithmic axes span a few dozen decades,
 * not six hundred. */
#define GBS 0, 1e6
#define GFLOPS 0, 1e9
#define FLOPS 0, 1e24
#define NONNEGATIVE 0, HUGE_VAL

static const Range ranges[] = {
  { "hello", NULL, "runner", TEXT, 0, 0 },
  { "hello", NULL, "build", TEXT, 0, 0 },
  { "hello", NULL, "gpu_archs", TEXT, 0, 0 },
  { "hello", NULL, "time", TEXT, 0, 0 },
  { "hello", NULL, "host", TEXT, 0, 0 },
  { "hello", NULL, "driver_cuda", TEXT, 0, 0 },
  { "hello", NULL, "runtime_cuda", TEXT, 0, 0 },
  { "hello", NULL, "protocol", WHOLE, 1, G_MAXINT32 },
  { "hello", NULL, "driver_version", WHOLE, INT32 },
  { "hello", NULL, "runtime_version", WHOLE, INT32 },
  { "hello", NULL, "cupti_version", WHOLE, INT32 },

  { "device", NULL, "index", WHOLE, UINT16 },
  { "device", NULL, "sm_count", WHOLE, UINT16 },
  { "device", NULL, "warp_size", WHOLE, 1, 1024 },
  { "device", NULL, "max_threads_per_block", WHOLE, 0, 1 << 20 },
  { "device", NULL, "max_block_dim", WHOLES, INT32 },
  { "device", NULL, "max_grid_dim", WHOLES, INT32 },
  { "device", NULL, "max_threads_per_sm", WHOLE, 0, 1 << 20 },
  { "device", NULL, "max_blocks_per_sm", WHOLE, 0, 1 << 20 },
  { "device", NULL, "regs_per_sm", WHOLE, 0, 1 << 30 },
  { "device", NULL, "regs_per_block", WHOLE, 0, 1 << 30 },
  { "device", NULL, "smem_per_sm", WHOLE, SMEM },
  { "device", NULL, "smem_per_block", WHOLE, SMEM },
  { "device", NULL, "smem_per_block_optin", WHOLE, SMEM },
  { "device", NULL, "reserved_smem_per_block", WHOLE, SMEM },
  { "device", NULL, "l2_bytes", WHOLE, EXACT },
  { "device", NULL, "memory_bytes", WHOLE, EXACT },
  { "device", NULL, "memory_free_bytes", WHOLE, EXACT },
  { "device", NULL, "memory_clock_khz", WHOLE, INT32 },
  { "device", NULL, "bus_width_bits", WHOLE, INT32 },
  { "device", NULL, "sm_clock_khz", WHOLE, INT32 },
  { "device", NULL, "async_engines", WHOLE, UINT16 },
  { "device", NULL, "fp32_lanes_per_sm", WHOLE, UINT16 },
  { "device", NULL, "fp32_peak_gflops", NUMBER, GFLOPS },
  { "device", NULL, "bandwidth_theoretical_gbs", NUMBER, GBS },
  { "device", NULL, "bandwidth_measured_gbs", NUMBER, GBS },
  { "device", NULL, "h2d_pinned_gbs", NUMBER, GBS },
  { "device", NULL, "d2h_pinned_gbs", NUMBER, GBS },
  { "device", NULL, "h2d_pageable_gbs", NUMBER, GBS },
  { "device", NULL, "d2h_pageable_gbs", NUMBER, GBS },
  { "device", NULL, "calibration_bytes", WHOLE, EXACT },

  { "kernel", NULL, "name", TEXT, 0, 0 },
  { "kernel", NULL, "family", TEXT, 0, 0 },
  { "kernel", NULL, "title", TEXT, 0, 0 },
  { "kernel", NULL, "description", TEXT, 0, 0 },
  { "kernel", NULL, "source", TEXT, 0, 0 },
  { "kernel", NULL, "flops", TEXT, 0, 0 },
  { "kernel", NULL, "bytes", TEXT, 0, 0 },
  { "kernel", NULL, "tolerance", TEXT, 0, 0 },
  { "kernel", NULL, "library", TEXT, 0, 0 },
  { "kernel", NULL, "block_dims", WHOLE, 1, 3 },
  { "kernel", NULL, "default_shape", WHOLES, SIZE },
  { "kernel", NULL, "default_block", WHOLES, THREADS },

  { "run", NULL, "id", WHOLE, INT32 },
  { "run", NULL, "shape", WHOLES, SIZE },
  { "run", NULL, "size", NUMBER, SIZE },
  { "run", NULL, "block", WHOLES, THREADS },
  { "run", NULL, "grid", WHOLES, UINT32 },
  { "run", NULL, "threads_per_block", WHOLE, THREADS },
  { "run", NULL, "streams", WHOLE, UINT16 },
  { "run", NULL, "reps", WHOLE, INT32 },
  { "run", NULL, "warmup", WHOLE, INT32 },
  { "run", NULL, "seed", UINT64, 0, 0 },
  { "run", NULL, "flops", NUMBER, FLOPS },
  { "run", NULL, "bytes", NUMBER, EXACT },
  { "run", NULL, "input_bytes", WHOLE, EXACT },
  { "run", NULL, "output_bytes", WHOLE, EXACT },

  { "launch", NULL, "run", WHOLE, INT32 },
  { "launch", NULL, "registers", WHOLE, UINT16 },
  { "launch", NULL, "static_smem", WHOLE, SMEM },
  { "launch", NULL, "dynamic_smem", WHOLE, SMEM },
  { "launch", NULL, "local_bytes", WHOLE, INT32 },
  { "launch", NULL, "kernel_max_threads", WHOLE, THREADS },
  { "launch", NULL, "threads_per_block", WHOLE, THREADS },
  { "launch", NULL, "warps_per_block", WHOLE, THREADS },
  { "launch", NULL, "active_blocks_per_sm", WHOLE, UINT16 },
  { "launch", NULL, "active_warps_per_sm", WHOLE, UINT16 },
  { "launch", NULL, "max_warps_per_sm", WHOLE, UINT16 },
  { "launch", NULL, "occupancy", NUMBER, 0, 1 },
  { "launch", "limits", "blocks_per_sm", WHOLE, UINT16 },
  { "launch", "limits", "warps", WHOLE, UINT16 },
  { "launch", "limits", "registers", WHOLE, UINT16 },
  { "launch", "limits", "shared_memory", WHOLE, UINT16 },
  { "launch", NULL, "blocks", WHOLE, EXACT },
  { "launch", NULL, "waves", NUMBER, EXACT },

  /* An own kernel's records (ws-session-own.c). */
  { "compile", NULL, "ms", NUMBER, EXACT },
  { "compile", NULL, "errors", WHOLE, INT32 },
  { "compile", NULL, "warnings", WHOLE, INT32 },
  { "memcheck", NULL, "line", WHOLE, INT32 },
  { "memcheck", NULL, "size", WHOLE, INT32 },
  { "memcheck", NULL, "count", WHOLE, INT32 },
  { "memcheck", NULL, "thread", WHOLES, UINT32 },
  { "memcheck", NULL, "block", WHOLES, UINT32 },
  { "error", NULL, "line", WHOLE, INT32 },
  { "error", NULL, "column", WHOLE, INT32 },

  /* The fast path in ws-session-reader.c checks the same ranges: keep them together. */
  { "activity", NULL, "run", WHOLE, INT32 },
  { "activity", NULL, "rep", WHOLE, UINT32 },
  { "activity", NULL, "start", WHOLE, -WS_MAX_EXACT, WS_MAX_EXACT },
  { "activity", NULL, "end", WHOLE, -WS_MAX_EXACT, WS_MAX_EXACT },
  { "activity", NULL, "bytes", WHOLE, EXACT },
  { "activity", NULL, "stream", WHOLE, UINT32 },
  { "activity", NULL, "correlation", WHOLE, UINT32 },
  { "activity", NULL, "grid", WHOLES, UINT32 },
  { "activity", NULL, "block", WHOLES, UINT32 },
  { "activity", NULL, "registers", WHOLE, UINT16 },
  { "activity", NULL, "static_smem", WHOLE, SMEM },
  { "activity", NULL, "dynamic_smem", WHOLE, SMEM },
  { "activity", NULL, "threads", WHOLE, UINT16 },

#define STATS(member)                                                                          \
  { "timing", member, "median", NUMBER, EXACT }, { "timing", member, "min", NUMBER, EXACT },    \
    { "timing", member, "max", NUMBER, EXACT }, { "timing", member, "n", WHOLE, INT32 }
  STATS ("kernel_ns"),
  STATS ("kernel_in_sequence_ns"),
  STATS ("h2d_ns"),
  STATS ("d2h_ns"),
  STATS ("memset_ns"),
  STATS ("e2e_ns"),
  STATS ("cpu_1"),
  STATS ("cpu_all"),
#undef STATS
  { "timing", NULL, "kernel_untraced_ns", NUMBER, EXACT },
  { "timing", NULL, "untraced_launches", WHOLE, INT32 },
  { "timing", "cpu_1", "threads", WHOLE, INT32 },
  { "timing", "cpu_1", "estimate", NUMBER, EXACT },
  { "timing", "cpu_1", "from_run", WHOLE, INT32 },
  { "timing", "cpu_all", "threads", WHOLE, INT32 },
  { "timing", "cpu_all", "estimate", NUMBER, EXACT },
  { "timing", "cpu_all", "from_run", WHOLE, INT32 },

  { "verify", NULL, "run", WHOLE, INT32 },
  { "verify", NULL, "checked", WHOLE, EXACT },
  { "verify", NULL, "total", WHOLE, EXACT },
  { "verify", NULL, "mismatches", WHOLE, EXACT },
  { "verify", NULL, "unwritten", WHOLE, EXACT },
  { "verify", NULL, "max_abs_err", NUMBER, NONNEGATIVE },
  { "verify", NULL, "max_rel_err", NUMBER, NONNEGATIVE },
  { "verify", NULL, "rtol", NUMBER, NONNEGATIVE },
  { "verify", NULL, "atol", NUMBER, NONNEGATIVE },
  { "verify", NULL, "first_bad_index", WHOLE, -1, WS_MAX_EXACT },

  { "timing", NULL, "run", WHOLE, INT32 },
  { "progress", NULL, "done", WHOLE, INT32 },
  { "progress", NULL, "total", WHOLE, INT32 },
  { "done", NULL, "exit_code", WHOLE, 0, 255 },
  { "done", NULL, "dropped_records", WHOLE, EXACT },
  { "error", NULL, "run", WHOLE, INT32 },
};

/* A bound as the shortest text that reads back the same: "1", "0.5", "9007199254740992",
 * "1e24". */
static char *
number_text (double value)
{
  GString *s = g_string_new (NULL);

  if (value == floor (value) && fabs (value) <= WS_MAX_EXACT)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, (gint64) value);
  else
    {
      char *plus;

      _ws_json_append_double (s, value);
      if ((plus = strstr (s->str, "e+")) != NULL) /* "1e24", as a person writes it */
        g_string_erase (s, plus - s->str + 1, 1);
    }
  return g_string_free (s, FALSE);
}

/* The number as the file spells it, so that a person finds it: "7.5", "1e300". */
static char *
value_text (const char *text, gsize length, guint offset)
{
  gsize end = offset;

  while (end < length && end - offset < 40 && strchr ("+-.0123456789eE", text[end]) != NULL
         && text[end] != '\0')
    end++;
  return g_strndup (text + offset, end - offset);
}

/* The name a person reads: "occupancy", "kernel_ns.median", "grid[1]". */
static char *
field_name (const Range *range, int index)
{
  g_autofree char *path = range->object ? g_strdup_printf ("%s.%s", range->object, range->field)
                                        : g_strdup (range->field);

  return index < 0 ? g_steal_pointer (&path) : g_strdup_printf ("%s[%d]", path, index);
}

static gboolean
refuse (const Range *range, int index, const char *value, GError **error)
{
  g_autofree char *field = field_name (range, index);
  g_autofree char *min = number_text (range->min);
  g_autofree char *max = range->kind == UINT64 ? g_strdup ("18446744073709551615")
                                               : number_text (range->max);

  if (range->kind == NUMBER && range->max == HUGE_VAL)
    /* Translators: a number read from a file, e.g. field "rtol" is -1, below 0. */
    g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED,
                 _("field \"%s\" is %s, below %s"), field, value, min);
  else
    /* Translators: a number read from a file, e.g. field "occupancy" is 7.5, outside 0–1. */
    g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED,
                 _("field \"%s\" is %s, outside %s–%s"), field, value, min, max);
  return FALSE;
}

static gboolean
check_number (const WsRecord *r, WsRecordNode node, const Range *range, int index,
              const char *text, gsize length, guint *column, GError **error)
{
  double d;
  gint64 i;
  gboolean ok;

  if (ws_record_type (r, node) != WS_RECORD_INT && ws_record_type (r, node) != WS_RECORD_DOUBLE)
    return TRUE; /* null, absent or of another type: read as "not known" */
  ws_record_node_double (r, node, &d);
  if (range->kind == NUMBER)
    ok = d >= range->min && d <= range->max;
  else if (d != floor (d))
    {
      g_autofree char *value = value_text (text, length, ws_record_offset (r, node));
      g_autofree char *field = field_name (range, index);

      *column = ws_record_offset (r, node) + 1;
      g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED,
                   _("field \"%s\" is %s, not a whole number"), field, value);
      return FALSE;
    }
  else if (range->kind == UINT64)
    ok = ws_record_type (r, node) == WS_RECORD_INT
           ? !ws_record_node_int (r, node, &i) || i >= 0 /* above G_MAXINT64, or not negative */
           : d >= 0 && d < 18446744073709551616.0;
  else if (ws_record_node_int (r, node, &i))
    ok = i >= (gint64) range->min && i <= (gint64) range->max;
  else
    ok = FALSE; /* a whole number beyond gint64 */
  if (!ok)
    {
      g_autofree char *value = value_text (text, length, ws_record_offset (r, node));

      *column = ws_record_offset (r, node) + 1;
      return refuse (range, index, value, error);
    }
  return TRUE;
}

static gboolean
check_text (const WsRecord *r, WsRecordNode node, const Range *range, guint *column,
            GError **error)
{
  WsRecordType type = ws_record_type (r, node);

  if (type == WS_RECORD_STRING || type == WS_RECORD_NULL)
    return TRUE;
  *column = ws_record_offset (r, node) + 1;
  /* Translators: a member of a record read from a file, e.g. field "time" is not text. */
  g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED,
               _("field \"%s\" is not text (a string in quotes)"), range->field);
  return FALSE;
}

/* An activity ends after it starts: a negative duration would be drawn backwards and summed
 * as a negative time. */
static gboolean
check_activity (const WsRecord *r, const char *text, gsize length, guint *column,
                GError **error)
{
  WsRecordNode start = ws_record_member (r, WS_RECORD_ROOT, "start");
  WsRecordNode end = ws_record_member (r, WS_RECORD_ROOT, "end");
  gint64 s, e;

  if (!ws_record_node_int (r, start, &s) || !ws_record_node_int (r, end, &e) || e >= s)
    return TRUE;
  {
    g_autofree char *end_text = value_text (text, length, ws_record_offset (r, end));
    g_autofree char *start_text = value_text (text, length, ws_record_offset (r, start));

    *column = ws_record_offset (r, end) + 1;
    g_set_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED,
                 _("the activity ends (\"end\" %s) before it starts (\"start\" %s)"), end_text,
                 start_text);
    return FALSE;
  }
}

gboolean
_ws_session_check_ranges (const WsRecord *r, const char *type, const char *text, gsize length,
                          guint *column, GError **error)
{
  for (gsize i = 0; i < G_N_ELEMENTS (ranges); i++)
    {
      const Range *range = &ranges[i];
      WsRecordNode object = WS_RECORD_ROOT, node;

      if (!g_str_equal (range->type, type))
        continue;
      if (range->object != NULL
          && (object = ws_record_object (r, WS_RECORD_ROOT, range->object)) == WS_RECORD_NONE)
        continue;
      node = ws_record_member (r, object, range->field);
      if (node == WS_RECORD_NONE)
        continue;
      if (range->kind == TEXT)
        {
          if (!check_text (r, node, range, column, error))
            return FALSE;
          continue;
        }
      if (range->kind != WHOLES)
        {
          if (!check_number (r, node, range, -1, text, length, column, error))
            return FALSE;
          continue;
        }
      if (ws_record_type (r, node) != WS_RECORD_ARRAY)
        continue;
      node = ws_record_first_child (r, node);
      for (int k = 0; node != WS_RECORD_NONE; node = ws_record_next_sibling (r, node), k++)
        if (!check_number (r, node, range, k, text, length, column, error))
          return FALSE;
    }
  if (g_str_equal (type, "activity"))
    return check_activity (r, text, length, column, error);
  return TRUE;
}
