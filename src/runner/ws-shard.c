/* ws-shard.c: one runner's share of a sweep (--shard K/N): configurations dealt round-robin in
 * plan order, so that every share holds a like mix of sizes and blocks.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
parse_number (const char *p, const char **end, int *out)
{
  long v = 0;

  if (*p < '0' || *p > '9')
    return 0;
  while (*p >= '0' && *p <= '9')
    {
      v = v * 10 + (*p++ - '0');
      if (v > WS_MAX_SHARDS)
        return 0;
    }
  *end = p;
  *out = (int) v;
  return 1;
}

int
ws_shard_parse (const char *text, int *index, int *count, char *message, size_t len)
{
  const char *p = text;
  int k, n;

  if (!parse_number (p, &p, &k) || *p++ != '/' || !parse_number (p, &p, &n) || *p != '\0'
      || n < 1 || k >= n)
    {
      snprintf (message, len,
                "--shard takes K/N, this runner's share of a sweep spread over N runners, "
                "with K from 0 to N-1 and N at most %d (e.g. --shard 0/4), not '%s'",
                WS_MAX_SHARDS, text);
      return 0;
    }
  *index = k;
  *count = n;
  return 1;
}

int
ws_shard_plan_size (const WsOptions *o)
{
  int n_sizes = o->n_sizes ? o->n_sizes : 1, n_blocks = o->n_blocks ? o->n_blocks : 1;
  int total = 0;

  for (int k = 0; k < o->n_kernels; k++)
    total += o->n_transfers * n_sizes * (o->kernels[k]->block_fixed ? 1 : n_blocks);
  return total;
}

static int
owns (const WsOptions *o, int position)
{
  return o->shard_count <= 1 || position % o->shard_count == o->shard_index;
}

int
ws_shard_share (const WsOptions *o)
{
  int total = ws_shard_plan_size (o), share = 0;

  for (int p = 0; p < total; p++)
    share += owns (o, p);
  return share;
}

int
ws_shard_keep (void *items, int n, size_t size, const WsOptions *o)
{
  char *base = items;
  int kept = 0;

  for (int p = 0; p < n; p++)
    if (owns (o, p))
      {
        if (kept != p)
          memcpy (base + (size_t) kept * size, base + (size_t) p * size, size);
        kept++;
      }
  return kept;
}
