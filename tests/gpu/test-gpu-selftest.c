/* test-gpu-selftest.c: --self-test passes on this GPU, every run verified.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu-support.h"

int
main (int argc, char **argv)
{
  const char *args[] = { "--self-test", NULL };
  Output out;
  size_t runs, verifies, passed = 0;

  skip_without_gpu (argv[1]);
  (void) argc;
  run_runner (&out, argv[1], args);
  runs = count_records (&out, "run");
  verifies = count_records (&out, "verify");
  for (size_t i = 0; i < verifies; i++)
    {
      const JValue *v = find_record (&out, "verify", i);

      if (j_num (v, "pass") == 1)
        passed++;
      else
        fprintf (stderr, "# run %.0f failed: %.0f mismatches, %.0f unwritten\n",
                 j_num (v, "run"), j_num (v, "mismatches"), j_num (v, "unwritten"));
    }
  tap_ok (out.exit_code == 0, "self-test exits 0 (got %d)", out.exit_code);
  tap_ok (runs >= 15, "self-test ran every case (%zu runs)", runs);
  tap_ok (verifies == runs && passed == runs, "every run verified (%zu of %zu)", passed, runs);
  tap_ok (count_records (&out, "error") == 0, "no error records");
  {
    const JValue *d = find_record (&out, "done", 0);

    tap_ok (d != NULL && j_num (d, "dropped_records") == 0, "no CUPTI records dropped");
  }
  output_free (&out);
  return tap_done ();
}
