/* test-gpu-shard.c: --shard K/N on a real GPU: three shares of a sweep run exactly the whole
 * sweep's configurations once each, with the whole sweep's ids and seeds, each share on its
 * own GPU where there are several; every run verifies; a share with nothing in it touches no
 * GPU; progress counts the share from 0.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu-support.h"

#define SHARES 3

static const char *const sweep[] = { "--kernel", "vector_add,vector_add_vec4", "--sizes",
                                     "1e4,1e5,1e6", "--blocks", "128,256", "--reps", "2",
                                     "--warmup", "1", "--cpu", "none", "--seed", "7" };
#define SWEEP_ARGS (sizeof sweep / sizeof sweep[0])

static int
same_member (const JValue *a, const JValue *b, const char *key)
{
  const JValue *x = j_get (a, key), *y = j_get (b, key);

  if (x == NULL || y == NULL || x->type != y->type)
    return x == y;
  if (x->type == J_STRING)
    return strcmp (x->string, y->string) == 0;
  if (x->type == J_NUMBER)
    return x->number == y->number;
  if (x->type == J_ARRAY)
    {
      if (x->len != y->len)
        return 0;
      for (size_t i = 0; i < x->len; i++)
        if (x->items[i]->number != y->items[i]->number)
          return 0;
    }
  return 1;
}

static const JValue *
run_with_id (const Output *out, int id)
{
  for (size_t i = 0; i < count_records (out, "run"); i++)
    {
      const JValue *r = find_record (out, "run", i);

      if ((int) j_num (r, "id") == id)
        return r;
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *runner = argc > 1 ? argv[1] : "warpscope-runner";
  const char *args[SWEEP_ARGS + 6];
  Output whole, shares[SHARES], empty, info;
  int seen[64] = { 0 }, n_gpus;
  size_t n_whole;

  skip_without_gpu (runner);
  run_runner (&info, runner, (const char *const[]) { "--device-info", NULL });
  n_gpus = (int) count_records (&info, "device");
  output_free (&info);

  for (size_t i = 0; i < SWEEP_ARGS; i++)
    args[i] = sweep[i];
  args[SWEEP_ARGS] = NULL;
  run_runner (&whole, runner, args);
  n_whole = count_records (&whole, "run");
  tap_ok (whole.exit_code == 0 && n_whole == 12, "the whole sweep: %zu runs, exit %d", n_whole,
          whole.exit_code);

  for (int k = 0; k < SHARES; k++)
    {
      char shard[16], device[16];
      const JValue *first_progress, *dev;
      size_t n_runs, verified = 0;
      int ok = 1;

      snprintf (shard, sizeof shard, "%d/%d", k, SHARES);
      snprintf (device, sizeof device, "%d", k % (n_gpus > 0 ? n_gpus : 1));
      args[SWEEP_ARGS] = "--shard";
      args[SWEEP_ARGS + 1] = shard;
      args[SWEEP_ARGS + 2] = "--device";
      args[SWEEP_ARGS + 3] = device;
      args[SWEEP_ARGS + 4] = NULL;
      run_runner (&shares[k], runner, args);
      n_runs = count_records (&shares[k], "run");
      for (size_t i = 0; i < n_runs; i++)
        {
          const JValue *r = find_record (&shares[k], "run", i);
          int id = (int) j_num (r, "id");
          const JValue *w = run_with_id (&whole, id);

          if (id < 1 || id > 63 || (id - 1) % SHARES != k || w == NULL)
            {
              ok = 0;
              continue;
            }
          seen[id]++;
          ok = ok && same_member (r, w, "kernel") && same_member (r, w, "shape")
               && same_member (r, w, "block") && same_member (r, w, "transfer")
               && same_member (r, w, "seed");
        }
      for (size_t i = 0; i < count_records (&shares[k], "verify"); i++)
        verified += j_num (find_record (&shares[k], "verify", i), "pass") == 1;
      first_progress = find_record (&shares[k], "progress", 0);
      dev = find_record (&shares[k], "device", 0);
      tap_ok (ok && shares[k].exit_code == 0, "share %s: %zu runs, each the whole sweep's run "
              "of its id (kernel, shape, block, transfer, seed), exit %d",
              shard, n_runs, shares[k].exit_code);
      tap_ok (verified == n_runs, "share %s: %zu of %zu runs verified", shard, verified, n_runs);
      tap_ok (first_progress != NULL && j_num (first_progress, "done") == 0
                && j_num (first_progress, "total") == (double) n_runs,
              "share %s: progress starts at 0/%zu", shard, n_runs);
      tap_ok (dev != NULL && j_num (dev, "index") == atof (device),
              "share %s ran on GPU %s", shard, device);
    }
  {
    int once = 1;

    for (size_t id = 1; id <= n_whole; id++)
      once = once && seen[id] == 1;
    tap_ok (once, "the shares hold every run of the sweep exactly once");
  }
  args[SWEEP_ARGS] = "--shard";
  args[SWEEP_ARGS + 1] = "40/41";
  args[SWEEP_ARGS + 2] = NULL;
  run_runner (&empty, runner, args);
  tap_ok (empty.exit_code == 0 && count_records (&empty, "run") == 0
            && count_records (&empty, "device") == 0 && count_records (&empty, "done") == 1,
          "an empty share: no device opened, no run, exit %d", empty.exit_code);

  output_free (&whole);
  for (int k = 0; k < SHARES; k++)
    output_free (&shares[k]);
  output_free (&empty);
  return tap_done ();
}
