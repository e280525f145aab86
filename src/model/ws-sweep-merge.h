/* ws-sweep-merge.h: the streams of several runners that share one sweep (--shard K/N, one per
 * GPU) merged line by line into one session, as one runner would have written it: one hello,
 * a device record per GPU, the catalog entries once, then the runs in plan order (their ids
 * are the whole sweep's), each run record tagged with the device that ran it ("device",
 * "device_uuid"), one progress over all, and a done record once every stream has ended. A run
 * goes out as soon as every run before it has: the session always holds a prefix of the plan,
 * and the run in progress on the GPU that holds the plan's next run streams live.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ws-session.h"

G_BEGIN_DECLS

typedef struct _WsSweepMerge WsSweepMerge;

/* `n_streams` streams into `out`. With `round_robin`, stream K holds the plan's positions K,
 * K+N, … (runs K+1, K+1+N, …), as --shard K/N gives them, so a run is written as soon as the
 * runs before it are; otherwise (files gathered after the fact) runs wait until the streams
 * that might hold the runs before them have ended. */
WsSweepMerge *ws_sweep_merge_new (WsSession *out, guint n_streams, gboolean round_robin);
void ws_sweep_merge_free (WsSweepMerge *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSweepMerge, ws_sweep_merge_free)

/* For messages ("GPU 1", "part-3.jsonl"), and the device a stream was asked to run on
 * (-1: unknown), used when its runner failed before naming its device. */
void ws_sweep_merge_set_stream (WsSweepMerge *self, guint stream, const char *label,
                                int device);
/* One line of stream `stream`, without its newline. */
void ws_sweep_merge_feed (WsSweepMerge *self, guint stream, const char *line, gsize length);
/* The stream has ended; `failure` says why it ended before its runner finished (NULL: it
 * did). A failed stream's runs so far are kept, an error record (code "runner_failed") names
 * its device, and the other streams go on. Once every stream has ended, the rest goes out,
 * and the done record when not cancelled. */
void ws_sweep_merge_end_stream (WsSweepMerge *self, guint stream, const GError *failure);
/* The merge was stopped: no done record at the end (the session was cut short). */
void ws_sweep_merge_set_cancelled (WsSweepMerge *self);

gboolean ws_sweep_merge_is_finished (WsSweepMerge *self);
/* Lines that were not merged (a run in two streams), for people. */
GPtrArray *ws_sweep_merge_get_problems (WsSweepMerge *self);

G_END_DECLS
