/* ws-analysis-text.c: the words of findings: numbers with units a student reads at a glance
 * on a projector, findings built a sentence at a time, and a finding as JSON.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include "ws-units.h"

#include <math.h>
#include <stdio.h>

/* The findings' numbers are ws-units.c's, copied into a caller's buffer so that a sentence
 * can hold several without freeing each. */
static const char *
copy_out (char *buf, char *text)
{
  g_strlcpy (buf, text, WS_FMT_LEN);
  g_free (text);
  return buf;
}

const char *
_ws_fmt_time (char *buf, double ns)
{
  return copy_out (buf, ws_units_duration (ns));
}

const char *
_ws_fmt_bytes (char *buf, double bytes)
{
  return copy_out (buf, ws_units_bytes (bytes));
}

const char *
_ws_fmt_kib (char *buf, double bytes)
{
  return copy_out (buf, ws_units_bytes_binary (bytes));
}

const char *
_ws_fmt_gbs (char *buf, double gbs)
{
  return copy_out (buf, ws_units_gbs (gbs));
}

const char *
_ws_fmt_flops (char *buf, double flops)
{
  return copy_out (buf, ws_units_flop (flops));
}

const char *
_ws_fmt_gflops (char *buf, double gflops)
{
  return copy_out (buf, ws_units_gflops (gflops));
}

const char *
_ws_fmt_percent (char *buf, double fraction)
{
  return copy_out (buf, ws_units_percent (fraction));
}

const char *
_ws_fmt_ratio (char *buf, double ratio)
{
  return copy_out (buf, ws_units_ratio (ratio));
}

const char *
_ws_fmt_count (char *buf, double count)
{
  return copy_out (buf, ws_units_count (count));
}

const char *
_ws_fmt_number (char *buf, double value)
{
  return copy_out (buf, ws_units_number (value, 3));
}

const char *
_ws_fmt_size (char *buf, const WsRunConfig *config, double size)
{
  return copy_out (buf, ws_units_size_estimate (size, config->shape_rank));
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
ws_finding_write_json (WsJsonWriter *json, const WsFinding *f, WsFindingAbout about,
                       WsAudience audience)
{
  g_return_if_fail (json != NULL && f != NULL);
  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, "id", f->id);
  ws_json_writer_string (json, "severity", ws_severity_to_string (f->severity));
  if (about == WS_FINDING_ABOUT_KERNEL)
    {
      ws_json_writer_string (json, "kernel", f->kernel);
      /* Only where there is one: the reports of the program's own kernels read as before. */
      if (f->library != NULL)
        ws_json_writer_string (json, "library", f->library);
    }
  else
    ws_json_writer_int (json, "run", f->run);
  ws_json_writer_string (json, "title", f->title);
  ws_json_writer_string (json, "numbers", f->numbers);
  ws_json_writer_string (json, "cause", f->cause);
  ws_json_writer_string (json, "fix", ws_finding_get_fix (f, audience));
  ws_json_writer_double (json, "value", f->value);
  ws_json_writer_double (json, "threshold", f->threshold);
  ws_json_writer_end_object (json);
}

void
_ws_finding_point_at (WsFinding *finding, WsRun *run, int kind, int phase)
{
  guint n;
  const WsSpan *a = ws_run_get_activities (run, &n);

  for (guint i = 0; i < n; i++)
    if ((kind < 0 || a[i].kind == kind) && (phase < 0 || a[i].phase == phase))
      g_array_append_val (finding->activities, i);
}

static gboolean
same_group (const WsFinding *a, const WsFinding *b)
{
  return a->program == b->program && g_strcmp0 (a->library, b->library) == 0;
}

char *
ws_findings_library_group (GPtrArray *findings, guint i, guint *n)
{
  const WsFinding *f;
  guint end = i + 1;

  g_return_val_if_fail (findings != NULL && i < findings->len && n != NULL, NULL);
  f = g_ptr_array_index (findings, i);
  *n = 0;
  if (f->library == NULL || (i > 0 && same_group (g_ptr_array_index (findings, i - 1), f)))
    return NULL;
  while (end < findings->len && same_group (g_ptr_array_index (findings, end), f))
    end++;
  *n = end - i;
  /* Translators: a library ("cuBLAS", "PyTorch") and how many findings are about the kernels
   * it brought: the program can change neither their blocks nor their registers. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s: %u finding about its own kernels, which the "
                                       "program cannot change",
                                       "%s: %u findings about its own kernels, which the program "
                                       "cannot change",
                                       *n),
                          f->library, *n);
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
