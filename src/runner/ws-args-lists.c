/* ws-args-lists.c: the grammar of the runner's --sizes and --blocks: whole numbers written as
 * digits or in exponent form, comma-separated lists, start:end:step ranges, matrix sizes and
 * block shapes, each checked against what any CUDA GPU can run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-args-private.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every CUDA GPU from sm_75 on: 1024 threads per block, 1024×1024×64 block dimensions. */
#define MAX_THREADS_PER_BLOCK 1024u
#define MAX_BLOCK_Z 64u

/* A whole number written as digits or in exponent form (1e7, 2.5e3); 0 when it is not one. */
int
_ws_args_parse_count (const char *s, size_t len, uint64_t *out, int *negative)
{
  char buf[64];
  char *end;
  double d;

  *negative = 0;
  if (len == 0 || len >= sizeof buf)
    return 0;
  memcpy (buf, s, len);
  buf[len] = '\0';
  if (buf[0] == '-')
    {
      *negative = 1;
      return 0;
    }
  for (size_t i = 0; i < len; i++)
    if (!isdigit ((unsigned char) buf[i]) && buf[i] != '.' && buf[i] != 'e' && buf[i] != 'E'
        && buf[i] != '+')
      return 0;
  if (!isdigit ((unsigned char) buf[0]))
    return 0;
  errno = 0;
  if (strspn (buf, "0123456789") == len)
    {
      unsigned long long v = strtoull (buf, &end, 10);

      if (errno != 0 || *end != '\0')
        return 0;
      *out = v;
      return 1;
    }
  d = strtod (buf, &end);
  if (errno != 0 || *end != '\0' || d != floor (d) || d < 0 || d > 9.007199254740992e15)
    return 0;
  *out = (uint64_t) d;
  return 1;
}

typedef int (*ItemParser) (const char *item, size_t len, void *data, WsArgError *err);

/* Splits a comma-separated list; refuses empty items such as the one in "1000,,2000". */
static int
split_list (const char *option, const char *list, ItemParser parse, void *data, WsArgError *err)
{
  const char *p = list;
  WsErrorCode code
    = strcmp (option, "--blocks") == 0 ? WS_ERROR_INVALID_BLOCK : WS_ERROR_INVALID_SIZE;

  if (*list == '\0')
    return fail (err, code, "%s is empty: give at least one value", option);
  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);

      if (len == 0)
        return fail (err, code, "%s '%s' has an empty item at position %zu: remove the extra comma",
                     option, list, (size_t) (p - list) + 1);
      if (!parse (p, len, data, err))
        return 0;
      if (comma == NULL)
        return 1;
      p = comma + 1;
    }
}

/* start:end:xF (geometric) or start:end:+S (arithmetic), expanded into values. */
typedef int (*RangeSink) (uint64_t value, void *data, WsArgError *err);

static int
parse_range (const char *option, WsErrorCode code, const char *item, size_t len,
             RangeSink sink, void *data, WsArgError *err)
{
  const char *c1 = memchr (item, ':', len);
  const char *c2 = c1 ? memchr (c1 + 1, ':', len - (size_t) (c1 + 1 - item)) : NULL;
  uint64_t start, end, step;
  int neg, geometric;
  char text[64];

  snprintf (text, sizeof text, "%.*s", (int) (len < 60 ? len : 60), item);
  if (c2 == NULL)
    return fail (err, code,
                 "%s range '%s' needs a step: write start:end:x10 (multiply) or "
                 "start:end:+256 (add)",
                 option, text);
  if (!_ws_args_parse_count (item, (size_t) (c1 - item), &start, &neg)
      || !_ws_args_parse_count (c1 + 1, (size_t) (c2 - c1 - 1), &end, &neg))
    return fail (err, code, "%s range '%s' must start and end with whole numbers, as in 1e3:1e8:x10",
                 option, text);
  if (end < start)
    return fail (err, code,
                 "%s range '%s' goes down: write the smaller number first, as in "
                 "%.*s:%.*s:%s",
                 option, text, (int) (c2 - c1 - 1), c1 + 1, (int) (c1 - item), item, c2 + 1);
  geometric = c2[1] == 'x' || c2[1] == '*';
  if ((!geometric && c2[1] != '+')
      || !_ws_args_parse_count (c2 + 2, len - (size_t) (c2 + 2 - item), &step, &neg)
      || (geometric && step < 2) || (!geometric && step < 1))
    return fail (err, code,
                 "%s range '%s' has a step it cannot use: write x and a factor of at least 2 "
                 "(x10) or + and an increment (+256)",
                 option, text);
  for (uint64_t v = start; v <= end;)
    {
      if (!sink (v, data, err))
        return 0;
      if (geometric ? v > end / step : v > end - step)
        break;
      v = geometric ? v * step : v + step;
    }
  return 1;
}

/* ---- sizes ----------------------------------------------------------------------------- */

static int
add_size (WsOptions *opts, const WsSize *size, WsArgError *err)
{
  if (opts->n_sizes >= WS_MAX_LIST)
    return fail (err, WS_ERROR_INVALID_SIZE, "--sizes gives more than %d sizes: use a larger step",
                 WS_MAX_LIST);
  opts->sizes[opts->n_sizes++] = *size;
  return 1;
}

static int
size_range_sink (uint64_t value, void *data, WsArgError *err)
{
  WsSize size = { .rank = 1, .dims = { value, value, value } };

  if (value == 0)
    return fail (err, WS_ERROR_INVALID_SIZE,
                 "--sizes: a range that starts at 0 gives a size of 0; start it at 1 or more, "
                 "as in 1:1e6:x10");
  snprintf (size.text, sizeof size.text, "%llu", (unsigned long long) value);
  return add_size (data, &size, err);
}

static int
size_not_a_number (const char *item, size_t len, int negative, WsArgError *err)
{
  if (negative)
    return fail (err, WS_ERROR_INVALID_SIZE,
                 "--sizes: '%.*s' is negative; a size counts elements, so write a whole "
                 "number of at least 1",
                 (int) len, item);
  return fail (err, WS_ERROR_INVALID_SIZE,
               "--sizes: '%.*s' is not a size; write a whole number such as 1000000 or 1e6, "
               "or MxNxK such as 512x256x1024 for matrix kernels",
               (int) len, item);
}

static int
parse_size_item (const char *item, size_t len, void *data, WsArgError *err)
{
  WsOptions *opts = data;
  WsSize size = { 0 };
  int neg;

  if (memchr (item, ':', len) != NULL)
    return parse_range ("--sizes", WS_ERROR_INVALID_SIZE, item, len, size_range_sink, opts, err);
  snprintf (size.text, sizeof size.text, "%.*s", (int) (len < 47 ? len : 47), item);
  if (memchr (item, 'x', len) != NULL || memchr (item, 'X', len) != NULL)
    {
      const char *p = item, *end = item + len;

      while (p <= end && size.rank < 4)
        {
          const char *x = p;

          while (x < end && *x != 'x' && *x != 'X')
            x++;
          if (size.rank == 3
              || !_ws_args_parse_count (p, (size_t) (x - p), &size.dims[size.rank], &neg))
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: '%.*s' is not a matrix size; write MxNxK with three whole "
                         "numbers, such as 512x256x1024 (C is M×N, the shared dimension K)",
                         (int) len, item);
          size.rank++;
          p = x + 1;
        }
      /* An x makes two numbers at least; whether two (rows×cols) or three (m×n×k) suit the
       * kernels is checked once all arguments are read. */
      if (size.rank == 2)
        size.dims[2] = 1;
    }
  else
    {
      size.rank = 1;
      if (!_ws_args_parse_count (item, len, &size.dims[0], &neg))
        return size_not_a_number (item, len, neg, err);
      size.dims[1] = size.dims[2] = size.dims[0];
    }
  for (int i = 0; i < 3; i++)
    if (size.dims[i] == 0)
      return fail (err, WS_ERROR_INVALID_SIZE,
                   "--sizes: '%s' has a zero in it; every size must be at least 1", size.text);
  return add_size (opts, &size, err);
}

/* ---- blocks ---------------------------------------------------------------------------- */

static int
check_block_limits (const WsBlock *block, const char *text, WsArgError *err)
{
  unsigned threads = block->dims[0] * block->dims[1] * block->dims[2];

  for (int i = 0; i < 3; i++)
    if (block->dims[i] == 0)
      return fail (err, WS_ERROR_INVALID_BLOCK,
                   "--blocks: '%s' has a zero in it; a block needs at least one thread in each "
                   "dimension, e.g. 256 or 16x16",
                   text);
  if (block->dims[0] > MAX_THREADS_PER_BLOCK || block->dims[1] > MAX_THREADS_PER_BLOCK
      || threads > MAX_THREADS_PER_BLOCK)
    return fail (err, WS_ERROR_INVALID_BLOCK,
                 "--blocks: '%s' is %llu threads, more than the %u a block can hold on any CUDA "
                 "GPU; use at most 1024 threads, e.g. 1024 or 32x32",
                 text,
                 (unsigned long long) block->dims[0] * block->dims[1] * block->dims[2],
                 MAX_THREADS_PER_BLOCK);
  if (block->dims[2] > MAX_BLOCK_Z)
    return fail (err, WS_ERROR_INVALID_BLOCK,
                 "--blocks: '%s' has %u in its third dimension, which can be at most %u", text,
                 block->dims[2], MAX_BLOCK_Z);
  return 1;
}

static int
add_block (WsOptions *opts, const WsBlock *block, const char *text, WsArgError *err)
{
  if (!check_block_limits (block, text, err))
    return 0;
  if (opts->n_blocks >= WS_MAX_LIST)
    return fail (err, WS_ERROR_INVALID_BLOCK,
                 "--blocks gives more than %d blocks: use a larger step or fewer values",
                 WS_MAX_LIST);
  opts->blocks[opts->n_blocks++] = *block;
  return 1;
}

static int
block_range_sink (uint64_t value, void *data, WsArgError *err)
{
  WsBlock block = { .rank = 1, .dims = { (unsigned) (value > 100000 ? 100000 : value), 1, 1 } };
  char text[32];

  snprintf (text, sizeof text, "%llu", (unsigned long long) value);
  return add_block (data, &block, text, err);
}

static int
parse_block_item (const char *item, size_t len, void *data, WsArgError *err)
{
  WsOptions *opts = data;
  WsBlock block = { .rank = 0, .dims = { 1, 1, 1 } };
  const char *p = item, *end = item + len;
  char text[48];

  if (memchr (item, ':', len) != NULL)
    return parse_range ("--blocks", WS_ERROR_INVALID_BLOCK, item, len, block_range_sink, opts, err);
  snprintf (text, sizeof text, "%.*s", (int) (len < 47 ? len : 47), item);
  while (p <= end)
    {
      const char *x = p;
      uint64_t v;
      int neg;

      while (x < end && *x != 'x' && *x != 'X')
        x++;
      if (block.rank == 3 || !_ws_args_parse_count (p, (size_t) (x - p), &v, &neg)
          || strspn (p, "0123456789") != (size_t) (x - p))
        return fail (err, WS_ERROR_INVALID_BLOCK,
                     "--blocks: '%s' is not a block; write threads per block as 256, or "
                     "WxH as 16x16",
                     text);
      block.dims[block.rank++] = (unsigned) (v > 100000 ? 100000 : v);
      p = x + 1;
    }
  return add_block (opts, &block, text, err);
}


int
_ws_args_parse_sizes (WsOptions *opts, const char *value, WsArgError *err)
{
  opts->n_sizes = 0;
  return split_list ("--sizes", value, parse_size_item, opts, err);
}

int
_ws_args_parse_blocks (WsOptions *opts, const char *value, WsArgError *err)
{
  opts->n_blocks = 0;
  return split_list ("--blocks", value, parse_block_item, opts, err);
}
