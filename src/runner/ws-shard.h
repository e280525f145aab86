/* ws-shard.h: --shard K/N, one runner's share of a sweep spread over N runners (one per GPU,
 * or one per task of a Slurm job array): the configurations at positions K, K+N, K+2N… of
 * the whole plan, keeping the ids and seeds they have in the whole sweep, so that the shares
 * merge back into the session one runner would have written.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#include "ws-args.h"

/* "K/N" with 0 ≤ K < N ≤ WS_MAX_SHARDS: 1 with index and count set; 0 with a message. */
#define WS_MAX_SHARDS 4096
int ws_shard_parse (const char *text, int *index, int *count, char *message, size_t len);

/* Configurations in the whole plan of `opts` (kernels × transfers × sizes × blocks, a kernel
 * with a fixed block once per size), and how many of them are this runner's. */
int ws_shard_plan_size (const WsOptions *opts);
int ws_shard_share (const WsOptions *opts);

/* Keeps, in order, the elements of `items` (n of `size` bytes, the plan in its order) that
 * are this runner's; returns how many remain. */
int ws_shard_keep (void *items, int n, size_t size, const WsOptions *opts);
