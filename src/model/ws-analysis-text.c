/* ws-analysis-text.c: the words of findings: numbers with units a student reads at a glance
 * on a projector, and findings built a sentence at a time.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include <math.h>
#include <stdio.h>

/* Decimals that show `digits` significant digits of v: 3 → "37.5", "191", "6.74". */
static int
decimals_for (double v, int digits)
{
  int magnitude, decimals;

  if (v == 0 || !isfinite (v))
    return 0;
  magnitude = (int) floor (log10 (fabs (v)));
  decimals = digits - 1 - magnitude;
  /* Rounding may carry into the next power of ten (9.996 → "10.0"): one decimal fewer. */
  if (decimals > 0 && round (fabs (v) * pow (10, decimals)) >= pow (10, digits))
    decimals--;
  return MAX (0, decimals);
}

static const char *
with_unit (char *buf, double v, int digits, const char *unit)
{
  snprintf (buf, WS_FMT_LEN, "%.*f %s", decimals_for (v, digits), v, unit);
  return buf;
}

const char *
_ws_fmt_time (char *buf, double ns)
{
  if (ns < 1e3)
    return with_unit (buf, ns, 3, "ns");
  if (ns < 1e6 - 500)
    return with_unit (buf, ns / 1e3, 3, "µs");
  if (ns < 1e9 - 5e5)
    return with_unit (buf, ns / 1e6, 3, "ms");
  return with_unit (buf, ns / 1e9, 3, "s");
}

const char *
_ws_fmt_bytes (char *buf, double bytes)
{
  if (bytes < 1e3)
    {
      snprintf (buf, WS_FMT_LEN, _("%.0f bytes"), bytes);
      return buf;
    }
  if (bytes < 1e6 - 500)
    return with_unit (buf, bytes / 1e3, 3, "KB");
  if (bytes < 1e9 - 5e5)
    return with_unit (buf, bytes / 1e6, 3, "MB");
  return with_unit (buf, bytes / 1e9, 3, "GB");
}

const char *
_ws_fmt_kib (char *buf, double bytes)
{
  if (bytes < 1024)
    snprintf (buf, WS_FMT_LEN, _("%.0f bytes"), bytes);
  else if (fmod (bytes, 1024) == 0)
    snprintf (buf, WS_FMT_LEN, "%.0f KiB", bytes / 1024);
  else
    snprintf (buf, WS_FMT_LEN, "%.1f KiB", bytes / 1024);
  return buf;
}

const char *
_ws_fmt_gbs (char *buf, double gbs)
{
  /* Ceilings read as measured ("4175 GB/s"), not rounded to 3 digits ("4180"). */
  if (gbs >= 100)
    snprintf (buf, WS_FMT_LEN, "%.0f GB/s", gbs);
  else
    with_unit (buf, gbs, 3, "GB/s");
  return buf;
}

const char *
_ws_fmt_flops (char *buf, double flops)
{
  if (flops < 1e6)
    return with_unit (buf, flops / 1e3, 3, "kFLOP");
  if (flops < 1e9)
    return with_unit (buf, flops / 1e6, 3, "MFLOP");
  if (flops < 1e12)
    return with_unit (buf, flops / 1e9, 3, "GFLOP");
  return with_unit (buf, flops / 1e12, 3, "TFLOP");
}

const char *
_ws_fmt_gflops (char *buf, double gflops)
{
  if (gflops >= 1e3 - 0.5)
    return with_unit (buf, gflops / 1e3, 3, "TFLOP/s");
  return with_unit (buf, gflops, 3, "GFLOP/s");
}

const char *
_ws_fmt_percent (char *buf, double fraction)
{
  double p = 100 * fraction;

  /* "100%" or "0%" for what is not quite either would mislead: keep a decimal there. */
  if ((p > 99.5 && p < 100) || (p > 0 && p < 0.5))
    snprintf (buf, WS_FMT_LEN, "%.1f%%", p);
  else
    snprintf (buf, WS_FMT_LEN, "%.0f%%", p);
  return buf;
}

const char *
_ws_fmt_ratio (char *buf, double ratio)
{
  /* Near 1× a third digit keeps "slower" and "faster" apart: 0.998×, not 1.0×. */
  int digits = ratio >= 0.9 && ratio < 1.1 ? 3 : 2;

  snprintf (buf, WS_FMT_LEN, "%.*f×", ratio >= 10 ? 0 : decimals_for (ratio, digits), ratio);
  return buf;
}

const char *
_ws_fmt_count (char *buf, double count)
{
  char digits[32];
  gsize n, o = 0;

  snprintf (digits, sizeof digits, "%.0f", fabs (count));
  n = strlen (digits);
  if (count < 0)
    buf[o++] = '-';
  for (gsize i = 0; i < n && o < WS_FMT_LEN - 2; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        buf[o++] = ',';
      buf[o++] = digits[i];
    }
  buf[o] = '\0';
  return buf;
}

const char *
_ws_fmt_number (char *buf, double value)
{
  snprintf (buf, WS_FMT_LEN, "%.*f", decimals_for (value, 3), value);
  return buf;
}

static double
round_significant (double v, int digits)
{
  double scale;

  if (v <= 0 || !isfinite (v))
    return v;
  scale = pow (10, floor (log10 (v)) - digits + 1);
  return round (v / scale) * scale;
}

const char *
_ws_fmt_size (char *buf, const WsRunConfig *config, double size)
{
  char n[WS_FMT_LEN];

  _ws_fmt_count (n, round_significant (size, 2));
  if (config->shape_rank == 3)
    snprintf (buf, WS_FMT_LEN, "≈ %.30s³", n);
  else
    snprintf (buf, WS_FMT_LEN, "n ≈ %.30s", n);
  return buf;
}

const char *
_ws_fmt_block (char *buf, WsRun *run)
{
  g_autofree char *label = ws_run_dup_block_label (run);

  if (*label == '\0') /* a library call (cuBLAS) launches blocks of its own choosing */
    g_strlcpy (buf, _("the library's own blocks"), WS_FMT_LEN);
  else
    /* Translators: a block size, "256" or "16×16". */
    snprintf (buf, WS_FMT_LEN, _("block %s"), label);
  return buf;
}

/* ---- findings ---------------------------------------------------------------------------- */

WsFinding *
_ws_finding_new (WsFindingKind kind, WsSeverity severity, WsRun *run, double value,
                 double threshold)
{
  WsFinding *f = g_new0 (WsFinding, 1);

  f->kind = kind;
  f->id = ws_finding_kind_to_string (kind);
  f->severity = severity;
  f->run = run != NULL ? ws_run_get_id (run) : 0;
  f->value = value;
  f->threshold = threshold;
  f->activities = g_array_new (FALSE, FALSE, sizeof (guint));
  return f;
}

/* `sentence` after what `field` says, one space between. */
static void
join_sentence (char **field, const char *sentence)
{
  char *joined;

  if (*field == NULL)
    {
      *field = g_strdup (sentence);
      return;
    }
  joined = g_strconcat (*field, " ", sentence, NULL);
  g_free (*field);
  *field = joined;
}

#define DEFINE_APPENDER(name, member)                                                           \
  void name (WsFinding *finding, const char *format, ...)                                       \
  {                                                                                             \
    g_autofree char *sentence = NULL;                                                           \
    va_list args;                                                                               \
                                                                                                \
    va_start (args, format);                                                                    \
    sentence = g_strdup_vprintf (format, args);                                                 \
    va_end (args);                                                                              \
    join_sentence (&finding->member, sentence);                                                 \
  }

DEFINE_APPENDER (_ws_finding_title, title)
DEFINE_APPENDER (_ws_finding_numbers, numbers)
DEFINE_APPENDER (_ws_finding_cause, cause)

void
_ws_finding_fix (WsFinding *finding, const char *format, ...)
{
  g_autofree char *sentence = NULL;
  va_list args;

  va_start (args, format);
  sentence = g_strdup_vprintf (format, args);
  va_end (args);
  _ws_finding_fix_for (finding, sentence, sentence);
}

void
_ws_finding_fix_for (WsFinding *finding, const char *cli, const char *app)
{
  join_sentence (&finding->fix, cli);
  join_sentence (&finding->fix_app, app);
}

const char *
ws_finding_get_fix (const WsFinding *finding, WsAudience audience)
{
  g_return_val_if_fail (finding != NULL, NULL);
  if (audience == WS_AUDIENCE_APP && finding->fix_app != NULL)
    return finding->fix_app;
  return finding->fix;
}

void
_ws_finding_point_at (WsFinding *finding, WsRun *run, int kind, int phase)
{
  guint n;
  const WsActivity *a = ws_run_get_activities (run, &n);

  for (guint i = 0; i < n; i++)
    if ((kind < 0 || a[i].kind == kind) && (phase < 0 || a[i].phase == phase))
      g_array_append_val (finding->activities, i);
}

void
ws_finding_free (WsFinding *finding)
{
  if (finding == NULL)
    return;
  g_free (finding->title);
  g_free (finding->numbers);
  g_free (finding->cause);
  g_free (finding->fix);
  g_free (finding->fix_app);
  g_clear_pointer (&finding->activities, g_array_unref);
  g_free (finding);
}

void
_ws_finding_cache_note (WsFinding *finding, WsRun *run)
{
  if (g_strcmp0 (ws_run_get_config (run)->cache, "cold") == 0)
    _ws_finding_numbers (finding, _("The kernel time was measured with a cold L2: the cache was "
                                    "flushed before every timed launch."));
}
