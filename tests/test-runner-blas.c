/* test-runner-blas.c: how the runner finds a BLAS for its CPU baselines, without a GPU: a real
 * one (Debian's OpenBLAS) found by the usual names and checked against the hand-written
 * SGEMM, one named by WARPSCOPE_BLAS, and the newest of several OpenBLAS builds kept (two
 * stand-ins of different versions, in a folder and in a Python environment's numpy.libs).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws-blas.h"
#include "ws-gemm-cpu.h"

static void
fill (float *p, guint n, guint seed)
{
  for (guint i = 0; i < n; i++)
    p[i] = (float) ((i * 2654435761u + seed * 40503u) % 2001u) / 1000.0f - 1.0f;
}

/* Debian's OpenBLAS (libopenblas0-pthread, which ./dev installs) is found by the usual
 * names, says what it is and how many threads it uses, and its SGEMM agrees with the
 * hand-written one on a product whose sizes are multiples of nothing. */
static void
test_blas_openblas (void)
{
  const guint m = 67, n = 45, k = 129;
  g_autofree float *A = g_new (float, m * k), *B = g_new (float, k * n);
  g_autofree float *C = g_new (float, m * n), *ref = g_new (float, m * n);
  char why[600] = "", label[128];
  /* Read before the runner sets it: a machine (or a person) may have chosen already, and the
   * runner keeps that choice. */
  g_autofree char *chosen = g_ascii_strdown (g_getenv ("OPENBLAS_CORETYPE") ?: "", -1);
  WsBlas *blas = ws_blas_open (NULL, why, sizeof why);
  const WsBlasInfo *info;
  g_autofree char *config = NULL;

  if (blas == NULL)
    g_error ("no BLAS was loaded (%s): install libopenblas0-pthread (./dev does)", why);
  info = ws_blas_get_info (blas);
  g_assert_cmpstr (info->name, ==, "OpenBLAS");
  g_assert_true (g_ascii_isdigit (info->version[0]));
  g_assert_true (g_str_has_prefix (info->config, "OpenBLAS "));
  g_assert_cmpstr (info->symbol, ==, "cblas_sgemm");
  g_assert_false (info->int64);
  g_assert_true (info->threads_settable);
  g_assert_true (g_path_is_absolute (info->path));
  ws_blas_label (blas, label, sizeof label);
  g_assert_true (g_str_has_prefix (label, "OpenBLAS 0."));
  g_assert_cmpint (ws_blas_set_threads (blas, 2), ==, 2);
  g_assert_cmpint (ws_blas_set_threads (blas, 1), ==, 1);
  config = g_ascii_strdown (info->config, -1);
#if defined(__x86_64__)
  /* Debian's OpenBLAS 0.3.21 does not know recent Xeons and would run its SSE3 kernels on
   * them: the runner has it use the CPU's vector units, unless OPENBLAS_CORETYPE chose. */
  if (*chosen != '\0')
    g_assert_nonnull (strstr (config, chosen));
  else if (__builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
      && __builtin_cpu_supports ("avx512dq") && __builtin_cpu_supports ("avx512vl"))
    g_assert_nonnull (strstr (info->config, "SkylakeX"));
  else if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    g_assert_null (strstr (info->config, "Prescott"));
#endif

  fill (A, m * k, 1);
  fill (B, k * n, 2);
  for (int threads = 1; threads <= 2; threads++)
    {
      memset (C, 0xFF, m * n * sizeof (float));
      ws_blas_set_threads (blas, threads);
      ws_blas_sgemm (blas, A, B, C, m, n, k);
      ws_gemm_cpu (A, B, ref, m, n, k, threads);
      for (guint i = 0; i < m * n; i++)
        if (!(fabsf (C[i] - ref[i]) <= 1e-4f * (1.0f + fabsf (ref[i]))))
          g_error ("element %u: OpenBLAS %g, hand-written %g", i, C[i], ref[i]);
    }
  ws_blas_free (blas);
}

/* Several OpenBLAS builds: the newest is kept whatever order they are found in (0.9.1 over
 * 0.3.9, which a comparison of the text would get wrong), in a folder and beside the usual
 * names where a Python environment's numpy.libs holds one. */
static void
test_blas_newest (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-blas-XXXXXX", NULL);
  g_autofree char *site = g_build_filename (dir, "lib", "python3.12", "site-packages", NULL);
  g_autofree char *libs = g_build_filename (site, "numpy.libs", NULL);
  g_autofree char *bundled = g_build_filename (libs, "libscipy_openblas-standin.so", NULL);
  const char *const orders[2][2] = { { FAKE_OPENBLAS_OLD, FAKE_OPENBLAS_NEW },
                                     { FAKE_OPENBLAS_NEW, FAKE_OPENBLAS_OLD } };
  g_autofree char *venv = g_strdup (g_getenv ("VIRTUAL_ENV"));
  char why[600] = "";
  WsBlas *blas;

  for (int o = 0; o < 2; o++)
    {
      /* Names of their own each time: the dynamic loader knows a loaded library by its name. */
      g_autofree char *a = g_strdup_printf ("%s/libopenblas-%da.so", dir, o);
      g_autofree char *b = g_strdup_printf ("%s/libopenblas-%db.so", dir, o);

      g_assert_cmpint (symlink (orders[o][0], a), ==, 0);
      g_assert_cmpint (symlink (orders[o][1], b), ==, 0);
      blas = ws_blas_open (dir, why, sizeof why);
      g_assert_nonnull (blas);
      g_assert_cmpstr (ws_blas_get_info (blas)->version, ==, "0.9.1");
      g_autofree char *kept = realpath (ws_blas_get_info (blas)->path, NULL);
      g_autofree char *newer = realpath (FAKE_OPENBLAS_NEW, NULL);

      g_assert_cmpstr (kept, ==, newer);
      ws_blas_free (blas);
      g_unlink (a);
      g_unlink (b);
    }

  g_assert_cmpint (g_mkdir_with_parents (libs, 0700), ==, 0);
  g_assert_cmpint (symlink (FAKE_OPENBLAS_NEW, bundled), ==, 0);
  g_setenv ("VIRTUAL_ENV", dir, TRUE);
  blas = ws_blas_open (NULL, why, sizeof why);
  g_assert_nonnull (blas);
  g_assert_cmpstr (ws_blas_get_info (blas)->version, ==, "0.9.1");
  ws_blas_free (blas);
  /* An older one there is not kept over the system's. */
  g_unlink (bundled);
  g_assert_cmpint (symlink (FAKE_OPENBLAS_OLD, bundled), ==, 0);
  blas = ws_blas_open (NULL, why, sizeof why);
  g_assert_nonnull (blas);
  g_assert_cmpstr (ws_blas_get_info (blas)->version, !=, "0.3.9");
  ws_blas_free (blas);
  if (venv != NULL)
    g_setenv ("VIRTUAL_ENV", venv, TRUE);
  else
    g_unsetenv ("VIRTUAL_ENV");

  g_unlink (bundled);
  g_rmdir (libs);
  g_rmdir (site);
  g_autofree char *py = g_path_get_dirname (site), *lib = g_path_get_dirname (py);
  g_rmdir (py);
  g_rmdir (lib);
  g_rmdir (dir);
}

/* WARPSCOPE_BLAS names a file, a folder (an unpacked package), or none; what cannot be used
 * is said in words the runner puts in its note, and the baseline falls back to the
 * hand-written SGEMM. */
static void
test_blas_named (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-blas-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *usr = g_build_filename (dir, "usr", NULL);
  g_autofree char *lib = g_build_filename (usr, "lib", NULL);
  g_autofree char *unpacked = g_build_filename (lib, "openblas-pthread", NULL);
  g_autofree char *link = g_build_filename (unpacked, "libopenblas.so.0", NULL);
  char why[600] = "";
  WsBlas *blas;

  blas = ws_blas_open ("/nonexistent/libopenblas.so.0", why, sizeof why);
  g_assert_null (blas);
  g_assert_nonnull (strstr (why, "WARPSCOPE_BLAS=/nonexistent/libopenblas.so.0"));
  g_assert_nonnull (strstr (why, "could not be used"));

  g_assert_null (ws_blas_open ("none", why, sizeof why));
  g_assert_nonnull (strstr (why, "none"));

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  g_assert_null (ws_blas_open (empty, why, sizeof why));
  g_assert_nonnull (strstr (why, "holds no usable BLAS"));

  /* A folder laid out as dpkg -x leaves it, the library a few levels down. */
  blas = ws_blas_open (NULL, why, sizeof why);
  g_assert_nonnull (blas);
  g_assert_cmpint (g_mkdir_with_parents (unpacked, 0700), ==, 0);
  g_assert_cmpint (symlink (ws_blas_get_info (blas)->path, link), ==, 0);
  ws_blas_free (blas);
  blas = ws_blas_open (dir, why, sizeof why);
  g_assert_nonnull (blas);
  g_assert_cmpstr (ws_blas_get_info (blas)->name, ==, "OpenBLAS");
  ws_blas_free (blas);

  g_unlink (link);
  g_rmdir (unpacked);
  g_rmdir (lib);
  g_rmdir (usr);
  g_rmdir (empty);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runner/blas/openblas", test_blas_openblas);
  g_test_add_func ("/runner/blas/named", test_blas_named);
  g_test_add_func ("/runner/blas/newest", test_blas_newest);
  return g_test_run ();
}
