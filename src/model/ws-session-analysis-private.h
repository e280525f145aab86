/* ws-session-analysis-private.h: the parts of the session's analysis in ws-analysis-fastest.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-session-analysis.h"

G_BEGIN_DECLS

/* The problem a run solves (kernel family and shape); NULL for a run that is not ranked (not
 * complete, or without a kernel time). */
char *_ws_fastest_problem_key (WsRun *run);
/* The fastest of one problem's runs (in run order); NULL for fewer than two, or none timed. */
WsFastest *_ws_fastest_rank (GPtrArray *group, WsSession *session);
void _ws_fastest_free (WsFastest *fastest);
/* A size series' crossovers and speedups at its ends. */
WsCrossover *_ws_crossover_new (WsSeries *series);

G_END_DECLS
