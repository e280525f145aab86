/* test-units.c: every number a person reads: each quantity's formatter at its edges (zero,
 * negative, NaN and infinities, the rollover to the next unit, huge values) and in a locale
 * whose decimal point is a comma.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <locale.h>
#include <math.h>

#include "ws-units.h"

typedef char *(*Format) (double value);

typedef struct
{
  Format format;
  double value;
  const char *want;
} Case;

static void
check (const Case *cases, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *got = cases[i].format (cases[i].value);

      if (g_strcmp0 (got, cases[i].want) != 0)
        g_error ("case %u: %g formatted as \"%s\", expected \"%s\"", i, cases[i].value, got,
                 cases[i].want);
    }
}

static void
test_duration (void)
{
  const Case cases[] = {
    { ws_units_duration, 0, "—" },            /* not measured */
    { ws_units_duration, -5, "—" },
    { ws_units_duration, NAN, "—" },
    { ws_units_duration, INFINITY, "—" },
    { ws_units_duration, 512, "512 ns" },
    { ws_units_duration, 15.4, "15 ns" },     /* CUPTI counts whole nanoseconds */
    { ws_units_duration, 999.4, "999 ns" },
    { ws_units_duration, 999.7, "1.00 µs" },  /* would print "1000 ns" */
    { ws_units_duration, 2400, "2.40 µs" },
    { ws_units_duration, 37420, "37.4 µs" },
    { ws_units_duration, 999950, "1.00 ms" }, /* 999.95 µs rolls over */
    { ws_units_duration, 999400, "999 µs" },
    { ws_units_duration, 12230000, "12.2 ms" },
    { ws_units_duration, 2.5e9, "2.50 s" },
    { ws_units_duration, 1234e9, "1,230 s" },
    { ws_units_duration, 1e300, "1.00e+291 s" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_duration_range (void)
{
  g_autofree char *us = ws_units_duration_range (38000, 37300, 39200);
  g_autofree char *close = ws_units_duration_range (191000, 191100, 191300);
  g_autofree char *ns = ws_units_duration_range (850, 840, 861);
  g_autofree char *none = ws_units_duration_range (0, 0, 0);
  g_autofree char *nan = ws_units_duration_range (NAN, 1, 2);

  g_assert_cmpstr (us, ==, "(37.3–39.2)");
  /* The same to three digits: a digit more shows the spread that is there. */
  g_assert_cmpstr (close, ==, "(191.1–191.3)");
  g_assert_cmpstr (ns, ==, "(840–861)");
  g_assert_cmpstr (none, ==, "");
  g_assert_cmpstr (nan, ==, "");
}

static void
test_bytes (void)
{
  const Case cases[] = {
    { ws_units_bytes, 0, "0 B" },
    { ws_units_bytes, 1, "1 B" },
    { ws_units_bytes, 512, "512 B" },
    { ws_units_bytes, -1, "—" },
    { ws_units_bytes, NAN, "—" },
    { ws_units_bytes, INFINITY, "—" },
    { ws_units_bytes, 999.4, "999 B" },
    { ws_units_bytes, 999.6, "1.00 kB" },
    { ws_units_bytes, 4000, "4.00 kB" },    /* SI, "kB", as GB/s are: never "KB" */
    { ws_units_bytes, 999.95e3, "1.00 MB" },
    { ws_units_bytes, 80e6, "80.0 MB" },
    { ws_units_bytes, 150e9, "150 GB" },
    { ws_units_bytes, 18446744073709551615.0, "18,400 PB" },
    { ws_units_bytes, 1e300, "1.00e+285 PB" },
    { ws_units_bytes_binary, 0, "0 B" },
    { ws_units_bytes_binary, 1023, "1023 B" },
    { ws_units_bytes_binary, 1024, "1 KiB" },
    { ws_units_bytes_binary, 49152, "48 KiB" },
    { ws_units_bytes_binary, 16.5 * 1024, "16.5 KiB" },
    { ws_units_bytes_binary, 60 * 1048576.0, "60 MiB" },
    { ws_units_bytes_binary, -1, "—" },
    { ws_units_bytes_binary, NAN, "—" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_rates (void)
{
  const Case cases[] = {
    { ws_units_gbs, 0, "—" },
    { ws_units_gbs, -3, "—" },
    { ws_units_gbs, NAN, "—" },
    { ws_units_gbs, 0.512, "0.512 GB/s" },
    { ws_units_gbs, 55.24, "55.2 GB/s" },
    { ws_units_gbs, 99.96, "100 GB/s" },
    { ws_units_gbs, 4175.4, "4175 GB/s" }, /* a ceiling reads as measured */
    { ws_units_gbs, 1e300, "1.00e+300 GB/s" },
    { ws_units_gflops, 0, "—" },
    { ws_units_gflops, INFINITY, "—" },
    { ws_units_gflops, 52.44, "52.4 GFLOP/s" },
    { ws_units_gflops, 840, "840 GFLOP/s" },
    { ws_units_gflops, 999.6, "1.00 TFLOP/s" },
    { ws_units_gflops, 21300, "21.3 TFLOP/s" },
    { ws_units_gflops, 2e9, "2,000 PFLOP/s" },
    { ws_units_flop, 0, "0 FLOP" },
    { ws_units_flop, -1, "—" },
    { ws_units_flop, 2e6, "2.00 MFLOP" },
    { ws_units_flop, 137e9, "137 GFLOP" },
    { ws_units_flop, 999.95e9, "1.00 TFLOP" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_counts (void)
{
  const Case cases[] = {
    { ws_units_count, 0, "0" },
    { ws_units_count, 999, "999" },
    { ws_units_count, 1000, "1,000" },
    { ws_units_count, 1e7, "10,000,000" },
    { ws_units_count, -1234, "-1,234" },
    { ws_units_count, 2.6, "3" },
    { ws_units_count, NAN, "—" },
    { ws_units_count, -INFINITY, "—" },
    { ws_units_count, 1e300, "1.00e+300" },
    { ws_units_count_short, 1e3, "1 K" },
    { ws_units_count_short, 1e7, "10 M" },
    { ws_units_count_short, 2048, "2048" },
    { ws_units_count_short, 1.5e6, "1.50 M" },
    { ws_units_count_short, 0, "0" },
    { ws_units_count_short, NAN, "—" },
    { ws_units_count_short, 18446744073709551615.0, "1.84e+19" },
    { ws_units_count_approx, 6100, "6.1 K" },
    { ws_units_count_approx, 95400, "95 K" },
    { ws_units_count_approx, INFINITY, "—" },
  };
  g_autofree char *max = ws_units_grouped (G_MAXUINT64);
  g_autofree char *zero = ws_units_grouped (0);

  check (cases, G_N_ELEMENTS (cases));
  g_assert_cmpstr (max, ==, "18,446,744,073,709,551,615"); /* exact, past a double's digits */
  g_assert_cmpstr (zero, ==, "0");
}

static void
test_number (void)
{
  struct
  {
    double value;
    int digits;
    const char *want;
  } cases[] = {
    { 0.08333, 3, "0.0833" }, { 4189.3, 3, "4,190" }, { 0.9999, 3, "1.00" },
    { 0, 3, "0" },            { -2.5, 2, "-2.5" },    { NAN, 3, "—" },
    { 1.234e18, 3, "1.23e+18" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ws_units_number (cases[i].value, cases[i].digits);

      g_assert_cmpstr (got, ==, cases[i].want);
    }
}

/* Fixed decimals, as an axis's ticks want them: thousands grouped, never "-0.0". */
static void
test_fixed (void)
{
  struct
  {
    double value;
    int decimals;
    const char *want;
  } cases[] = {
    { 4189.3, 2, "4,189.30" }, { 0.5, 1, "0.5" },       { 12, 0, "12" },
    { -1234567, 0, "-1,234,567" }, { -0.04, 1, "0.0" }, { -0.4, 0, "0" },
    { 2.5, 20, "2.500000000000" }, { NAN, 1, "—" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ws_units_fixed (cases[i].value, cases[i].decimals);

      g_assert_cmpstr (got, ==, cases[i].want);
    }
}

static void
test_percent_ratio (void)
{
  const Case cases[] = {
    { ws_units_percent, 0, "0%" },
    { ws_units_percent, 1, "100%" },
    { ws_units_percent, 0.5, "50%" },
    { ws_units_percent, 0.375, "38%" },
    { ws_units_percent, 0.997, "99.7%" },
    { ws_units_percent, 0.97, "97%" },
    { ws_units_percent, 0.004, "0.4%" },
    { ws_units_percent, 0.0001, "0.01%" },   /* not "0%" */
    { ws_units_percent, 0.99996, "99.9%" },  /* not "100%" */
    { ws_units_percent, 1.5, "150%" },
    { ws_units_percent, -0.25, "-25%" },
    { ws_units_percent, NAN, "—" },
    { ws_units_percent, INFINITY, "—" },
    { ws_units_ratio, 0, "—" },
    { ws_units_ratio, -2, "—" },
    { ws_units_ratio, NAN, "—" },
    { ws_units_ratio, 0.158, "0.16×" },
    { ws_units_ratio, 0.9976, "0.998×" },   /* slower stays visibly below 1 */
    { ws_units_ratio, 1.66, "1.66×" },
    { ws_units_ratio, 26.44, "26.4×" },
    { ws_units_ratio, 99.96, "100×" },
    { ws_units_ratio, 388.2, "388×" },
    { ws_units_ratio, 12345, "12345×" },
    { ws_units_ratio, 1e300, "1.00e+300×" },
  };

  check (cases, G_N_ELEMENTS (cases));
}

static void
test_labels (void)
{
  const guint64 vector[3] = { 10000000, 1, 1 }, matrix[3] = { 4096, 1024, 1 },
                cube[3] = { 410, 410, 410 }, box[3] = { 4096, 4096, 1024 };
  const guint b1[3] = { 256, 1, 1 }, b2[3] = { 16, 16, 1 }, b3[3] = { 8, 8, 4 };
  struct
  {
    char *got;
    const char *want;
  } cases[] = {
    { ws_units_shape (vector, 1), "n = 10,000,000" },
    { ws_units_shape (matrix, 2), "4096×1024" },
    { ws_units_shape (cube, 3), "410³" },
    { ws_units_shape (box, 3), "4096×4096×1024" },
    { ws_units_size_estimate (1234567, 1), "n ≈ 1,200,000" },
    { ws_units_size_estimate (412.4, 3), "≈ 410³" },
    { ws_units_size_estimate (3.4, 1), "n ≈ 3" },
    { ws_units_size_estimate (0, 1), "—" },
    { ws_units_size_estimate (-1, 1), "—" },
    { ws_units_size_estimate (NAN, 3), "—" },
    { ws_units_size_estimate (1e300, 1), "—" },
    { ws_units_block (b1), "256" },
    { ws_units_block (b2), "16×16" },
    { ws_units_block (b3), "8×8×4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpstr (cases[i].got, ==, cases[i].want);
      g_free (cases[i].got);
    }
}

/* A locale whose decimal point is a comma changes nothing: the numbers are read beside the
 * CLI's tables and its CSV, which use '.'. */
static void
test_locale (void)
{
  g_autofree char *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autofree char *duration = NULL, *gbs = NULL, *percent = NULL;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL
      && setlocale (LC_NUMERIC, "fr_FR.UTF-8") == NULL)
    {
      g_test_skip ("no locale with a decimal comma is installed");
      return;
    }
  duration = ws_units_duration (37420);
  gbs = ws_units_gbs (55.24);
  percent = ws_units_percent (0.004);
  setlocale (LC_NUMERIC, old);
  g_assert_cmpstr (duration, ==, "37.4 µs");
  g_assert_cmpstr (gbs, ==, "55.2 GB/s");
  g_assert_cmpstr (percent, ==, "0.4%");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/duration", test_duration);
  g_test_add_func ("/units/duration-range", test_duration_range);
  g_test_add_func ("/units/bytes", test_bytes);
  g_test_add_func ("/units/rates", test_rates);
  g_test_add_func ("/units/counts", test_counts);
  g_test_add_func ("/units/number", test_number);
  g_test_add_func ("/units/fixed", test_fixed);
  g_test_add_func ("/units/percent-ratio", test_percent_ratio);
  g_test_add_func ("/units/labels", test_labels);
  g_test_add_func ("/units/locale", test_locale);
  return g_test_run ();
}
