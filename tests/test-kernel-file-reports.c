/* test-kernel-file-reports.c: what comes back about an own kernel's file: NVRTC's log and
 * compute-sanitizer's report read into diagnostics, and the SHA-256 that names a compiled
 * source. No GPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "ws-nvrtc-log.h"
#include "ws-sanitizer-report.h"
#include "ws-sha256.h"

static void
test_sha256 (void)
{
  char hex[65];
  g_autofree char *million = g_strnfill (1000000, 'a');

  ws_sha256_of ("", 0, hex);
  g_assert_cmpstr (hex, ==, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  ws_sha256_of ("abc", 3, hex);
  g_assert_cmpstr (hex, ==, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  ws_sha256_of (million, 1000000, hex);
  g_assert_cmpstr (hex, ==, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  /* The same as GLib's, at every length around a block's. */
  for (gsize n = 0; n < 200; n++)
    {
      g_autofree char *want = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                           (const guchar *) million, n);

      ws_sha256_of (million, n, hex);
      g_assert_cmpstr (hex, ==, want);
    }
}

/* Logs as NVRTC 13.0 wrote them for this file's examples of errors. */
static void
test_nvrtc_log (void)
{
  const char *log
    = "dir/my.cu(3): error: identifier \"zz\" is undefined\n"
      "  \tint i = zz;\n"
      "  \t        ^\n"
      "\n"
      "dir/my.cu(4): error: identifier \"xx\" is undefined\n"
      "    c[i] = xx;\n"
      "           ^\n"
      "\n"
      "dir/my.cu(7): warning #1105-D: #warning directive: hello\n"
      "  #warning hello\n"
      "   ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "\n"
      "dir/my.cu(1): catastrophic error: could not open source file \"nothere.h\"\n"
      "  #include <nothere.h>\n"
      "                      ^\n"
      "\n"
      "2 errors detected in the compilation of \"dir/my.cu\".\n"
      "ptxas error   : Entry function '_Z1kPf' uses too much shared data (0x61a80 bytes, 0xc000 max)\n"
      "nvrtc: error: unrecognized option -bogus found\n"
      "__nv_name_map(2): error: cannot determine which instance of function template \"k\"\n"
      "  #pragma nv_mangled_name k\n"
      "                          ^\n";
  WsCompileDiag d[16];
  int n = ws_nvrtc_parse_log (log, "dir/my.cu", d, 16);

  g_assert_cmpint (n, ==, 7);
  g_assert_cmpint (d[0].line, ==, 3);
  g_assert_cmpint (d[0].column, ==, 10); /* the tab is one byte */
  g_assert_cmpstr (d[0].severity, ==, "error");
  g_assert_cmpstr (d[0].message, ==, "identifier \"zz\" is undefined");
  g_assert_cmpint (d[1].line, ==, 4);
  g_assert_cmpint (d[1].column, ==, 10);
  g_assert_cmpstr (d[2].severity, ==, "warning");
  g_assert_cmpint (d[2].line, ==, 7);
  g_assert_cmpint (d[3].line, ==, 1);
  g_assert_cmpstr (d[3].severity, ==, "error");
  g_assert_cmpint (d[4].line, ==, 0);
  g_assert_true (g_str_has_prefix (d[4].message, "ptxas: Entry function"));
  g_assert_cmpstr (d[5].message, ==, "unrecognized option -bogus found");
  g_assert_true (d[6].name_lookup);
  /* More diagnostics than room: counted, not written past the end. */
  g_assert_cmpint (ws_nvrtc_parse_log (log, "dir/my.cu", d, 2), ==, 7);
  g_assert_cmpint (ws_nvrtc_parse_log ("", "x.cu", d, 16), ==, 0);
}

/* The wording of compute-sanitizer 2025.3, as it reported the missing bounds guard on an
 * NVIDIA H200: the address after "Access to", not "Address". */
static void
test_sanitizer_report_2025 (void)
{
  const char *report
    = "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at vector_add_oob+0x100 in vector_add_oob.cu:26\n"
      "=========     by thread (65,0,0) in block (3906,0,0)\n"
      "=========     Access to 0x7fd0513d0904 is out of bounds\n"
      "=========     and is 1 bytes after the nearest allocation at 0x7fd051000000 of size "
      "4,000,004 bytes\n"
      "=========\n"
      "========= ERROR SUMMARY: 1 error\n";
  WsSanitizerFinding f[2];
  WsSanitizerSummary s;

  g_assert_cmpint (ws_sanitizer_parse (report, f, 2, &s), ==, 1);
  g_assert_cmpstr (f[0].address, ==, "0x7fd0513d0904");
  g_assert_cmpstr (f[0].kind, ==, "out_of_bounds");
  g_assert_cmpint (f[0].line, ==, 26);
  g_assert_cmpint (f[0].size, ==, 4);
  g_assert_nonnull (strstr (f[0].detail, "Access to 0x7fd0513d0904 is out of bounds"));
}

static void
test_sanitizer_report (void)
{
  const char *report
    = "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at vector_add_oob+0x90 in /w/examples/kernels/vector_add_oob.cu:24\n"
      "=========     by thread (160,0,0) in block (3906,0,0)\n"
      "=========     Address 0x7f1c2a26ca00 is out of bounds\n"
      "=========     and is 1 bytes after the nearest allocation at 0x7f1c28000000 of size "
      "4000004 bytes\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: [0x2dbc8f]\n"
      "=========\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at vector_add_oob+0x90 in /w/examples/kernels/vector_add_oob.cu:24\n"
      "=========     by thread (161,0,0) in block (3906,0,0)\n"
      "=========     Address 0x7f1c2a26ca04 is out of bounds\n"
      "=========\n"
      /* Older releases: "at OFFSET in FILE:LINE:KERNEL". */
      "========= Invalid __global__ read of size 8\n"
      "=========     at 0x000000c8 in /home/u/src/helper.cuh:75:void proj<double>(double*, int)\n"
      "=========     by thread (9,0,0) in block (0,0,0)\n"
      "=========     Address 0x000370e8 is misaligned\n"
      "=========\n"
      "========= Uninitialized __global__ memory read of size 4 bytes\n"
      "=========     at k+0x30 in init.cu:7\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "=========\n"
      "========= Error: Race reported between Write access at k(int *)+0x40 in race.cu:10\n"
      "=========     and Read access at k(int *)+0x60 in race.cu:12 [512 hazards]\n"
      "=========\n"
      "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
      "failure\" on CUDA API call to cudaStreamSynchronize.\n"
      "=========\n"
      "========= ERROR SUMMARY: 6 errors\n";
  WsSanitizerFinding f[8];
  WsSanitizerSummary s;
  int n = ws_sanitizer_parse (report, f, 8, &s);

  g_assert_cmpint (n, ==, 5);
  g_assert_cmpint (s.errors, ==, 6);
  g_assert_cmpint (s.reports, ==, 6);
  /* The two threads' writes at one line are one finding, counted twice, with the first
   * thread's place. */
  g_assert_cmpstr (f[0].kind, ==, "out_of_bounds");
  g_assert_cmpstr (f[0].file, ==, "/w/examples/kernels/vector_add_oob.cu");
  g_assert_cmpint (f[0].line, ==, 24);
  g_assert_cmpstr (f[0].kernel, ==, "vector_add_oob");
  g_assert_cmpstr (f[0].access, ==, "write");
  g_assert_cmpstr (f[0].space, ==, "global");
  g_assert_cmpint (f[0].size, ==, 4);
  g_assert_cmpint (f[0].count, ==, 2);
  g_assert_true (f[0].has_thread);
  g_assert_cmpuint (f[0].thread[0], ==, 160);
  g_assert_cmpuint (f[0].block[0], ==, 3906);
  g_assert_cmpstr (f[0].address, ==, "0x7f1c2a26ca00");
  g_assert_nonnull (strstr (f[0].detail, "1 bytes after the nearest allocation"));
  g_assert_cmpstr (f[1].kind, ==, "misaligned");
  g_assert_cmpstr (f[1].file, ==, "/home/u/src/helper.cuh");
  g_assert_cmpint (f[1].line, ==, 75);
  g_assert_cmpstr (f[1].kernel, ==, "void proj<double>(double*, int)");
  g_assert_cmpstr (f[2].kind, ==, "uninitialized");
  g_assert_cmpint (f[2].line, ==, 7);
  g_assert_cmpstr (f[3].kind, ==, "race");
  g_assert_cmpint (f[3].line, ==, 10);
  g_assert_nonnull (strstr (f[3].detail, "race.cu:12"));
  g_assert_cmpstr (f[4].kind, ==, "api_error");
  g_assert_cmpint (f[4].line, ==, 0);
  g_assert_cmpint (ws_sanitizer_parse ("", f, 8, &s), ==, 0);
  g_assert_cmpint (s.errors, ==, -1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernel-file/sha256", test_sha256);
  g_test_add_func ("/kernel-file/nvrtc-log", test_nvrtc_log);
  g_test_add_func ("/kernel-file/sanitizer-report", test_sanitizer_report);
  g_test_add_func ("/kernel-file/sanitizer-report-2025", test_sanitizer_report_2025);
  return g_test_run ();
}
