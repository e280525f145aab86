/* test-gpu-errors.c: what the runner says when a run cannot go on, on a real GPU: a kernel
 * fault, a size too large for the device, a device that does not exist, CUPTI missing.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu-support.h"

int
main (int argc, char **argv)
{
  Output out;
  const JValue *e;

  (void) argc;
  skip_without_gpu (argv[1]);

  {
    const char *args[] = { "--kernel", "vector_add,debug_fault", "--sizes", "1e6",
                           "--blocks", "256", "--reps", "3", "--cpu", "none", NULL };

    run_runner (&out, argv[1], args);
    e = find_record (&out, "error", 0);
    tap_ok (out.exit_code == 4, "a kernel fault exits 4 (got %d)", out.exit_code);
    tap_ok (e && strcmp (j_str (e, "code"), "kernel_fault") == 0 && j_num (e, "run") == 2,
            "the fault is reported as kernel_fault for run 2 (%s)", e ? j_str (e, "code") : "none");
    tap_ok (find_record (&out, "timing", 0) != NULL
              && j_num (find_record (&out, "timing", 0), "run") == 1,
            "the run before the fault is complete");
    tap_ok (find_record (&out, "done", 0) != NULL, "the stream still ends with done");
    output_free (&out);
  }
  {
    const char *args[] = { "--kernel", "vector_add", "--sizes", "1e3,1e11", NULL };

    run_runner (&out, argv[1], args);
    e = find_record (&out, "error", 0);
    tap_ok (out.exit_code == 2 && e && strcmp (j_str (e, "code"), "size_too_large") == 0,
            "n = 1e11 is refused as size_too_large before anything runs (exit %d)",
            out.exit_code);
    tap_ok (e && strstr (j_str (e, "message"), "GB on the GPU") && strstr (j_str (e, "message"), "free"),
            "the message names what is needed and what is free: %s", e ? j_str (e, "message") : "");
    tap_ok (count_records (&out, "run") == 0, "no run started");
    output_free (&out);
  }
  {
    const char *args[] = { "--kernel", "vector_add", "--device", "99", NULL };

    run_runner (&out, argv[1], args);
    e = find_record (&out, "error", 0);
    tap_ok (out.exit_code == 2 && e && strcmp (j_str (e, "code"), "invalid_device") == 0,
            "--device 99 is refused as invalid_device (exit %d)", out.exit_code);
    output_free (&out);
  }
  {
    const char *args[] = { "--kernel", "vector_add", "--sizes", "1e6", "--reps", "3", "--cpu",
                           "none", NULL };
    const JValue *t;

    setenv ("WARPSCOPE_LIBCUPTI", "/nonexistent/libcupti.so", 1);
    run_runner (&out, argv[1], args);
    unsetenv ("WARPSCOPE_LIBCUPTI");
    e = find_record (&out, "error", 0);
    t = find_record (&out, "timing", 0);
    tap_ok (e && strcmp (j_str (e, "code"), "cupti_unavailable") == 0
              && strcmp (j_str (e, "severity"), "warning") == 0,
            "without CUPTI a cupti_unavailable warning is recorded");
    tap_ok (out.exit_code == 0 && t && j_num (t, "traced") == 0
              && j_num (t, "kernel_untraced_ns") > 0 && j_num (j_get (t, "h2d_ns"), "median") > 0,
            "and the run goes on, timed without tracing (exit %d)", out.exit_code);
    tap_ok (count_records (&out, "activity") == 0, "with no activity records");
    output_free (&out);
  }
  return tap_done ();
}
