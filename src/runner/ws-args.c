/* ws-args.c: parsing and checking the runner's arguments; nothing here touches the GPU, so a
 * typo is reported as a typo on any machine.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-args.h"

#include "ws-shard.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every CUDA GPU from sm_75 on: 1024 threads per block, 1024×1024×64 block dimensions. */
#define MAX_THREADS_PER_BLOCK 1024u
#define MAX_BLOCK_Z 64u

const char ws_args_usage[]
  = "Usage: warpscope-runner [MODE] [OPTIONS]\n"
    "\n"
    "Runs CUDA kernels under CUPTI activity tracing and prints JSON Lines records\n"
    "(docs/protocol.md) on stdout; messages for people go to stderr.\n"
    "\n"
    "Modes:\n"
    "  --kernel K[,K…]      run kernels (a sweep when lists are given below)\n"
    "  --list               list the kernels\n"
    "  --device-info        describe the GPUs and what may be wrong with the set-up\n"
    "  --self-test          run every kernel at small sizes and check the results\n"
    "  --trace [OPTIONS] -- PROGRAM [ARGS…]\n"
    "                       trace a CUDA program of your own (--trace --help)\n"
    "  --source FILE        run an own kernel: CUDA C with a warpscope header\n"
    "                       (docs/own-kernels.md), compiled with NVRTC\n"
    "  --check-source FILE  check an own kernel's header and compile it: header and\n"
    "                       compile errors as records with file, line and column\n"
    "  --help, --version\n"
    "\n"
    "Run options:\n"
    "  --sizes LIST         problem sizes: 1e6 | 1000,4096 | 1e3:1e8:x10 | 256:1024:+256;\n"
    "                       matrix kernels take an edge (square) or MxNxK, e.g. 512x256x1024;\n"
    "                       transposes take an edge or ROWSxCOLS, e.g. 4096x1024\n"
    "  --blocks LIST        threads per block: 32,64,256 | 32:1024:x2 | 16x16,32x8\n"
    "  --transfer LIST      how data moves: pageable, pinned (host memory kinds), or\n"
    "                       streams:K (pinned; the problem cut into K pieces whose copies\n"
    "                       and kernels overlap over K streams, K from 1 to 8), e.g.\n"
    "                       pageable,pinned,streams:4 (default pageable)\n"
    "  --reps R             traced repetitions, also the untraced cross-check count (10)\n"
    "  --warmup W           warm-up sequences before timing, not recorded (3)\n"
    "  --cpu none|1|all|1,all  CPU baselines: one thread, all cores (default 1,all)\n"
    "  --cpu-reps N         at most N timed runs per CPU baseline (5)\n"
    "  --cpu-budget S       seconds one CPU baseline may take; longer ones run fewer\n"
    "                       times or are skipped, and the record says so (10)\n"
    "  --cache warm|cold    the L2 cache each timed launch starts with: warm (the data\n"
    "                       the previous launch left there, as in a loop of launches)\n"
    "                       or cold (flushed before every launch, as Nsight Compute\n"
    "                       does by default) (warm)\n"
    "  --device N           GPU index (0); with --device-info, describe that GPU alone\n"
    "  --no-trace           do not use CUPTI: untraced timing only\n"
    "  --seed N             seed for the random inputs (default: from the clock)\n"
    "  --shard K/N          run only positions K, K+N, K+2N… of the sweep (from 0), with\n"
    "                       the ids of the whole sweep: one of N runners sharing it\n"
    "  --summary            print a table for people instead of JSON Lines\n"
    "  --check              check the arguments and stop: no GPU is touched (the app\n"
    "                       uses it to explain a bad size or block as it is typed)\n"
    "\n"
    "Own kernels (--source):\n"
    "  --param NAME=V[,V…]  values of a tunable parameter the header declares; a sweep\n"
    "                       crosses them with the sizes and blocks (default: the first\n"
    "                       value the header lists); repeat for each parameter\n"
    "  --memcheck TOOL      run one configuration (the first size, block and values)\n"
    "                       under compute-sanitizer: memcheck, racecheck or initcheck;\n"
    "                       its findings become memcheck records\n"
    "  --arch sm_XY         with --check-source: compile for this architecture (default:\n"
    "                       the GPU's, else the newest this build has)\n"
    "\n"
    "Exit status: 0 all runs verified; 1 a run failed or was refused; 2 bad arguments;\n"
    "3 no usable GPU (driver, device, kernel image); 4 kernel fault; 5 internal error.\n";

static int
fail (WsArgError *err, WsErrorCode code, const char *fmt, ...)
{
  va_list ap;

  err->code = code;
  va_start (ap, fmt);
  vsnprintf (err->message, sizeof err->message, fmt, ap);
  va_end (ap);
  return 0;
}

const char *
ws_transfer_text (WsTransfer transfer, int streams, char *buf, size_t len)
{
  switch (transfer)
    {
    case WS_TRANSFER_PAGEABLE: snprintf (buf, len, "pageable"); break;
    case WS_TRANSFER_PINNED: snprintf (buf, len, "pinned"); break;
    case WS_TRANSFER_STREAMS: snprintf (buf, len, "streams:%d", streams); break;
    default: snprintf (buf, len, "unknown"); break;
    }
  return buf;
}

/* A whole number written as digits or in exponent form (1e7, 2.5e3); 0 when it is not one. */
static int
parse_count (const char *s, size_t len, uint64_t *out, int *negative)
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
  if (!parse_count (item, (size_t) (c1 - item), &start, &neg)
      || !parse_count (c1 + 1, (size_t) (c2 - c1 - 1), &end, &neg))
    return fail (err, code, "%s range '%s' must start and end with whole numbers, as in 1e3:1e8:x10",
                 option, text);
  if (end < start)
    return fail (err, code,
                 "%s range '%s' goes down: write the smaller number first, as in "
                 "%.*s:%.*s:%s",
                 option, text, (int) (c2 - c1 - 1), c1 + 1, (int) (c1 - item), item, c2 + 1);
  geometric = c2[1] == 'x' || c2[1] == '*';
  if ((!geometric && c2[1] != '+')
      || !parse_count (c2 + 2, len - (size_t) (c2 + 2 - item), &step, &neg)
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
    return fail (err, WS_ERROR_INVALID_SIZE, "--sizes: a size must be at least 1");
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
              || !parse_count (p, (size_t) (x - p), &size.dims[size.rank], &neg))
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: '%.*s' is not a matrix size; write MxNxK with three whole "
                         "numbers, such as 512x256x1024 (C is M×N, the shared dimension K)",
                         (int) len, item);
          size.rank++;
          p = x + 1;
        }
      /* Whether two numbers (rows×cols) or three (m×n×k) suit the kernels is checked once
       * all arguments are read. */
      if (size.rank < 2)
        return fail (err, WS_ERROR_INVALID_SIZE,
                     "--sizes: '%.*s' gives %d number; a matrix size is MxNxK, such as "
                     "512x256x1024 (ROWSxCOLS for a transpose), or one number for a square "
                     "matrix",
                     (int) len, item, size.rank);
      if (size.rank == 2)
        size.dims[2] = 1;
    }
  else
    {
      size.rank = 1;
      if (!parse_count (item, len, &size.dims[0], &neg))
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
    return fail (err, WS_ERROR_INVALID_BLOCK, "--blocks gives more than %d blocks", WS_MAX_LIST);
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
      if (block.rank == 3 || !parse_count (p, (size_t) (x - p), &v, &neg)
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

/* ---- the rest -------------------------------------------------------------------------- */

static int
parse_int (const char *option, const char *value, long min, long max, long *out,
           WsArgError *err)
{
  WsErrorCode code = strcmp (option, "--reps") == 0 ? WS_ERROR_INVALID_REPS : WS_ERROR_BAD_ARGUMENT;
  char *end;
  long v;

  errno = 0;
  v = strtol (value, &end, 10);
  if (errno != 0 || end == value || *end != '\0')
    return fail (err, code, "%s needs a whole number, not '%s'", option, value);
  if (v < min || v > max)
    return fail (err, code, "%s must be between %ld and %ld, not %ld", option, min, max, v);
  *out = v;
  return 1;
}

static int
parse_kernels (WsOptions *opts, const char *list, WsArgError *err)
{
  const char *p = list;

  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      char name[64];
      const WsKernelDesc *k;

      snprintf (name, sizeof name, "%.*s", (int) (len < 63 ? len : 63), p);
      k = ws_catalog_find (name);
      if (k == NULL)
        {
          char known[1024] = "";

          for (size_t i = 0; i < ws_catalog_size (); i++)
            if (!ws_catalog_get (i)->hidden)
              {
                if (known[0])
                  strncat (known, ", ", sizeof known - strlen (known) - 1);
                strncat (known, ws_catalog_get (i)->name, sizeof known - strlen (known) - 1);
              }
          return fail (err, WS_ERROR_UNKNOWN_KERNEL,
                       "there is no kernel called '%s'; the kernels are: %s (see --list)", name,
                       known);
        }
      if (opts->n_kernels >= WS_MAX_KERNELS)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "--kernel names more than %d kernels",
                     WS_MAX_KERNELS);
      opts->kernels[opts->n_kernels++] = k;
      if (comma == NULL)
        return 1;
      p = comma + 1;
    }
}

/* streams:K, K from 1 to WS_MAX_STREAMS; 0 when the item is not that. */
static int
parse_streams (const char *p, size_t len)
{
  int k = 0;

  if (len < 9 || strncmp (p, "streams:", 8) != 0)
    return 0;
  for (size_t i = 8; i < len; i++)
    {
      if (!isdigit ((unsigned char) p[i]) || k > WS_MAX_STREAMS)
        return 0;
      k = k * 10 + (p[i] - '0');
    }
  return k >= 1 && k <= WS_MAX_STREAMS ? k : 0;
}

static int
parse_transfers (WsOptions *opts, const char *list, WsArgError *err)
{
  const char *p = list;

  opts->n_transfers = 0;
  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      WsTransferMode t = { WS_TRANSFER_PAGEABLE, 1 };
      char a[24];

      if (len == 8 && strncmp (p, "pageable", 8) == 0)
        t.kind = WS_TRANSFER_PAGEABLE;
      else if (len == 6 && strncmp (p, "pinned", 6) == 0)
        t.kind = WS_TRANSFER_PINNED;
      else if ((t.streams = parse_streams (p, len)) > 0)
        t.kind = WS_TRANSFER_STREAMS;
      else if (len >= 7 && strncmp (p, "streams", 7) == 0)
        return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                     "--transfer: '%.*s' is not a transfer mode; write streams:K with K, the "
                     "number of streams (and pieces), from 1 to %d, such as streams:4",
                     (int) (len < 40 ? len : 40), p, WS_MAX_STREAMS);
      else
        return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                     "--transfer: '%.*s' is not a transfer mode; use pageable (ordinary "
                     "malloc'd host memory), pinned (page-locked, cudaMallocHost) or streams:K "
                     "(pinned, the problem cut into K pieces over K streams, K from 1 to %d), "
                     "or several: pageable,pinned,streams:4",
                     (int) (len < 40 ? len : 40), p, WS_MAX_STREAMS);
      for (int i = 0; i < opts->n_transfers; i++)
        if (opts->transfers[i].kind == t.kind && opts->transfers[i].streams == t.streams)
          return fail (err, WS_ERROR_UNKNOWN_TRANSFER, "--transfer names %s twice",
                       ws_transfer_text (t.kind, t.streams, a, sizeof a));
      opts->transfers[opts->n_transfers++] = t;
      if (comma == NULL)
        return 1;
      p = comma + 1;
    }
}

static int
parse_cpu (WsOptions *opts, const char *value, WsArgError *err)
{
  if (strcmp (value, "none") == 0)
    opts->cpu = 0;
  else if (strcmp (value, "1") == 0)
    opts->cpu = WS_CPU_ONE;
  else if (strcmp (value, "all") == 0)
    opts->cpu = WS_CPU_ALL;
  else if (strcmp (value, "1,all") == 0 || strcmp (value, "all,1") == 0)
    opts->cpu = WS_CPU_ONE | WS_CPU_ALL;
  else
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--cpu takes none, 1 (one thread), all (every core) or 1,all; not '%s'", value);
  return 1;
}

/* NAME=V[,V…]: the values are checked against the header once it is read. */
static int
parse_param_arg (WsOptions *opts, const char *value, WsArgError *err)
{
  const char *eq = strchr (value, '=');

  if (eq == NULL || eq == value || eq[1] == '\0')
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--param takes NAME=VALUES, such as --param TILE=8,16,32, not '%.60s'", value);
  for (const char *p = value; p < eq; p++)
    if (!(isalnum ((unsigned char) *p) || *p == '_') || isdigit ((unsigned char) value[0]))
      return fail (err, WS_ERROR_BAD_ARGUMENT, "--param: '%.*s' is not a parameter's name",
                   (int) (eq - value < 60 ? eq - value : 60), value);
  for (int i = 0; i < opts->n_params; i++)
    if (strncmp (opts->params[i], value, (size_t) (eq - value + 1)) == 0)
      return fail (err, WS_ERROR_BAD_ARGUMENT,
                   "--param %.*s is given twice: list its values in one, --param %.*s=8,16",
                   (int) (eq - value), value, (int) (eq - value), value);
  if (opts->n_params == (int) (sizeof opts->params / sizeof *opts->params))
    return fail (err, WS_ERROR_BAD_ARGUMENT, "--param is given more than %d times",
                 (int) (sizeof opts->params / sizeof *opts->params));
  opts->params[opts->n_params++] = value;
  return 1;
}

/* sm_XY or XY, as in sm_90 or 90. */
static int
parse_arch (WsOptions *opts, const char *value, WsArgError *err)
{
  const char *p = strncmp (value, "sm_", 3) == 0 ? value + 3 : value;
  size_t n = strlen (p);

  if (n < 2 || n > 4 || strspn (p, "0123456789") < n - 1
      || (strspn (p, "0123456789") == n - 1 && p[n - 1] != 'a'))
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--arch takes a GPU architecture such as sm_90 (Hopper) or sm_80, not '%s'",
                 value);
  opts->arch_minor = p[n - 1 - (p[n - 1] == 'a')] - '0';
  opts->arch_major = atoi (p) / 10;
  if (opts->arch_major < 3)
    return fail (err, WS_ERROR_BAD_ARGUMENT, "--arch: '%s' is not a GPU architecture", value);
  return 1;
}

/* The options of own kernels with one another and with the rest. */
static int
check_own (WsOptions *opts, WsArgError *err)
{
  if (opts->source == NULL)
    {
      if (opts->n_params > 0 || opts->memcheck != NULL)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "%s belongs to an own kernel: add --source FILE",
                     opts->n_params > 0 ? "--param" : "--memcheck");
      if (opts->arch_major > 0)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "--arch goes with --check-source FILE");
      return 1;
    }
  if (opts->n_kernels > 0)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--kernel and --source cannot be combined: run the built-in kernel in a "
                 "session of its own");
  if (opts->arch_major > 0 && opts->mode != WS_MODE_CHECK_SOURCE)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--arch goes with --check-source; a run compiles for the GPU it runs on");
  if (opts->memcheck != NULL && opts->mode != WS_MODE_RUN)
    return fail (err, WS_ERROR_BAD_ARGUMENT, "--memcheck goes with --source FILE");
  if (opts->cpu_given && opts->cpu != 0)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--cpu: an own kernel has no CPU version to compare with; leave --cpu out "
                 "(or give --cpu none)");
  opts->cpu = 0;
  return 1;
}

static void
defaults (WsOptions *opts)
{
  memset (opts, 0, sizeof *opts);
  opts->mode = WS_MODE_NONE;
  opts->reps = 10;
  opts->warmup = 3;
  opts->cpu = WS_CPU_ONE | WS_CPU_ALL;
  opts->cpu_reps = 5;
  opts->cpu_budget = 10.0;
  opts->trace = 1;
  opts->transfers[0].kind = WS_TRANSFER_PAGEABLE;
  opts->transfers[0].streams = 1;
  opts->n_transfers = 1;
}

static int
set_mode (WsOptions *opts, WsMode mode, const char *option, WsArgError *err)
{
  if (opts->mode != WS_MODE_NONE && opts->mode != mode)
    return fail (err, WS_ERROR_BAD_ARGUMENT, "%s cannot be combined with another mode", option);
  opts->mode = mode;
  return 1;
}

int
ws_args_check_runs (WsOptions *opts, WsArgError *err)
{
  char why[400];
  long long configs = 0;

  for (int k = 0; k < opts->n_kernels; k++)
    {
      const WsKernelDesc *kernel = opts->kernels[k];

      for (int s = 0; s < opts->n_sizes; s++)
        {
          const WsSize *size = &opts->sizes[s];

          if (size->rank > 1 && kernel->shape_rank == 1)
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: %s takes one size, the number of elements n, not the matrix "
                         "size '%s'",
                         kernel->name, size->text);
          if (size->rank == 3 && kernel->shape_rank == 2)
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: %s takes a matrix as ROWSxCOLS, such as 4096x1024, or one "
                         "number for a square matrix; not '%s'",
                         kernel->name, size->text);
          if (size->rank == 2 && kernel->shape_rank == 3)
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: '%s' gives 2 numbers; a matrix size for %s is MxNxK, such "
                         "as 512x256x1024 (C is M×N, the shared dimension K), or one number for "
                         "a square matrix",
                         size->text, kernel->name);
        }
      /* A kernel built around one block, or whose library picks its own, takes none. */
      if (!kernel->block_fixed)
        for (int b = 0; b < opts->n_blocks; b++)
          {
            unsigned dims[3] = { opts->blocks[b].dims[0], opts->blocks[b].dims[1],
                                 opts->blocks[b].dims[2] };

            why[0] = '\0';
            /* One number for a 2D kernel would be a block one row high, which is seldom
             * meant; 1024x1 says that it is. */
            if (kernel->block_rank == 2 && opts->blocks[b].rank == 1 && dims[0] > 1)
              return fail (err, WS_ERROR_INVALID_BLOCK,
                           "--blocks: %s is a 2D kernel: give the block as WxH, such as 16x16 "
                           "(%u alone would be a block one row high; write %ux1 if that is "
                           "what you mean)",
                           kernel->name, dims[0], dims[0]);
            if (!kernel->check_block (dims, why, sizeof why))
              return fail (err, WS_ERROR_INVALID_BLOCK, "--blocks: %s", why);
          }
      for (int t = 0; t < opts->n_transfers; t++)
        if (opts->transfers[t].kind == WS_TRANSFER_STREAMS && strcmp (kernel->family, "own") == 0)
          return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                       "--transfer streams:%d: an own kernel is not cut into pieces, so it "
                       "runs with pageable or pinned host memory only",
                       opts->transfers[t].streams);
        else if (opts->transfers[t].kind == WS_TRANSFER_STREAMS && kernel->piece == NULL)
          return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                       "--transfer streams:%d: %s cannot be cut into pieces (its result is one "
                       "value that every element feeds), so it runs with pageable or pinned "
                       "host memory only",
                       opts->transfers[t].streams, kernel->name);
      configs += (long long) (opts->n_sizes ? opts->n_sizes : 1)
                 * (kernel->block_fixed || !opts->n_blocks ? 1 : opts->n_blocks)
                 * opts->n_transfers;
    }
  if (configs > WS_MAX_CONFIGS)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "this sweep has %lld configurations, more than %d: use fewer sizes or blocks",
                 configs, WS_MAX_CONFIGS);
  return 1;
}

/* An example of the option with a value, for the message that it needs one. */
static const char *
value_example (const char *name)
{
  static const char *const examples[] = {
    "--kernel vector_add", "--sizes 1e3:1e7:x10", "--blocks 128,256",
    "--transfer pageable,pinned", "--reps 10", "--warmup 3", "--cpu 1,all", "--cpu-reps 5",
    "--cpu-budget 10", "--device 0", "--seed 42", "--cache cold", "--shard 0/4",
    "--source kernel.cu", "--check-source kernel.cu", "--param TILE=16,32", "--arch sm_90",
    "--memcheck memcheck",
  };
  size_t n = strlen (name);

  for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
    if (strncmp (examples[i], name, n) == 0 && examples[i][n] == ' ')
      return examples[i];
  return "--reps 10";
}

int
ws_args_parse (int argc, char **argv, WsOptions *opts, WsArgError *err)
{
  defaults (opts);
  err->code = WS_ERROR_NONE;
  err->message[0] = '\0';

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *eq = strchr (arg, '=');
      char name[40];
      const char *value = NULL;
      int takes_value;
      long v;

      if (strncmp (arg, "--", 2) != 0)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "unexpected argument '%s'; options start with --, "
                     "see --help", arg);
      snprintf (name, sizeof name, "%.*s", (int) (eq ? eq - arg : (long) strlen (arg)), arg);
      takes_value = strcmp (name, "--kernel") == 0 || strcmp (name, "--sizes") == 0
                    || strcmp (name, "--blocks") == 0 || strcmp (name, "--transfer") == 0
                    || strcmp (name, "--reps") == 0 || strcmp (name, "--warmup") == 0
                    || strcmp (name, "--cpu") == 0 || strcmp (name, "--cpu-reps") == 0
                    || strcmp (name, "--cpu-budget") == 0 || strcmp (name, "--device") == 0
                    || strcmp (name, "--seed") == 0 || strcmp (name, "--cache") == 0
                    || strcmp (name, "--shard") == 0
                    || strcmp (name, "--source") == 0 || strcmp (name, "--check-source") == 0
                    || strcmp (name, "--param") == 0 || strcmp (name, "--arch") == 0
                    || strcmp (name, "--memcheck") == 0;
      if (takes_value)
        {
          if (eq != NULL)
            value = eq + 1;
          else if (i + 1 < argc)
            value = argv[++i];
          else
            return fail (err, WS_ERROR_BAD_ARGUMENT, "%s needs a value, e.g. %s", name,
                         value_example (name));
        }
      else if (eq != NULL)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "%s takes no value", name);

      if (strcmp (name, "--help") == 0)
        opts->mode = WS_MODE_HELP;
      else if (strcmp (name, "--version") == 0)
        opts->mode = WS_MODE_VERSION;
      else if (strcmp (name, "--list") == 0)
        {
          if (!set_mode (opts, WS_MODE_LIST, name, err))
            return 0;
        }
      else if (strcmp (name, "--device-info") == 0)
        {
          if (!set_mode (opts, WS_MODE_DEVICE_INFO, name, err))
            return 0;
        }
      else if (strcmp (name, "--self-test") == 0)
        {
          if (!set_mode (opts, WS_MODE_SELF_TEST, name, err))
            return 0;
        }
      else if (strcmp (name, "--kernel") == 0)
        {
          if (!set_mode (opts, WS_MODE_RUN, name, err) || !parse_kernels (opts, value, err))
            return 0;
        }
      else if (strcmp (name, "--source") == 0 || strcmp (name, "--check-source") == 0)
        {
          if (!set_mode (opts, name[2] == 's' ? WS_MODE_RUN : WS_MODE_CHECK_SOURCE, name, err))
            return 0;
          if (opts->source != NULL)
            return fail (err, WS_ERROR_BAD_ARGUMENT, "%s is given twice: one kernel file at a time",
                         name);
          if (*value == '\0')
            return fail (err, WS_ERROR_BAD_ARGUMENT, "%s needs the path of a kernel file", name);
          opts->source = value;
        }
      else if (strcmp (name, "--param") == 0)
        {
          if (!parse_param_arg (opts, value, err))
            return 0;
        }
      else if (strcmp (name, "--arch") == 0)
        {
          if (!parse_arch (opts, value, err))
            return 0;
        }
      else if (strcmp (name, "--memcheck") == 0)
        {
          if (strcmp (value, "memcheck") != 0 && strcmp (value, "racecheck") != 0
              && strcmp (value, "initcheck") != 0)
            return fail (err, WS_ERROR_BAD_ARGUMENT,
                         "--memcheck takes memcheck (out-of-bounds and misaligned accesses), "
                         "racecheck (shared-memory races) or initcheck (reads of memory never "
                         "written), not '%s'", value);
          opts->memcheck = value;
        }
      else if (strcmp (name, "--sizes") == 0)
        {
          opts->n_sizes = 0;
          if (!split_list ("--sizes", value, parse_size_item, opts, err))
            return 0;
        }
      else if (strcmp (name, "--blocks") == 0)
        {
          opts->n_blocks = 0;
          if (!split_list ("--blocks", value, parse_block_item, opts, err))
            return 0;
        }
      else if (strcmp (name, "--transfer") == 0)
        {
          if (!parse_transfers (opts, value, err))
            return 0;
        }
      else if (strcmp (name, "--reps") == 0)
        {
          if (!parse_int ("--reps", value, 1, 100000, &v, err))
            return 0;
          opts->reps = (int) v;
        }
      else if (strcmp (name, "--warmup") == 0)
        {
          if (!parse_int ("--warmup", value, 0, 10000, &v, err))
            return 0;
          opts->warmup = (int) v;
        }
      else if (strcmp (name, "--cpu") == 0)
        {
          if (!parse_cpu (opts, value, err))
            return 0;
          opts->cpu_given = 1;
        }
      else if (strcmp (name, "--cpu-reps") == 0)
        {
          if (!parse_int ("--cpu-reps", value, 1, 1000, &v, err))
            return 0;
          opts->cpu_reps = (int) v;
        }
      else if (strcmp (name, "--cpu-budget") == 0)
        {
          char *end;
          double d = strtod (value, &end);

          if (end == value || *end != '\0' || !(d > 0) || d > 86400)
            return fail (err, WS_ERROR_BAD_ARGUMENT,
                         "--cpu-budget needs a number of seconds above 0, such as 10");
          opts->cpu_budget = d;
        }
      else if (strcmp (name, "--device") == 0)
        {
          if (!parse_int ("--device", value, 0, 1023, &v, err))
            return 0;
          opts->device = (int) v;
          opts->device_given = 1;
        }
      else if (strcmp (name, "--cache") == 0)
        {
          if (strcmp (value, "warm") == 0)
            opts->cache_cold = 0;
          else if (strcmp (value, "cold") == 0)
            opts->cache_cold = 1;
          else
            return fail (err, WS_ERROR_BAD_ARGUMENT,
                         "--cache takes warm (each launch finds what the previous one left in "
                         "L2) or cold (L2 flushed before every timed launch), not '%s'",
                         value);
        }
      else if (strcmp (name, "--seed") == 0)
        {
          uint64_t s;
          int neg;

          if (!parse_count (value, strlen (value), &s, &neg))
            return fail (err, WS_ERROR_BAD_ARGUMENT, "--seed needs a whole number, not '%s'",
                         value);
          opts->seed = s;
        }
      else if (strcmp (name, "--shard") == 0)
        {
          if (!ws_shard_parse (value, &opts->shard_index, &opts->shard_count, err->message,
                               sizeof err->message))
            {
              err->code = WS_ERROR_BAD_ARGUMENT;
              return 0;
            }
        }
      else if (strcmp (name, "--no-trace") == 0)
        opts->trace = 0;
      else if (strcmp (name, "--summary") == 0)
        opts->summary = 1;
      else if (strcmp (name, "--check") == 0)
        opts->check = 1;
      else
        return fail (err, WS_ERROR_BAD_ARGUMENT, "unknown option %s; see --help", name);
    }

  if (opts->mode == WS_MODE_NONE)
    {
      if (opts->n_sizes || opts->n_blocks)
        return fail (err, WS_ERROR_BAD_ARGUMENT,
                     "--sizes and --blocks need a kernel: add --kernel vector_add (see --list)");
      return fail (err, WS_ERROR_BAD_ARGUMENT,
                   "nothing to do: give --kernel K to run one (e.g. --kernel vector_add), "
                   "--source FILE to run your own, or --list, --device-info, --self-test, "
                   "--help");
    }
  if (opts->shard_count > 0 && opts->mode != WS_MODE_RUN)
    return fail (err, WS_ERROR_BAD_ARGUMENT, "--shard shares out the configurations of a sweep: it "
                 "needs --kernel, not --list, --device-info or --self-test");
  if (!check_own (opts, err))
    return 0;
  if (opts->mode == WS_MODE_RUN)
    return ws_args_check_runs (opts, err);
  return 1;
}

void
ws_size_shape (const WsSize *size, const WsKernelDesc *kernel, uint64_t shape[3])
{
  shape[0] = size->dims[0];
  shape[1] = kernel->shape_rank == 1 ? 1 : size->dims[1];
  shape[2] = kernel->shape_rank == 3 ? size->dims[2] : 1;
}

void
ws_shape_text (const WsKernelDesc *kernel, const uint64_t shape[3], char *buf, size_t len)
{
  if (kernel->shape_rank == 1)
    snprintf (buf, len, "%llu", (unsigned long long) shape[0]);
  else if (kernel->shape_rank == 2)
    snprintf (buf, len, "%llux%llu", (unsigned long long) shape[0],
              (unsigned long long) shape[1]);
  else
    snprintf (buf, len, "%llux%llux%llu", (unsigned long long) shape[0],
              (unsigned long long) shape[1], (unsigned long long) shape[2]);
}
