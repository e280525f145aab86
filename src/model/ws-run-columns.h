/* ws-run-columns.h: the columns of a run, one list for every table and export of runs: the
 * CLI report's CSV and JSON, the chart export's CSV and the app's runs view.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ws-analysis.h"
#include "ws-json-writer.h"
#include "ws-run.h"

G_BEGIN_DECLS

typedef enum
{
  WS_RUN_VALUE_EMPTY,  /* not measured: an empty CSV field, null in JSON, "—" for people */
  WS_RUN_VALUE_NUMBER, /* exact; each format writes it its own way */
  WS_RUN_VALUE_TEXT,   /* a machine word or a name, never translated */
  WS_RUN_VALUE_DIMS,   /* dimensions: "4096x4096x1" in CSV, [4096, 4096] in JSON */
  WS_RUN_VALUE_ABSENT, /* the record it comes from is not there (no launch record yet): an
                        * empty CSV field; JSON leaves the member out */
} WsRunValueKind;

typedef struct
{
  WsRunValueKind kind;
  double number;
  char *text;
  guint64 dims[3];
  int rank; /* of dims: 1, 2 or 3 */
} WsRunValue;

void ws_run_value_clear (WsRunValue *value);
/* The value as a field of a CSV: nothing for what was not measured or is not there, text
 * with RFC 4180 quotes where it needs them, dimensions as "4096x4096x1" (a vector's one
 * number: "10000000"), a number through `number`: each CSV writes numbers its own way. */
void ws_run_value_append_csv (const WsRunValue *value, GString *out,
                              void (*number) (GString *out, double value));

/* How a number reads for people (ws-units.h). */
typedef enum
{
  WS_RUN_UNIT_PLAIN,    /* an id, a count: as it is */
  WS_RUN_UNIT_NS,       /* a duration */
  WS_RUN_UNIT_RATIO,    /* a speedup */
  WS_RUN_UNIT_GBS,
  WS_RUN_UNIT_GFLOPS,
  WS_RUN_UNIT_FRACTION, /* a percentage */
} WsRunUnit;

/* What a column's value is in the report's JSON (any of them may be null). */
typedef enum
{
  WS_RUN_JSON_NUMBER,   /* the shortest text that reads back as the same double */
  WS_RUN_JSON_INTEGER,
  WS_RUN_JSON_STRING,
  WS_RUN_JSON_BOOLEAN,  /* from the value "true" or "false" */
  WS_RUN_JSON_ARRAY,    /* of integers: the dimensions */
  WS_RUN_JSON_FINDINGS, /* an array of finding objects (ws_finding_write_json) */
} WsRunJsonType;

/* What a column's value may need beyond the run: its findings, as the caller filtered them
 * (GPtrArray of WsFinding, or NULL), and whose words their fixes are in. */
typedef struct
{
  GPtrArray *findings;
  WsAudience audience;
} WsRunColumnContext;

typedef struct
{
  /* The report's CSV header: "kernel_ns_median"; never translated. */
  const char *key;
  /* The header for people, N_(): "Kernel time"; NULL where no view shows the column. */
  const char *title;
  WsRunUnit unit;
  /* FALSE for a column the report's CSV does not have (the runs view's GPU, the JSON's
   * labels). */
  gboolean in_csv;
  /* Where the report's JSON has it in a run's object: a member ("kernel_gbs") or a path
   * into the objects that group members ("kernel_ns.median", "cpu_1.ns.n"); NULL where the
   * JSON does not have it. */
  const char *json;
  WsRunJsonType json_type;
  /* The chart export's CSV header where that CSV names the quantity otherwise
   * ("kernel_median_ns"); NULL: the key, where the export has the column at all. */
  const char *export_key;
  void (*get) (WsRun *run, const WsRunColumnContext *context, WsRunValue *value);
  /* The text for people where it is not the value in its unit ("n = 10,000,000" for a shape
   * whose value is "10000000"); NULL: ws_run_column_dup_text formats the value. */
  char *(*text) (WsRun *run);
} WsRunColumn;

/* The columns, in the order of the report's CSV (those not in it among them); `n` gets their
 * number. */
const WsRunColumn *ws_run_columns (guint *n);
/* The column with this key, or NULL. */
const WsRunColumn *ws_run_column_find (const char *key);
/* The column the chart export's CSV heads `export_key`, or NULL. */
const WsRunColumn *ws_run_column_find_export (const char *export_key);

/* The run's value in `column`; clear it with ws_run_value_clear. */
void ws_run_column_get (const WsRunColumn *column, WsRun *run, const WsRunColumnContext *context,
                        WsRunValue *value);
/* The value for people, in the column's unit: "37.4 µs", "n = 10,000,000", "—". */
char *ws_run_column_dup_text (const WsRunColumn *column, WsRun *run,
                              const WsRunColumnContext *context);

/* ws-run-columns-json.c. The run's columns that the JSON has, as the members of the object
 * the caller has begun, in the JSON's order (which is not the CSV's: members grouped into
 * objects stand together). */
void ws_run_columns_write_json (WsJsonWriter *json, WsRun *run,
                                const WsRunColumnContext *context);

/* The machine name of a run's state: "complete", "failed", "refused", "running",
 * "incomplete". */
const char *ws_run_state_name (WsRunState state);
/* The state for people: "pass", "unverified", "FAIL: 12 of 1,000 wrong", "refused
 * (invalid_block)", "incomplete". */
char *ws_run_dup_state_text (WsRun *run);

G_END_DECLS
