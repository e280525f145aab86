/* ws-args.c: the runner's command line, option by option; nothing here touches the GPU, so a
 * typo is reported as a typo on any machine. The lists of --sizes and --blocks are read in
 * ws-args-lists.c, the other values in ws-args-values.c, and the options are checked together
 * in ws-args-check.c.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-args-private.h"
#include "ws-counters.h"

#include "ws-shard.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    "  --counters GROUPS    read the GPU's counters in one more launch of each\n"
    "                       configuration, after the timed ones: basic, memory, stalls\n"
    "                       or all, or several with commas (docs/counters.md)\n"
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

int
_ws_args_fail (WsArgError *err, WsErrorCode code, const char *fmt, ...)
{
  va_list ap;

  err->code = code;
  va_start (ap, fmt);
  vsnprintf (err->message, sizeof err->message, fmt, ap);
  va_end (ap);
  return 0;
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
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "%s cannot be combined with %s: give one mode at a time (--kernel or --source, "
                 "--check-source, --list, --device-info, --self-test)",
                 option, opts->mode_option);
  opts->mode = mode;
  snprintf (opts->mode_option, sizeof opts->mode_option, "%s", option);
  return 1;
}

/* An example of the option with its value, for the message that it needs one; NULL for an
 * option that takes no value. */
static const char *
value_example (const char *name)
{
  static const char *const examples[] = {
    "--kernel vector_add", "--sizes 1e3:1e7:x10", "--blocks 128,256",
    "--transfer pageable,pinned", "--reps 10", "--warmup 3", "--cpu 1,all", "--cpu-reps 5",
    "--cpu-budget 10", "--device 0", "--seed 42", "--cache cold", "--shard 0/4",
    "--source kernel.cu", "--check-source kernel.cu", "--param TILE=16,32", "--arch sm_90",
    "--memcheck memcheck", "--counters basic",
  };
  size_t n = strlen (name);

  for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
    if (strncmp (examples[i], name, n) == 0 && examples[i][n] == ' ')
      return examples[i];
  return NULL;
}

/* The option at argv[*i] into name, and its value (after = or the next word) when it takes
 * one; *i moves past what was read. */
static int
read_option (int argc, char **argv, int *i, char *name, size_t name_len, const char **value,
             WsArgError *err)
{
  const char *arg = argv[*i];
  const char *eq = strchr (arg, '=');

  *value = NULL;
  if (strncmp (arg, "--", 2) != 0)
    return fail (err, WS_ERROR_BAD_ARGUMENT, "unexpected argument '%s'; options start with --, "
                 "see --help", arg);
  snprintf (name, name_len, "%.*s", (int) (eq ? eq - arg : (long) strlen (arg)), arg);
  if (value_example (name) != NULL)
    {
      if (eq != NULL)
        *value = eq + 1;
      else if (*i + 1 < argc)
        *value = argv[++*i];
      else
        return fail (err, WS_ERROR_BAD_ARGUMENT, "%s needs a value, e.g. %s", name,
                     value_example (name));
    }
  else if (eq != NULL)
    return fail (err, WS_ERROR_BAD_ARGUMENT, "%s takes no value: write %s alone", name, name);
  return 1;
}

/* Each of the option groups below returns 1 when it took the option, 0 after refusing it and
 * -1 when the option is not one of its own. */

/* What the runner is to do, and an own kernel's file. */
static int
parse_mode_option (WsOptions *opts, const char *name, const char *value, WsArgError *err)
{
  if (strcmp (name, "--help") == 0)
    {
      opts->mode = WS_MODE_HELP;
      snprintf (opts->mode_option, sizeof opts->mode_option, "%s", name);
    }
  else if (strcmp (name, "--version") == 0)
    {
      opts->mode = WS_MODE_VERSION;
      snprintf (opts->mode_option, sizeof opts->mode_option, "%s", name);
    }
  else if (strcmp (name, "--list") == 0)
    return set_mode (opts, WS_MODE_LIST, name, err);
  else if (strcmp (name, "--device-info") == 0)
    return set_mode (opts, WS_MODE_DEVICE_INFO, name, err);
  else if (strcmp (name, "--self-test") == 0)
    return set_mode (opts, WS_MODE_SELF_TEST, name, err);
  else if (strcmp (name, "--kernel") == 0)
    return set_mode (opts, WS_MODE_RUN, name, err) && _ws_args_parse_kernels (opts, value, err);
  else if (strcmp (name, "--source") == 0 || strcmp (name, "--check-source") == 0)
    {
      if (!set_mode (opts, name[2] == 's' ? WS_MODE_RUN : WS_MODE_CHECK_SOURCE, name, err))
        return 0;
      if (opts->source != NULL)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "%s is given twice: one kernel file at a time",
                     name);
      if (*value == '\0')
        return fail (err, WS_ERROR_BAD_ARGUMENT, "%s needs the path of a kernel file, e.g. %s",
                     name, value_example (name));
      opts->source = value;
    }
  else
    return -1;
  return 1;
}

/* An own kernel's parameters, architecture and checked run. */
static int
parse_own_option (WsOptions *opts, const char *name, const char *value, WsArgError *err)
{
  if (strcmp (name, "--param") == 0)
    return _ws_args_parse_param (opts, value, err);
  if (strcmp (name, "--arch") == 0)
    return _ws_args_parse_arch (opts, value, err);
  if (strcmp (name, "--memcheck") != 0)
    return -1;
  if (strcmp (value, "memcheck") != 0 && strcmp (value, "racecheck") != 0
      && strcmp (value, "initcheck") != 0)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--memcheck takes memcheck (out-of-bounds and misaligned accesses), "
                 "racecheck (shared-memory races) or initcheck (reads of memory never "
                 "written), not '%s'", value);
  opts->memcheck = value;
  return 1;
}

/* The counts: repetitions, CPU baselines' runs and time, the GPU, the seed; the counters. */
static int
parse_count_option (WsOptions *opts, const char *name, const char *value, WsArgError *err)
{
  long v;

  if (strcmp (name, "--counters") == 0)
    {
      if (!ws_counters_parse_groups (value, &opts->counters))
        return fail (err, WS_ERROR_BAD_ARGUMENT,
                     "--counters takes basic, memory, stalls or all (or several with commas: "
                     "basic,memory), not '%s'", value);
      opts->counters_text = value;
      return 1;
    }

  if (strcmp (name, "--reps") == 0)
    {
      if (!_ws_args_parse_int ("--reps", value, 1, 100000, &v, err))
        return 0;
      opts->reps = (int) v;
    }
  else if (strcmp (name, "--warmup") == 0)
    {
      if (!_ws_args_parse_int ("--warmup", value, 0, 10000, &v, err))
        return 0;
      opts->warmup = (int) v;
    }
  else if (strcmp (name, "--cpu-reps") == 0)
    {
      if (!_ws_args_parse_int ("--cpu-reps", value, 1, 1000, &v, err))
        return 0;
      opts->cpu_reps = (int) v;
    }
  else if (strcmp (name, "--cpu-budget") == 0)
    {
      char *end;
      double d = strtod (value, &end);

      if (end == value || *end != '\0' || !(d > 0) || d > 86400)
        return fail (err, WS_ERROR_BAD_ARGUMENT,
                     "--cpu-budget needs a number of seconds above 0, such as 10, and at "
                     "most 86400 (a day); not '%s'",
                     value);
      opts->cpu_budget = d;
    }
  else if (strcmp (name, "--device") == 0)
    {
      if (!_ws_args_parse_int ("--device", value, 0, 1023, &v, err))
        return 0;
      opts->device = (int) v;
      opts->device_given = 1;
    }
  else if (strcmp (name, "--seed") == 0)
    {
      uint64_t s;
      int neg;

      if (!_ws_args_parse_count (value, strlen (value), &s, &neg))
        return fail (err, WS_ERROR_BAD_ARGUMENT, "--seed needs a whole number, not '%s'",
                     value);
      opts->seed = s;
    }
  else
    return -1;
  return 1;
}

/* What a run sweeps and how: sizes, blocks, transfer modes, CPU baselines, the cache, a
 * share of the sweep, and the switches. */
static int
parse_run_option (WsOptions *opts, const char *name, const char *value, WsArgError *err)
{
  if (strcmp (name, "--sizes") == 0)
    return _ws_args_parse_sizes (opts, value, err);
  if (strcmp (name, "--blocks") == 0)
    return _ws_args_parse_blocks (opts, value, err);
  if (strcmp (name, "--transfer") == 0)
    return _ws_args_parse_transfers (opts, value, err);
  if (strcmp (name, "--cpu") == 0)
    {
      opts->cpu_given = 1;
      return _ws_args_parse_cpu (opts, value, err);
    }
  if (strcmp (name, "--cache") == 0)
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
    return -1;
  return 1;
}

/* Once every option is read: something to do, and options that suit it. */
static int
check_parsed (WsOptions *opts, WsArgError *err)
{
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
  if (!_ws_args_check_own (opts, err))
    return 0;
  if (opts->counters != 0 && (opts->mode != WS_MODE_RUN || opts->memcheck != NULL))
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--counters goes with a run (--kernel or --source), not with %s: leave it "
                 "out here", opts->memcheck != NULL ? "--memcheck" : opts->mode_option);
  if (opts->mode == WS_MODE_RUN)
    return ws_args_check_runs (opts, err);
  return 1;
}

int
ws_args_parse (int argc, char **argv, WsOptions *opts, WsArgError *err)
{
  defaults (opts);
  err->code = WS_ERROR_NONE;
  err->message[0] = '\0';

  for (int i = 1; i < argc; i++)
    {
      char name[40];
      const char *value;
      int taken;

      if (!read_option (argc, argv, &i, name, sizeof name, &value, err))
        return 0;
      taken = parse_mode_option (opts, name, value, err);
      if (taken < 0)
        taken = parse_own_option (opts, name, value, err);
      if (taken < 0)
        taken = parse_count_option (opts, name, value, err);
      if (taken < 0)
        taken = parse_run_option (opts, name, value, err);
      if (taken < 0)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "unknown option %s; see --help", name);
      if (taken == 0)
        return 0;
    }
  return check_parsed (opts, err);
}
