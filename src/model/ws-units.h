/* ws-units.h: every number a person reads, in one place: durations, bytes, rates, FLOP
 * counts and rates, counts, percentages, ratios, problem-size and block labels.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a number that was not measured, or cannot be shown, reads as. */
#define WS_UNITS_NONE "—"

/* The rules, the same for the model's findings, the charts, the CLI's tables and the app:
 * - three significant digits, and a value that rounds up to 1000 of a unit moves to the next
 *   unit ("999.96 µs" reads "1.00 ms");
 * - '.' as the decimal point whatever the locale, thousands grouped with ',';
 * - bytes in SI units, 1 kB = 1000 bytes, as GB/s are; only shared memory and caches, which the
 *   hardware sizes in 1024s, are given in KiB and MiB (ws_units_bytes_binary);
 * - NaN, infinities and values a quantity cannot have (a negative duration) read "—".
 * Machine formats (CSV, JSON) never go through these: they write the exact double.
 * Each function returns a new string. */

/* "810 ns", "37.5 µs", "12.4 ms", "1.92 s": whole nanoseconds (CUPTI counts them). A duration
 * that is not positive was not measured: "—". */
char *ws_units_duration (double ns);
/* "(191–197)": a spread in the unit ws_units_duration (median_ns) chooses, with a digit or
 * two more where the ends would otherwise read the same; "" when there is no spread. */
char *ws_units_duration_range (double median_ns, double min_ns, double max_ns);

/* "512 B", "4.00 kB", "80.0 MB", "150 GB"; negative: "—". */
char *ws_units_bytes (double bytes);
/* "48 KiB", "16.5 KiB", "60 MiB", "512 B": shared memory and caches, which the hardware
 * sizes in 1024s; negative: "—". */
char *ws_units_bytes_binary (double bytes);

/* "3206 GB/s", "55.2 GB/s", "0.512 GB/s"; not positive: "—". */
char *ws_units_gbs (double gbs);
/* "21.3 TFLOP/s", "840 GFLOP/s"; not positive: "—". */
char *ws_units_gflops (double gflops);
/* "137 GFLOP", "2.00 MFLOP": an amount of work. */
char *ws_units_flop (double flop);

/* "10,000,000": a count, rounded to a whole number, in groups of three. */
char *ws_units_count (double count);
/* The same, exact for any 64-bit count. */
char *ws_units_grouped (guint64 count);
/* "1 K", "10 M", "2048", "1.50 M": sizes on an axis, round numbers short. */
char *ws_units_count_short (double count);
/* "6.1 K", "95 K": two significant digits with K, M, G, T. */
char *ws_units_count_approx (double count);
/* "0.0833", "4,190": `digits` significant digits, thousands grouped; huge: "1.23e+18". */
char *ws_units_number (double value, int digits);
/* "4,189.30", "0.5", "12": `decimals` after the point (0 to 12), thousands grouped. */
char *ws_units_fixed (double value, int decimals);

/* "97%", "38%", "0.4%", "99.7%": of a fraction, in whole percent, but never "100%" or "0%"
 * for what is not quite. */
char *ws_units_percent (double fraction);
/* "0.16×", "0.998×", "1.38×", "26.4×", "388×": how many times; not positive: "—". */
char *ws_units_ratio (double ratio);

/* "n = 10,000,000", "4096×1024", "410³", "4096×4096×1024": a problem's shape. */
char *ws_units_shape (const guint64 *shape, int rank);
/* "n ≈ 1,200,000", "≈ 410³": an interpolated size (a crossover), two digits. */
char *ws_units_size_estimate (double size, int rank);
/* "256", "16×16", "8×8×4": a block's dimensions. */
char *ws_units_block (const guint *block);

G_END_DECLS
