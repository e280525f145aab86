/* ws-run-columns.h: the columns of a run, one list for every table and export of runs: the
 * CLI report's CSV, the chart export's CSV and the app's runs view.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

typedef enum
{
  WS_RUN_VALUE_EMPTY,  /* not measured, or not there: an empty CSV field, "—" for people */
  WS_RUN_VALUE_NUMBER, /* exact; each format writes it its own way */
  WS_RUN_VALUE_TEXT,   /* a machine word or a name, never translated */
} WsRunValueKind;

typedef struct
{
  WsRunValueKind kind;
  double number;
  char *text;
} WsRunValue;

void ws_run_value_clear (WsRunValue *value);

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

/* What a column's value may need beyond the run: its findings, as the caller filtered them
 * (GPtrArray of WsFinding, or NULL). */
typedef struct
{
  GPtrArray *findings;
} WsRunColumnContext;

typedef struct
{
  /* The CSV header and the JSON member: "kernel_ns_median"; never translated. */
  const char *key;
  /* The header for people, N_(): "Kernel time"; NULL where no view shows the column. */
  const char *title;
  WsRunUnit unit;
  /* FALSE for a column only people see (the runs view's GPU). */
  gboolean in_csv;
  void (*get) (WsRun *run, const WsRunColumnContext *context, WsRunValue *value);
  /* The text for people where it is not the value in its unit ("n = 10,000,000" for a shape
   * whose value is "10000000"); NULL: ws_run_column_dup_text formats the value. */
  char *(*text) (WsRun *run);
} WsRunColumn;

/* The columns, in the order of the report's CSV; `n` gets their number. */
const WsRunColumn *ws_run_columns (guint *n);
/* The column with this key, or NULL. */
const WsRunColumn *ws_run_column_find (const char *key);

/* The run's value in `column`; clear it with ws_run_value_clear. */
void ws_run_column_get (const WsRunColumn *column, WsRun *run, const WsRunColumnContext *context,
                        WsRunValue *value);
/* The value for people, in the column's unit: "37.4 µs", "n = 10,000,000", "—". */
char *ws_run_column_dup_text (const WsRunColumn *column, WsRun *run,
                              const WsRunColumnContext *context);

/* The machine name of a run's state: "complete", "failed", "refused", "running",
 * "incomplete". */
const char *ws_run_state_name (WsRunState state);

G_END_DECLS
