/* ws-cli-report.h: what `warpscope-cli report` says about a session: its runs with their
 * findings, the fastest configuration of each problem size (with the ones tied with it), where
 * each size series crosses the CPU; and the four ways of writing it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-session-analysis.h"
#include "ws-cli.h"

G_BEGIN_DECLS

typedef enum
{
  WS_CLI_REPORT_TABLE,
  WS_CLI_REPORT_CSV,
  WS_CLI_REPORT_JSON,
  WS_CLI_REPORT_MARKDOWN,
} WsCliReportFormat;

gboolean ws_cli_report_format_from_string (const char *name, WsCliReportFormat *format);

typedef struct
{
  WsRun *run;
  GPtrArray *findings; /* WsFinding, borrowed, most severe first */
} WsCliReportRun;

typedef struct
{
  WsSession *session;
  char *path;
  char *name;                 /* the file's basename */
  GPtrArray *findings;        /* every WsFinding of the session (borrowed from its analysis) */
  GPtrArray *runs;            /* WsCliReportRun, in run order */
  GPtrArray *series_findings; /* WsFinding about a whole series (run 0), borrowed */
  GPtrArray *fastest;         /* WsFastest */
  GPtrArray *crossovers;      /* WsCrossover */
  int cpu_threads;            /* threads of the all-cores baselines; 0 when none or mixed */
  WsSeverity min_severity;
  guint n_hidden;             /* findings below min_severity, left out */
} WsCliReport;

WsCliReport *ws_cli_report_new (WsSession *session, const char *path, WsSeverity min_severity);
void ws_cli_report_free (WsCliReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCliReport, ws_cli_report_free)

/* "Run 3: vector_add n = 100,000, block 256, pageable" */
char *ws_cli_report_describe_run (WsRun *run);
/* The kernel's rate where it matters: GB/s for memory-bound kernels, else GFLOP/s. */
char *ws_cli_report_format_rate (WsCliReport *report, WsRun *run);
/* Sentences about a fastest group and a crossover, for people. */
char *ws_cli_report_describe_fastest (const WsFastest *fastest);
char *ws_cli_report_describe_crossover (const WsCrossover *crossover);

/* One finding: severity, title, numbers, cause and fix, wrapped at `width` (0: no limit), or as
 * a Markdown list item. */
void ws_cli_report_append_finding (GString *out, const WsFinding *f, gboolean markdown,
                                   gsize width);

/* `width`: columns to fit (0: no limit). */
void ws_cli_report_write_table (WsCliReport *report, GString *out, gsize width);
void ws_cli_report_write_markdown (WsCliReport *report, GString *out);
void ws_cli_report_write_csv (WsCliReport *report, GString *out);
void ws_cli_report_write_json (WsCliReport *report, GString *out);

G_END_DECLS
