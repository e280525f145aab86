/* test-charts-basics.c: what every chart is built from: the chart kinds, numbers for people,
 * ticks that never collide, themes whose colours stay apart for colour-blind eyes, the median
 * a sweep's line goes through.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"

#include "ws-chart-series-private.h"

static void
test_format (void)
{
  struct
  {
    char *(*f) (double);
    double v;
    const char *expect;
  } cases[] = {
    { ws_units_duration, 2400, "2.40 µs" },
    { ws_units_duration, 999999, "1.00 ms" },
    { ws_units_duration, 15.4, "15 ns" },
    { ws_units_duration, 1.92e9, "1.92 s" },
    { ws_units_duration, NAN, "—" },
    { ws_units_bytes, 4000, "4.00 kB" },
    { ws_units_bytes, 80e6, "80.0 MB" },
    { ws_units_bytes, 999.9e3, "1.00 MB" },
    { ws_units_count_short, 1e3, "1 K" },
    { ws_units_count_short, 1e7, "10 M" },
    { ws_units_count_short, 2048, "2048" },
    { ws_units_count_short, 1.5e6, "1.50 M" },
    { ws_units_percent, 0.97, "97%" },
    { ws_units_percent, 0.004, "0.4%" },
    /* Numbers no GPU measures are said with an exponent, not in 300 digits. */
    { ws_units_duration, 1e300, "1.00e+291 s" },
    { ws_units_bytes, 18446744073709551615.0, "18,400 PB" },
    { ws_units_count_short, 18446744073709551615.0, "1.84e+19" },
    { ws_units_count_short, 1e300, "1.00e+300" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = cases[i].f (cases[i].v);

      g_assert_cmpstr (s, ==, cases[i].expect);
    }
  {
    g_autofree char *a = _ws_format_tick (0.5, 0.5), *b = _ws_format_tick (12000, 2000);
    g_autofree char *c = _ws_format_tick (-1e-17, 0.1), *d = _ws_format_log_tick (0.02);

    g_assert_cmpstr (a, ==, "0.5");
    g_assert_cmpstr (b, ==, "12,000");
    g_assert_cmpstr (c, ==, "0.0");
    g_assert_cmpstr (d, ==, "0.02");
  }
}

static void
test_ticks (void)
{
  const struct
  {
    WsScaleKind kind;
    double lo, hi, pixels;
    WsAxisSide side;
  } cases[] = {
    { WS_SCALE_LINEAR, 0, 1, 800, WS_AXIS_BOTTOM },
    { WS_SCALE_LINEAR, 0, 123456789, 300, WS_AXIS_BOTTOM },
    { WS_SCALE_LINEAR, 5, 5, 400, WS_AXIS_LEFT },              /* all equal */
    { WS_SCALE_LINEAR, -3e-9, 7e-9, 120, WS_AXIS_BOTTOM },
    { WS_SCALE_LOG, 1000, 1e8, 900, WS_AXIS_BOTTOM },
    { WS_SCALE_LOG, 1000, 1e8, 60, WS_AXIS_BOTTOM },           /* very little room */
    { WS_SCALE_LOG, 256, 4096, 700, WS_AXIS_BOTTOM },
    { WS_SCALE_LOG, 0.013, 2200, 400, WS_AXIS_LEFT },
    { WS_SCALE_LOG, 3, 3, 400, WS_AXIS_LEFT },                  /* one point */
    { WS_SCALE_LOG, 0, -4, 400, WS_AXIS_LEFT },                 /* nothing positive */
    { WS_SCALE_LINEAR, NAN, INFINITY, 400, WS_AXIS_BOTTOM },
  };
  WsChartBase base = { ws_theme_get (WS_THEME_LIGHT), 1000, 1000, 1 };
  WsChartContext ctx;

  _ws_chart_context_init (&ctx, NULL, &base);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsAxis axis;
      double prev_hi = -G_MAXDOUBLE;

      _ws_axis_init (&axis, cases[i].side, cases[i].kind, cases[i].lo, cases[i].hi, NULL);
      axis.scale.p0 = cases[i].side == WS_AXIS_BOTTOM ? 10 : 10 + cases[i].pixels;
      axis.scale.p1 = cases[i].side == WS_AXIS_BOTTOM ? 10 + cases[i].pixels : 10;
      _ws_axis_compute_ticks (&ctx, &axis);
      g_assert_true (axis.scale.lo < axis.scale.hi);
      g_assert_true (isfinite (axis.scale.lo) && isfinite (axis.scale.hi));
      if (axis.ticks->len < (cases[i].pixels >= 100 ? 2u : 1u))
        g_error ("case %u: %u ticks", i, axis.ticks->len);
      /* Labels, measured, keep clear of each other. */
      for (guint t = 0; t < axis.ticks->len; t++)
        {
          double p = _ws_scale_map (&axis.scale, g_array_index (axis.ticks, double, t)), w, h;
          double lo, hi;

          _ws_text_extent (&ctx, WS_FONT_SMALL, g_ptr_array_index (axis.labels, t), &w, &h);
          if (cases[i].side == WS_AXIS_BOTTOM)
            lo = p - w / 2, hi = p + w / 2;
          else
            lo = -p - h / 2, hi = -p + h / 2;
          g_assert_true (isfinite (p));
          g_assert_cmpfloat (lo, >=, prev_hi);
          prev_hi = hi;
        }
      _ws_axis_clear (&axis);
    }
  _ws_chart_context_clear (&ctx);
}

static void
test_kinds (void)
{
  for (int k = 0; k < WS_N_CHARTS; k++)
    {
      WsChartKind back;

      g_assert_true (ws_chart_kind_from_string (ws_chart_kind_to_string ((WsChartKind) k), &back));
      g_assert_cmpint (back, ==, k);
      g_assert_cmpuint (strlen (ws_chart_kind_title ((WsChartKind) k)), >, 3);
    }
  g_assert_false (ws_chart_kind_from_string ("pie", NULL));
  /* The table says what each kind needs; the occupancy chart draws a configuration alone. */
  g_assert_true (_ws_chart_needs_met (WS_CHART_OCCUPANCY, NULL));
  for (int k = 0; k < WS_N_CHARTS; k++)
    {
      const WsChartClass *klass = _ws_chart_class ((WsChartKind) k);

      g_assert_cmpstr (klass->name, ==, ws_chart_kind_to_string ((WsChartKind) k));
      g_assert_nonnull (klass->collect);
      g_assert_nonnull (klass->draw);
      g_assert_nonnull (klass->free);
      /* Every kind's CSV is rows of runs, with a header for what its row writes, or a text
       * of its own. */
      g_assert_true (klass->csv.runs != NULL || klass->csv.text != NULL);
      g_assert_true (klass->csv.row == NULL || klass->csv.header != NULL);
      g_assert_true (klass->csv.header == NULL || klass->csv.header[0] == ',');
      if (k != WS_CHART_OCCUPANCY)
        g_assert_false (_ws_chart_needs_met ((WsChartKind) k, NULL));
    }
  g_assert_true (_ws_chart_class (WS_CHART_SPEEDUP)->compares);
  g_assert_false (_ws_chart_class (WS_CHART_TIMELINE)->compares);
  for (int t = WS_THEME_LIGHT; t <= WS_THEME_PRINT; t++)
    {
      WsThemeKind back;

      g_assert_true (ws_theme_kind_from_string (ws_theme_kind_to_string ((WsThemeKind) t), &back));
      g_assert_cmpint (back, ==, t);
    }
  g_assert_false (ws_theme_kind_from_string ("sepia", NULL));
  {
    g_autofree WsTheme *big = ws_theme_scaled (ws_theme_get (WS_THEME_LIGHT), 1.5);

    g_assert_cmpfloat (big->font_size, ==, ws_theme_get (WS_THEME_LIGHT)->font_size * 1.5);
    g_assert_cmpfloat (big->text_scale, ==, 1.5);
  }
}

static double
contrast (const WsColor *a, const WsColor *b)
{
  double la = _ws_color_luminance (a), lb = _ws_color_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static double
lin (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* Machado, Oliveira and Fernandes (2009), severity 1.0, in linear RGB; then CIE L*a*b*. */
static void
simulate_lab (const WsColor *c, int deficiency, double lab[3])
{
  static const double m[3][3][3] = {
    { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
    { { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 },
      { -0.003882, -0.048116, 1.051998 } }, /* protanopia */
    { { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 },
      { -0.011820, 0.042940, 0.968881 } }, /* deuteranopia */
  };
  double rgb[3] = { lin (c->r), lin (c->g), lin (c->b) }, s[3], xyz[3], f[3];
  const double white[3] = { 0.95047, 1.0, 1.08883 };

  for (int i = 0; i < 3; i++)
    s[i] = CLAMP (m[deficiency][i][0] * rgb[0] + m[deficiency][i][1] * rgb[1]
                      + m[deficiency][i][2] * rgb[2],
                  0, 1);
  xyz[0] = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
  xyz[1] = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  xyz[2] = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
  for (int i = 0; i < 3; i++)
    {
      double t = xyz[i] / white[i];

      f[i] = t > 0.008856 ? cbrt (t) : 7.787 * t + 16.0 / 116;
    }
  lab[0] = 116 * f[1] - 16;
  lab[1] = 500 * (f[0] - f[1]);
  lab[2] = 200 * (f[1] - f[2]);
}

static double
delta_e (const WsColor *a, const WsColor *b, int deficiency)
{
  double la[3], lb[3];

  simulate_lab (a, deficiency, la);
  simulate_lab (b, deficiency, lb);
  return sqrt ((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1])
               + (la[2] - lb[2]) * (la[2] - lb[2]));
}

static void
test_theme_colours (void)
{
  for (int t = WS_THEME_LIGHT; t <= WS_THEME_PRINT; t++)
    {
      const WsTheme *theme = ws_theme_get ((WsThemeKind) t);
      const WsColor *families[] = { &theme->h2d, &theme->d2h, &theme->kernel, &theme->cpu,
                                    &theme->memset };

      /* Text a projector can still show: WCAG AA for the muted text, AAA for the rest. */
      g_assert_cmpfloat (contrast (&theme->foreground, &theme->background), >=, 7);
      g_assert_cmpfloat (contrast (&theme->muted, &theme->background), >=, 4.5);
      /* Every pair of span colours stays apart for trichromats and with either red–green
       * deficiency: ΔE above 15 is a clear difference side by side. */
      for (int d = 0; d < 3; d++)
        for (guint i = 0; i < G_N_ELEMENTS (families); i++)
          for (guint j = i + 1; j < G_N_ELEMENTS (families); j++)
            {
              double e = delta_e (families[i], families[j], d);

              if (e < 15)
                g_error ("theme %d, deficiency %d: colours %u and %u are %.1f apart", t, d, i, j,
                         e);
            }
      /* Lines of the first four series too. */
      for (int d = 0; d < 3; d++)
        for (guint i = 0; i < 4; i++)
          for (guint j = i + 1; j < 4; j++)
            g_assert_cmpfloat (delta_e (&theme->series[i], &theme->series[j], d), >=, 15);
    }
}

/* The median a sweep's line goes through where one configuration was measured several times:
 * the middle value, the mean of the two middle ones for an even count, NAN for none. */
static void
test_median (void)
{
  static const double odd[] = { 9, 1, 5 }, even[] = { 40, 10, 30, 20 };
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (double));

  g_assert_true (isnan (_ws_median (values)));
  g_array_append_vals (values, odd, G_N_ELEMENTS (odd));
  g_assert_cmpfloat (_ws_median (values), ==, 5);
  /* Sorted in place, ascending. */
  g_assert_cmpfloat (g_array_index (values, double, 0), ==, 1);
  g_assert_cmpfloat (g_array_index (values, double, 2), ==, 9);
  g_array_set_size (values, 0);
  g_array_append_vals (values, even, G_N_ELEMENTS (even));
  g_assert_cmpfloat (_ws_median (values), ==, 25);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/charts/kinds", test_kinds);
  g_test_add_func ("/charts/format", test_format);
  g_test_add_func ("/charts/ticks", test_ticks);
  g_test_add_func ("/charts/theme-colours", test_theme_colours);
  g_test_add_func ("/charts/median", test_median);
  return g_test_run ();
}
