/* ws-cli-trace.h: what warpscope-cli says about a traced program (`trace`, and `report` of a
 * trace): its program runs and how each ended, the kernel table per configuration, the copy
 * table, a sweep's kernels over its parameter values, and the findings; in the four ways of
 * writing a report.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-analysis.h"
#include "ws-cli-report.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

G_BEGIN_DECLS

int ws_cli_trace (int argc, char **argv);

typedef struct
{
  WsSession *session;
  WsTrace *trace;
  char *path;
  char *name;            /* the file's basename; NULL for a live trace */
  GPtrArray *findings;   /* every WsFinding of the trace (owned) */
  GPtrArray *shown;      /* those at min_severity or above (borrowed) */
  WsSeverity min_severity;
  guint n_hidden;
} WsCliTraceReport;

WsCliTraceReport *ws_cli_trace_report_new (WsSession *session, const char *path,
                                           WsSeverity min_severity);
void ws_cli_trace_report_free (WsCliTraceReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCliTraceReport, ws_cli_trace_report_free)

/* "TPB=32, N=1000000"; "" without parameters. */
char *ws_cli_trace_describe_params (const WsTraceProgram *program);
/* "exited with status 0 after 4.12 s", "was ended by SIGSEGV after 1.20 s", "was stopped",
 * "was not started"; NULL while it runs. */
char *ws_cli_trace_describe_ending (WsTrace *trace, const WsTraceProgram *program);
/* "python3 tests/gpu/programs/vector_add.py": the command line of the run. */
char *ws_cli_trace_describe_command (WsTrace *trace, const WsTraceProgram *program);
/* "2×2", "39063": a grid or a block, trailing 1s left out. */
char *ws_cli_trace_format_dims (const guint32 dims[3]);
/* "host to device, pageable", "memset" */
char *ws_cli_trace_describe_copy (const WsTraceCopy *copy);

/* `width`: columns to fit (0: no limit). */
void ws_cli_trace_report_write_table (WsCliTraceReport *report, GString *out, gsize width);
void ws_cli_trace_report_write_markdown (WsCliTraceReport *report, GString *out);
void ws_cli_trace_report_write_csv (WsCliTraceReport *report, GString *out);
void ws_cli_trace_report_write_json (WsCliTraceReport *report, GString *out);

G_END_DECLS
