/* ws-session-ranges.c: the range of every number the model reads from a record, in one
 * table, so that a file cannot hand the views a number they would misprint or overflow on.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-json-writer.h"
#include "ws-protocol.h"
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
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_RUNNER, TEXT, 0, 0 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_BUILD, TEXT, 0, 0 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_GPU_ARCHS, TEXT, 0, 0 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_TIME, TEXT, 0, 0 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_HOST, TEXT, 0, 0 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_DRIVER_CUDA, TEXT, 0, 0 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_RUNTIME_CUDA, TEXT, 0, 0 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_PROTOCOL, WHOLE, 1, G_MAXINT32 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_DRIVER_VERSION, WHOLE, INT32 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_RUNTIME_VERSION, WHOLE, INT32 },
  { WS_RECORD_TYPE_HELLO, NULL, WS_KEY_CUPTI_VERSION, WHOLE, INT32 },

  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_INDEX, WHOLE, UINT16 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_SM_COUNT, WHOLE, UINT16 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_WARP_SIZE, WHOLE, 1, 1024 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MAX_THREADS_PER_BLOCK, WHOLE, 0, 1 << 20 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MAX_BLOCK_DIM, WHOLES, INT32 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MAX_GRID_DIM, WHOLES, INT32 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MAX_THREADS_PER_SM, WHOLE, 0, 1 << 20 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MAX_BLOCKS_PER_SM, WHOLE, 0, 1 << 20 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_REGS_PER_SM, WHOLE, 0, 1 << 30 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_REGS_PER_BLOCK, WHOLE, 0, 1 << 30 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_SMEM_PER_SM, WHOLE, SMEM },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_SMEM_PER_BLOCK, WHOLE, SMEM },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_SMEM_PER_BLOCK_OPTIN, WHOLE, SMEM },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_RESERVED_SMEM_PER_BLOCK, WHOLE, SMEM },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_L2_BYTES, WHOLE, EXACT },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MEMORY_BYTES, WHOLE, EXACT },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MEMORY_FREE_BYTES, WHOLE, EXACT },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_MEMORY_CLOCK_KHZ, WHOLE, INT32 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_BUS_WIDTH_BITS, WHOLE, INT32 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_SM_CLOCK_KHZ, WHOLE, INT32 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_ASYNC_ENGINES, WHOLE, UINT16 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_FP32_LANES_PER_SM, WHOLE, UINT16 },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_FP32_PEAK_GFLOPS, NUMBER, GFLOPS },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_BANDWIDTH_THEORETICAL_GBS, NUMBER, GBS },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_BANDWIDTH_MEASURED_GBS, NUMBER, GBS },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_H2D_PINNED_GBS, NUMBER, GBS },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_D2H_PINNED_GBS, NUMBER, GBS },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_H2D_PAGEABLE_GBS, NUMBER, GBS },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_D2H_PAGEABLE_GBS, NUMBER, GBS },
  { WS_RECORD_TYPE_DEVICE, NULL, WS_KEY_CALIBRATION_BYTES, WHOLE, EXACT },

  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_NAME, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_FAMILY, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_TITLE, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_DESCRIPTION, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_SOURCE, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_FLOPS, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_BYTES, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_TOLERANCE, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_LIBRARY, TEXT, 0, 0 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_BLOCK_DIMS, WHOLE, 1, 3 },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_DEFAULT_SHAPE, WHOLES, SIZE },
  { WS_RECORD_TYPE_KERNEL, NULL, WS_KEY_DEFAULT_BLOCK, WHOLES, THREADS },

  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_ID, WHOLE, INT32 },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_SHAPE, WHOLES, SIZE },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_SIZE, NUMBER, SIZE },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_BLOCK, WHOLES, THREADS },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_GRID, WHOLES, UINT32 },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_THREADS_PER_BLOCK, WHOLE, THREADS },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_STREAMS, WHOLE, UINT16 },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_REPS, WHOLE, INT32 },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_WARMUP, WHOLE, INT32 },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_SEED, UINT64, 0, 0 },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_FLOPS, NUMBER, FLOPS },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_BYTES, NUMBER, EXACT },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_INPUT_BYTES, WHOLE, EXACT },
  { WS_RECORD_TYPE_RUN, NULL, WS_KEY_OUTPUT_BYTES, WHOLE, EXACT },

  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_RUN, WHOLE, INT32 },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_REGISTERS, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_STATIC_SMEM, WHOLE, SMEM },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_DYNAMIC_SMEM, WHOLE, SMEM },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_LOCAL_BYTES, WHOLE, INT32 },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_KERNEL_MAX_THREADS, WHOLE, THREADS },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_THREADS_PER_BLOCK, WHOLE, THREADS },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_WARPS_PER_BLOCK, WHOLE, THREADS },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_ACTIVE_BLOCKS_PER_SM, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_ACTIVE_WARPS_PER_SM, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_MAX_WARPS_PER_SM, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_OCCUPANCY, NUMBER, 0, 1 },
  { WS_RECORD_TYPE_LAUNCH, WS_KEY_LIMITS, WS_KEY_BLOCKS_PER_SM, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, WS_KEY_LIMITS, WS_KEY_WARPS, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, WS_KEY_LIMITS, WS_KEY_REGISTERS, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, WS_KEY_LIMITS, WS_KEY_SHARED_MEMORY, WHOLE, UINT16 },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_BLOCKS, WHOLE, EXACT },
  { WS_RECORD_TYPE_LAUNCH, NULL, WS_KEY_WAVES, NUMBER, EXACT },

  /* An own kernel's records (ws-session-own.c). */
  { WS_RECORD_TYPE_COMPILE, NULL, WS_KEY_MS, NUMBER, EXACT },
  { WS_RECORD_TYPE_COMPILE, NULL, WS_KEY_ERRORS, WHOLE, INT32 },
  { WS_RECORD_TYPE_COMPILE, NULL, WS_KEY_WARNINGS, WHOLE, INT32 },
  { WS_RECORD_TYPE_MEMCHECK, NULL, WS_KEY_LINE, WHOLE, INT32 },
  { WS_RECORD_TYPE_MEMCHECK, NULL, WS_KEY_SIZE, WHOLE, INT32 },
  { WS_RECORD_TYPE_MEMCHECK, NULL, WS_KEY_COUNT, WHOLE, INT32 },
  { WS_RECORD_TYPE_MEMCHECK, NULL, WS_KEY_THREAD, WHOLES, UINT32 },
  { WS_RECORD_TYPE_MEMCHECK, NULL, WS_KEY_BLOCK, WHOLES, UINT32 },
  { WS_RECORD_TYPE_ERROR, NULL, WS_KEY_LINE, WHOLE, INT32 },
  { WS_RECORD_TYPE_ERROR, NULL, WS_KEY_COLUMN, WHOLE, INT32 },

  /* The fast path in ws-session-activity.c checks the same ranges: keep them together. */
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_RUN, WHOLE, INT32 },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_REP, WHOLE, UINT32 },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_START, WHOLE, -WS_MAX_EXACT, WS_MAX_EXACT },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_END, WHOLE, -WS_MAX_EXACT, WS_MAX_EXACT },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_BYTES, WHOLE, EXACT },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_STREAM, WHOLE, UINT32 },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_CORRELATION, WHOLE, UINT32 },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_GRID, WHOLES, UINT32 },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_BLOCK, WHOLES, UINT32 },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_REGISTERS, WHOLE, UINT16 },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_STATIC_SMEM, WHOLE, SMEM },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_DYNAMIC_SMEM, WHOLE, SMEM },
  { WS_RECORD_TYPE_ACTIVITY, NULL, WS_KEY_THREADS, WHOLE, UINT16 },

#define STATS(member)                                                                          \
  { WS_RECORD_TYPE_TIMING, member, WS_KEY_MEDIAN, NUMBER, EXACT },                             \
    { WS_RECORD_TYPE_TIMING, member, WS_KEY_MIN, NUMBER, EXACT },                              \
    { WS_RECORD_TYPE_TIMING, member, WS_KEY_MAX, NUMBER, EXACT },                              \
    { WS_RECORD_TYPE_TIMING, member, WS_KEY_N, WHOLE, INT32 }
  STATS (WS_KEY_KERNEL_NS),
  STATS (WS_KEY_KERNEL_IN_SEQUENCE_NS),
  STATS (WS_KEY_H2D_NS),
  STATS (WS_KEY_D2H_NS),
  STATS (WS_KEY_MEMSET_NS),
  STATS (WS_KEY_E2E_NS),
  STATS (WS_KEY_CPU_1),
  STATS (WS_KEY_CPU_ALL),
#undef STATS
  { WS_RECORD_TYPE_TIMING, NULL, WS_KEY_KERNEL_UNTRACED_NS, NUMBER, EXACT },
  { WS_RECORD_TYPE_TIMING, NULL, WS_KEY_UNTRACED_LAUNCHES, WHOLE, INT32 },
  { WS_RECORD_TYPE_TIMING, WS_KEY_CPU_1, WS_KEY_THREADS, WHOLE, INT32 },
  { WS_RECORD_TYPE_TIMING, WS_KEY_CPU_1, WS_KEY_ESTIMATE, NUMBER, EXACT },
  { WS_RECORD_TYPE_TIMING, WS_KEY_CPU_1, WS_KEY_FROM_RUN, WHOLE, INT32 },
  { WS_RECORD_TYPE_TIMING, WS_KEY_CPU_ALL, WS_KEY_THREADS, WHOLE, INT32 },
  { WS_RECORD_TYPE_TIMING, WS_KEY_CPU_ALL, WS_KEY_ESTIMATE, NUMBER, EXACT },
  { WS_RECORD_TYPE_TIMING, WS_KEY_CPU_ALL, WS_KEY_FROM_RUN, WHOLE, INT32 },
  { WS_RECORD_TYPE_TIMING, WS_KEY_CPU_ALL, WS_KEY_MAX_THREADS, WHOLE, INT32 },

  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_RUN, WHOLE, INT32 },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_CHECKED, WHOLE, EXACT },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_TOTAL, WHOLE, EXACT },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_MISMATCHES, WHOLE, EXACT },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_UNWRITTEN, WHOLE, EXACT },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_MAX_ABS_ERR, NUMBER, NONNEGATIVE },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_MAX_REL_ERR, NUMBER, NONNEGATIVE },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_RTOL, NUMBER, NONNEGATIVE },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_ATOL, NUMBER, NONNEGATIVE },
  { WS_RECORD_TYPE_VERIFY, NULL, WS_KEY_FIRST_BAD_INDEX, WHOLE, -1, WS_MAX_EXACT },

  { WS_RECORD_TYPE_TIMING, NULL, WS_KEY_RUN, WHOLE, INT32 },
  { WS_RECORD_TYPE_PROGRESS, NULL, WS_KEY_DONE, WHOLE, INT32 },
  { WS_RECORD_TYPE_PROGRESS, NULL, WS_KEY_TOTAL, WHOLE, INT32 },
  { WS_RECORD_TYPE_DONE, NULL, WS_KEY_EXIT_CODE, WHOLE, 0, 255 },
  { WS_RECORD_TYPE_DONE, NULL, WS_KEY_DROPPED_RECORDS, WHOLE, EXACT },
  { WS_RECORD_TYPE_ERROR, NULL, WS_KEY_RUN, WHOLE, INT32 },
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

      ws_json_append_double (s, value);
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
  WsRecordNode start = ws_record_member (r, WS_RECORD_ROOT, WS_KEY_START);
  WsRecordNode end = ws_record_member (r, WS_RECORD_ROOT, WS_KEY_END);
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
  if (g_str_equal (type, WS_RECORD_TYPE_ACTIVITY))
    return check_activity (r, text, length, column, error);
  return TRUE;
}
