/* test-gpu-selftest.c: --self-test passes on this GPU, every run verified, and every kernel
 * of the catalog is in it at sizes that are and are not multiples of its blocks and tiles.
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
    const char *list_args[] = { "--list", NULL };
    Output list;
    int streamed_runs = 0, streamed_passed = 0;

    /* 32 divides every block edge and tile of the catalog (up to 128×128 for
     * matmul_regtile), so a size with a dimension that is not a multiple of 32 leaves a
     * partial block or tile, and one whose dimensions all are, none. */
    run_runner (&list, argv[1], list_args);
    for (size_t k = 0; k < count_records (&list, "kernel"); k++)
      {
        const char *name = j_str (find_record (&list, "kernel", k), "name");
        int runs_of = 0, passed_of = 0, whole = 0, partial = 0;

        for (size_t i = 0; i < runs; i++)
          {
            const JValue *run = find_record (&out, "run", i);
            const JValue *shape = j_get (run, "shape");
            int id = (int) j_num (run, "id"), multiple = 1, pass = 0;

            if (strcmp (j_str (run, "kernel"), name) != 0)
              continue;
            for (size_t d = 0; shape && d < shape->len; d++)
              multiple &= fmod (shape->items[d]->number, 32) == 0;
            for (size_t v = 0; v < verifies; v++)
              if ((int) j_num (find_record (&out, "verify", v), "run") == id)
                pass = j_num (find_record (&out, "verify", v), "pass") == 1;
            runs_of++;
            passed_of += pass;
            whole += pass && multiple;
            partial += pass && !multiple;
            if (strncmp (j_str (run, "transfer"), "streams:", 8) == 0)
              streamed_runs++, streamed_passed += pass;
          }
        tap_ok (runs_of > 0 && passed_of == runs_of && whole > 0 && partial > 0,
                "%s: %d of %d self-test runs pass, %d at sizes that are multiples of its "
                "blocks and tiles, %d at sizes that are not",
                name, passed_of, runs_of, whole, partial);
      }
    tap_ok (streamed_runs >= 5 && streamed_passed == streamed_runs,
            "the streams:K cases pass (%d of %d)", streamed_passed, streamed_runs);
    output_free (&list);
  }
  {
    const char *list_args[] = { "--list", NULL };
    Output list;

    /* Every 1D kernel of our own was swept over n = 1…67 on small blocks and grids, where
     * vector_add_vec4 once left the last elements unwritten (n = 31, one thread a block). */
    run_runner (&list, argv[1], list_args);
    for (size_t k = 0; k < count_records (&list, "kernel"); k++)
      {
        const JValue *kernel = find_record (&list, "kernel", k);
        const JValue *params = j_get (kernel, "shape_params");
        const JValue *tails = NULL;

        if (params == NULL || params->len != 1 || j_str (kernel, "library") != NULL)
          continue;
        for (size_t i = 0; i < count_records (&out, "selftest"); i++)
          if (strcmp (j_str (find_record (&out, "selftest", i), "kernel"), j_str (kernel, "name"))
              == 0)
            tails = find_record (&out, "selftest", i);
        tap_ok (tails && j_num (tails, "cases") >= 67 * 5 && j_num (tails, "failed") == 0,
                "%s: %.0f small cases (n = 1…67, five blocks, small grids), %.0f failed",
                j_str (kernel, "name"), tails ? j_num (tails, "cases") : 0,
                tails ? j_num (tails, "failed") : -1);
      }
    output_free (&list);
  }
  {
    const JValue *d = find_record (&out, "done", 0);

    tap_ok (d != NULL && j_num (d, "dropped_records") == 0, "no CUPTI records dropped");
  }
  output_free (&out);
  return tap_done ();
}
