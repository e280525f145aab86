/* ws-findings-panel.c: the findings panel. Each card: a severity badge, the title, the numbers,
 * then "Why" and "What to change". Activating a card highlights the spans it points at in the
 * workspace and shows the timeline.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-findings-panel.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-analysis.h"
#include "ws-counters-text.h"
#include "ws-format.h"
#include "ws-label.h"
#include "ws-units.h"
#include "ws-memcheck.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

struct _WsFindingsPanel
{
  WsView parent_instance;
  GtkWidget *scroller;
  GtkWidget *box;
  WsWorkspace *workspace; /* WsView's, not held: set in workspace_changed */
  GPtrArray *shown; /* WsFinding, held while shown (the workspace's cache may drop them) */
  char *trace_shown; /* a traced program's findings as shown (their titles), to redraw them
                      * only when they change while it runs */
  int run;
};

G_DEFINE_FINAL_TYPE (WsFindingsPanel, ws_findings_panel, WS_TYPE_VIEW)

static GtkWidget *
label (const char *text, const char *css, gboolean markup)
{
  GtkWidget *l = ws_label_new_wrapped (markup ? NULL : text, css);

  if (markup)
    gtk_label_set_markup (GTK_LABEL (l), text);
  return l;
}

static void
clear (WsFindingsPanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
}

/* A traced program's finding points into the trace's spans: the timeline shows them, with a
 * margin of a tenth on each side. */
static void
show_trace_spans (WsFindingsPanel *self, const WsFinding *f)
{
  WsSession *session = ws_workspace_get_session (self->workspace);
  WsTrace *trace = session ? ws_session_get_trace (session) : NULL;
  guint n_spans;
  const WsSpan *spans = trace ? ws_trace_get_spans (trace, &n_spans) : NULL;
  gint64 start = G_MAXINT64, end = G_MININT64, margin;

  for (guint i = 0; spans != NULL && i < f->activities->len; i++)
    {
      guint k = g_array_index (f->activities, guint, i);

      if (k < n_spans)
        start = MIN (start, spans[k].start), end = MAX (end, spans[k].end);
    }
  if (end < start)
    return;
  margin = MAX ((end - start) / 10, 1000);
  ws_workspace_set_visible_window (self->workspace, start - margin, end + margin);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-view", "s", "timeline");
}

static void
card_clicked_cb (GtkGestureClick *gesture, int n, double x, double y, gpointer data)
{
  GtkWidget *card = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  WsFindingsPanel *self = g_object_get_data (G_OBJECT (card), "panel");
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (card), "index"));
  WsFinding *f;

  if (self->shown == NULL || index >= self->shown->len)
    return;
  f = g_ptr_array_index (self->shown, index);
  if (self->workspace == NULL || f->activities == NULL || f->activities->len == 0)
    return;
  if (f->trace)
    {
      show_trace_spans (self, f);
      return;
    }
  ws_workspace_highlight_finding (self->workspace, f->run ? f->run : self->run, f->activities);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-view", "s", "timeline");
}

static GtkWidget *
finding_card (WsFindingsPanel *self, WsFinding *f, guint index)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  const char *severity = ws_severity_to_string (f->severity);
  GtkWidget *badge = label (ws_severity_to_label (f->severity), "badge", FALSE);
  GtkGesture *click = gtk_gesture_click_new ();
  g_autofree char *why = g_markup_printf_escaped (_("<b>Why:</b> %s"), f->cause ? f->cause : "");
  const char *fix_text = ws_finding_get_fix (f, WS_AUDIENCE_APP);
  g_autofree char *fix = g_markup_printf_escaped (_("<b>What to change:</b> %s"),
                                                  fix_text ? fix_text : "");

  gtk_widget_add_css_class (card, "finding");
  gtk_widget_add_css_class (card, severity);
  gtk_widget_add_css_class (badge, severity);
  gtk_label_set_wrap (GTK_LABEL (badge), FALSE);
  gtk_widget_set_valign (badge, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (head), badge);
  gtk_box_append (GTK_BOX (head), label (f->title, "title", FALSE));
  gtk_box_append (GTK_BOX (card), head);
  if (f->numbers && *f->numbers)
    gtk_box_append (GTK_BOX (card), label (f->numbers, "numbers", FALSE));
  if (f->cause && *f->cause)
    gtk_box_append (GTK_BOX (card), label (why, NULL, TRUE));
  if (fix_text && *fix_text)
    gtk_box_append (GTK_BOX (card), label (fix, NULL, TRUE));
  g_object_set_data (G_OBJECT (card), "panel", self);
  g_object_set_data (G_OBJECT (card), "index", GUINT_TO_POINTER (index));
  g_signal_connect (click, "released", G_CALLBACK (card_clicked_cb), NULL);
  gtk_widget_add_controller (card, GTK_EVENT_CONTROLLER (click));
  if (f->activities != NULL && f->activities->len > 0)
    gtk_widget_set_tooltip_text (card, _("Click to outline the spans this is about on the "
                                         "timeline"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, f->title,
                                  -1);
  return card;
}

/* compute-sanitizer's findings of a memory check (no run: its timings mean nothing). */
static void
add_memcheck (WsFindingsPanel *self, WsSession *session)
{
  GPtrArray *found = ws_session_get_memcheck_findings (session);

  for (guint i = 0; i < found->len; i++)
    {
      WsMemcheckText text;
      WsFinding fake = { .severity = WS_SEVERITY_HIGH };

      ws_memcheck_text_init (&text, g_ptr_array_index (found, i));
      fake.title = text.title;
      fake.numbers = text.numbers;
      fake.cause = ((WsMemcheckFinding *) g_ptr_array_index (found, i))->detail;
      fake.fix = (char *) text.fix;
      gtk_box_append (GTK_BOX (self->box), finding_card (self, &fake, G_MAXUINT));
      ws_memcheck_text_clear (&text);
    }
}

/* A traced program: its findings as the session's analysis keeps them, each program run's
 * most severe first. */
static GPtrArray *
trace_findings (WsFindingsPanel *self)
{
  WsSessionAnalysis *analysis = ws_workspace_get_analysis (self->workspace);

  return analysis != NULL ? ws_session_analysis_dup_trace_findings (analysis) : g_ptr_array_new ();
}

/* What the cards of a traced program say: the session's errors, then the findings' titles. */
static char *
titles_of (WsSession *session, GPtrArray *findings)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%u %u\n", ws_session_get_errors (session)->len,
                          ws_session_get_problems (session)->len);
  for (guint i = 0; i < findings->len; i++)
    g_string_append_printf (s, "%s\n", ((WsFinding *) g_ptr_array_index (findings, i))->title);
  return g_string_free (s, FALSE);
}

/* A library's kernels' findings come last in their program run (ws_analyze_trace), folded
 * behind their library's name: nothing in them is the program's to change. Returns the box
 * the group's cards go in, when findings[i] begins one; `fold` else. */
static GtkWidget *
fold_library (WsFindingsPanel *self, GPtrArray *findings, guint i, guint *fold_end,
              GtkWidget *fold)
{
  guint n;
  g_autofree char *heading = ws_findings_library_group (findings, i, &n);
  GtkWidget *expander;

  if (heading == NULL)
    return fold;
  *fold_end = i + n;
  fold = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_top (fold, 6);
  expander = gtk_expander_new (heading);
  gtk_widget_add_css_class (expander, "library-findings");
  gtk_label_set_wrap (GTK_LABEL (gtk_expander_get_label_widget (GTK_EXPANDER (expander))), TRUE);
  gtk_expander_set_child (GTK_EXPANDER (expander), fold);
  gtk_box_append (GTK_BOX (self->box), expander);
  return fold;
}

static void
show_trace (WsFindingsPanel *self, WsSession *session)
{
  g_autoptr (GPtrArray) findings = trace_findings (self);
  GtkWidget *fold = NULL;

  g_free (self->trace_shown);
  self->trace_shown = titles_of (session, findings);
  gtk_box_append (GTK_BOX (self->box), label (_("Findings about the traced program"), "title-4",
                                              FALSE));
  if (!ws_workspace_is_analysed (self->workspace))
    {
      gtk_box_append (GTK_BOX (self->box),
                      label (_("Analysing the session: the findings appear in a moment."),
                             "dim-label", FALSE));
      return;
    }
  if (findings->len == 0)
    {
      gtk_box_append (GTK_BOX (self->box),
                      label (_("Nothing to point out yet: the findings appear as the program's "
                               "kernels and copies arrive."),
                             "dim-label", FALSE));
      return;
    }
  self->shown = g_ptr_array_ref (findings);
  for (guint i = 0, fold_end = 0; i < findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (findings, i);
      const WsTraceProgram *p = ws_trace_get_program (ws_session_get_trace (session), f->program);
      GtkWidget *card;

      /* A sweep: each program run's findings under its values. */
      if (p != NULL && p->of > 1
          && (i == 0 || ((WsFinding *) g_ptr_array_index (findings, i - 1))->program != f->program))
        {
          g_autofree char *params = ws_trace_describe_params (p);
          g_autofree char *heading = g_strdup_printf (_("Run %u of %u · %s"), p->id, p->of,
                                                      params);

          gtk_box_append (GTK_BOX (self->box), label (heading, "heading", FALSE));
        }
      fold = fold_library (self, findings, i, &fold_end, fold);
      card = finding_card (self, g_ptr_array_index (findings, i), i);
      gtk_box_append (GTK_BOX (i < fold_end ? fold : self->box), card);
    }
}

/* The fastest configuration of each problem the session ran more than once: what a sweep
 * was for, before any run is picked. */
static void
add_fastest (WsFindingsPanel *self)
{
  WsSessionAnalysis *analysis = ws_workspace_get_analysis (self->workspace);
  GPtrArray *fastest;

  if (!ws_workspace_is_analysed (self->workspace))
    {
      gtk_box_append (GTK_BOX (self->box),
                      label (_("Analysing the session: the fastest configurations and the "
                               "findings appear in a moment."),
                             "dim-label", FALSE));
      return;
    }
  fastest = ws_session_analysis_get_fastest (analysis);
  if (fastest->len == 0)
    return;
  gtk_box_append (GTK_BOX (self->box), label (_("Fastest configurations"), "title-4", FALSE));
  for (guint i = 0; i < fastest->len && i < 12; i++)
    {
      g_autofree char *text = ws_fastest_dup_summary (g_ptr_array_index (fastest, i));

      gtk_box_append (GTK_BOX (self->box), label (text, NULL, FALSE));
    }
  if (fastest->len > 12)
    {
      guint more = fastest->len - 12;
      g_autofree char *text = g_strdup_printf (g_dngettext (NULL,
                                                            "and %u more problem: warpscope-cli "
                                                            "report lists every one",
                                                            "and %u more problems: warpscope-cli "
                                                            "report lists every one",
                                                            more),
                                               more);

      gtk_box_append (GTK_BOX (self->box), label (text, "dim-label", FALSE));
    }
}

static void
show_one (WsFindingsPanel *self, WsSession *session, WsRun *run, GPtrArray *findings)
{
  clear (self);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  self->run = run ? ws_run_get_id (run) : 0;

  if (run == NULL)
    {
      gboolean traced = session != NULL && ws_session_get_trace (session) != NULL;
      /* A memory check has no run to select: what it found is all there is. */
      gboolean checked = session != NULL && ws_session_get_memcheck_findings (session)->len > 0
                         && g_list_model_get_n_items (ws_session_get_runs (session)) == 0;

      gtk_box_append (GTK_BOX (self->box), label (_("Findings"), "title-3", FALSE));
      if (!traced && !checked)
        gtk_box_append (GTK_BOX (self->box),
                        label (_("Select a run in the table to see what its numbers say: what "
                                 "limits it, why, and what to change."),
                               "dim-label", FALSE));
      if (session != NULL && !traced && ws_workspace_has_runs (self->workspace))
        add_fastest (self);
      if (session != NULL)
        {
          GPtrArray *errors = ws_session_get_errors (session);
          GPtrArray *problems = ws_session_get_problems (session);

          for (guint i = 0; i < errors->len; i++)
            {
              WsRunnerError *e = g_ptr_array_index (errors, i);
              /* An own kernel's error names its place, as a compiler does. */
              g_autofree char *base = e->file ? g_path_get_basename (e->file) : NULL;
              g_autofree char *place = e->line <= 0 ? NULL
                                       : e->column > 0
                                         ? g_strdup_printf ("%s:%d:%d", base ? base : "", e->line,
                                                            e->column)
                                         : g_strdup_printf ("%s:%d", base ? base : "", e->line);
              WsFinding fake = { .severity = e->severity == WS_ERROR_SEVERITY_ERROR
                                               ? WS_SEVERITY_HIGH
                                               : WS_SEVERITY_MEDIUM,
                                 .title = e->message, .numbers = place ? place : e->detail };

              gtk_box_append (GTK_BOX (self->box), finding_card (self, &fake, G_MAXUINT));
            }
          add_memcheck (self, session);
          for (guint i = 0; i < problems->len && i < 20; i++)
            {
              WsProblem *p = g_ptr_array_index (problems, i);
              g_autofree char *title = g_strdup_printf (_("Line %u of the file could not be "
                                                          "read"),
                                                        p->line);
              WsFinding fake = { .severity = WS_SEVERITY_LOW, .title = title,
                                 .numbers = p->message };

              gtk_box_append (GTK_BOX (self->box), finding_card (self, &fake, G_MAXUINT));
            }
        }
      if (traced)
        show_trace (self, session);
      return;
    }

  {
    g_autofree char *size = ws_run_dup_size_label (run);
    g_autofree char *block = ws_run_dup_block_label (run);
    g_autofree char *heading = *block ? g_strdup_printf (_("Run %d: %s, %s, block %s"),
                                                         ws_run_get_id (run),
                                                         ws_run_get_config (run)->kernel, size, block)
                                      : g_strdup_printf (_("Run %d: %s, %s"), ws_run_get_id (run),
                                                         ws_run_get_config (run)->kernel, size);

    gtk_box_append (GTK_BOX (self->box), label (heading, "title-4", FALSE));
  }
  /* What the GPU's counters measured, beside the theory, where they were read. */
  {
    g_autofree char *measured = ws_run_dup_measured_text (run);

    if (measured != NULL)
      {
        gtk_box_append (GTK_BOX (self->box),
                        label (_("Measured on the GPU"), "heading", FALSE));
        gtk_box_append (GTK_BOX (self->box), label (measured, NULL, FALSE));
      }
  }
  if (findings == NULL && !ws_workspace_is_analysed (self->workspace))
    {
      gtk_box_append (GTK_BOX (self->box),
                      label (_("Analysing the session: the findings appear in a moment."),
                             "dim-label", FALSE));
      return;
    }
  if (findings == NULL || findings->len == 0)
    {
      gtk_box_append (GTK_BOX (self->box),
                      label (ws_run_get_state (run) == WS_RUN_STATE_RUNNING
                               ? _("Still running: the findings appear when its results arrive.")
                               : _("Nothing to point out: this run is verified and uses the GPU "
                                   "well by every rule Warpscope checks."),
                             "dim-label", FALSE));
      return;
    }
  self->shown = g_ptr_array_ref (findings);
  for (guint i = 0; i < findings->len; i++)
    gtk_box_append (GTK_BOX (self->box), finding_card (self, g_ptr_array_index (findings, i), i));
}

static char *
human_rate (double v)
{
  if (!(v > 0))
    return g_strdup (WS_UNITS_NONE);
  if (v >= 1000)
    return ws_units_grouped ((guint64) (v + 0.5));
  return g_strdup_printf ("%.3g", v);
}

typedef enum
{
  SHOW_TIME,     /* ns, lower is better */
  SHOW_RATE,     /* GB/s or ×, higher is better */
  SHOW_PERCENT,  /* 0–1 */
} Show;

static void
compare_row (GtkGrid *grid, int row, const char *name, double a, double b, Show show)
{
  g_autofree char *ta = NULL, *tb = NULL, *ratio = NULL;
  GtkWidget *labels[4];

  switch (show)
    {
    case SHOW_TIME:
      ta = ws_units_duration (a), tb = ws_units_duration (b);
      break;
    case SHOW_RATE:
      ta = human_rate (a), tb = human_rate (b);
      break;
    case SHOW_PERCENT:
      ta = ws_units_percent (a), tb = ws_units_percent (b);
      break;
    }
  /* One rule for every row, as the column's heading says: the second divided by the first. */
  if (a > 0 && b > 0)
    ratio = ws_units_ratio (b / a);
  labels[0] = label (name, "dim-label", FALSE);
  gtk_label_set_wrap (GTK_LABEL (labels[0]), FALSE);
  labels[1] = label (ta, "numbers", FALSE);
  labels[2] = label (tb, "numbers", FALSE);
  labels[3] = label (ratio ? ratio : "", "numbers", FALSE);
  for (int c = 0; c < 4; c++)
    {
      /* "133.66 ms" never breaks across lines. */
      if (c > 0)
        {
          gtk_label_set_xalign (GTK_LABEL (labels[c]), 1);
          gtk_label_set_wrap (GTK_LABEL (labels[c]), FALSE);
        }
      gtk_grid_attach (grid, labels[c], c, row, 1, 1);
    }
}

/* Two runs side by side: their numbers in two columns with the ratio, then each one's
 * findings. */
static void
show_pair (WsFindingsPanel *self, WsRun *a, GPtrArray *fa, WsRun *b, GPtrArray *fb)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  const WsTiming *ta = ws_run_get_timing (a), *tb = ws_run_get_timing (b);
  const WsLaunch *la = ws_run_get_launch (a), *lb = ws_run_get_launch (b);
  g_autofree char *title = g_strdup_printf (_("Run %d beside run %d"), ws_run_get_id (a),
                                            ws_run_get_id (b));
  g_autofree char *ha = g_strdup_printf (_("run %d"), ws_run_get_id (a));
  g_autofree char *hb = g_strdup_printf (_("run %d"), ws_run_get_id (b));
  g_autofree char *hr = g_strdup_printf (_("%d ÷ %d"), ws_run_get_id (b), ws_run_get_id (a));
  int row = 1;

  clear (self);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  self->run = ws_run_get_id (a);
  gtk_box_append (GTK_BOX (self->box), label (title, "title-4", FALSE));
  for (int i = 0; i < 2; i++)
    {
      WsRun *r = i == 0 ? a : b;
      g_autofree char *size = ws_run_dup_size_label (r);
      g_autofree char *block = ws_run_dup_block_label (r);
      g_autofree char *what = g_strdup_printf (_("Run %d: %s, %s%s%s, %s"), ws_run_get_id (r),
                                               ws_run_get_config (r)->kernel, size,
                                               *block ? _(", block ") : "", block,
                                               ws_transfer_label (ws_run_get_config (r)->transfer));

      gtk_box_append (GTK_BOX (self->box), label (what, "dim-label", FALSE));
    }
  gtk_grid_set_column_spacing (grid, 12);
  gtk_grid_set_row_spacing (grid, 4);
  gtk_grid_attach (grid, label ("", NULL, FALSE), 0, 0, 1, 1);
  gtk_grid_attach (grid, label (ha, "heading", FALSE), 1, 0, 1, 1);
  gtk_grid_attach (grid, label (hb, "heading", FALSE), 2, 0, 1, 1);
  gtk_grid_attach (grid, label (hr, "heading", FALSE), 3, 0, 1, 1);
  compare_row (grid, row++, _("Kernel"), ws_run_get_kernel_ns (a), ws_run_get_kernel_ns (b),
               SHOW_TIME);
  if (ta && tb)
    {
      compare_row (grid, row++, _("End to end"), ta->e2e.median, tb->e2e.median, SHOW_TIME);
      compare_row (grid, row++, _("H2D copy"), ta->h2d.median, tb->h2d.median, SHOW_TIME);
      compare_row (grid, row++, _("D2H copy"), ta->d2h.median, tb->d2h.median, SHOW_TIME);
    }
  compare_row (grid, row++, _("GB/s"), ws_run_get_gbs (a), ws_run_get_gbs (b), SHOW_RATE);
  compare_row (grid, row++, _("GFLOP/s"), ws_run_get_gflops (a), ws_run_get_gflops (b),
               SHOW_RATE);
  compare_row (grid, row++, _("vs 1 CPU"), ws_run_get_speedup (a, FALSE, FALSE),
               ws_run_get_speedup (b, FALSE, FALSE), SHOW_RATE);
  if (la && lb)
    compare_row (grid, row++, _("Occupancy"), la->occupancy, lb->occupancy, SHOW_PERCENT);
  gtk_widget_add_css_class (GTK_WIDGET (grid), "finding");
  gtk_widget_add_css_class (GTK_WIDGET (grid), "compare");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (grid));
  /* Then what each one's numbers say, most severe first. */
  for (int i = 0; i < 2; i++)
    {
      GPtrArray *f = i == 0 ? fa : fb;
      g_autofree char *heading = g_strdup_printf (_("Run %d"), ws_run_get_id (i == 0 ? a : b));

      gtk_box_append (GTK_BOX (self->box), label (heading, "heading", FALSE));
      for (guint k = 0; f != NULL && k < f->len && k < 3; k++)
        {
          WsFinding *finding = g_ptr_array_index (f, k);
          WsFinding brief = { .severity = finding->severity, .title = finding->title,
                              .numbers = finding->numbers };

          gtk_box_append (GTK_BOX (self->box), finding_card (self, &brief, G_MAXUINT));
        }
    }
}

static void
show (WsFindingsPanel *self)
{
  WsSession *session = self->workspace ? ws_workspace_get_session (self->workspace) : NULL;
  WsRun *run = self->workspace ? ws_workspace_get_selected_run (self->workspace) : NULL;
  WsRun *other = self->workspace ? ws_workspace_get_compared_run (self->workspace) : NULL;

  if (run != NULL && other != NULL)
    show_pair (self, run, ws_workspace_get_findings (self->workspace, run), other,
               ws_workspace_get_findings (self->workspace, other));
  else
    show_one (self, session, run, run ? ws_workspace_get_findings (self->workspace, run) : NULL);
}

static void
run_updated_cb (WsWorkspace *workspace, WsRun *run, WsFindingsPanel *self)
{
  int id = ws_run_get_id (run);

  if (id == ws_workspace_get_run (workspace) || id == ws_workspace_get_compare_run (workspace))
    show (self);
}

/* Errors and a memory check's findings arrive without a run; a traced program's records (its
 * processes, its end) change what is found. */
static void
session_updated_cb (WsFindingsPanel *self)
{
  WsSession *session = ws_workspace_get_session (self->workspace);

  if (session != NULL && ws_session_get_trace (session) != NULL)
    {
      g_autoptr (GPtrArray) findings = NULL;
      g_autofree char *titles = NULL;

      if (ws_workspace_get_selected_run (self->workspace) != NULL)
        return;
      /* Twice a second while a program runs the analysis has looked again at the program runs
       * that changed: the cards stay put (and where they were scrolled to) unless what they
       * say has changed; they point at the findings found now. */
      findings = trace_findings (self);
      titles = titles_of (session, findings);
      if (g_strcmp0 (titles, self->trace_shown) != 0)
        show (self);
      else if (self->shown != NULL)
        {
          g_ptr_array_unref (self->shown);
          self->shown = g_steal_pointer (&findings);
        }
      return;
    }
  if (ws_workspace_get_run (self->workspace) == 0)
    show (self);
}

static void
presentation_cb (WsFindingsPanel *self)
{
  if (ws_workspace_get_presentation (self->workspace))
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
}

static void
ws_findings_panel_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsFindingsPanel *self = WS_FINDINGS_PANEL (view);

  self->workspace = workspace;
  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (show), self);
      g_signal_connect_swapped (workspace, "notify::run", G_CALLBACK (show), self);
      g_signal_connect_swapped (workspace, "notify::compare-run", G_CALLBACK (show), self);
      g_signal_connect (workspace, "run-updated", G_CALLBACK (run_updated_cb), self);
      g_signal_connect_swapped (workspace, "analysis-ready", G_CALLBACK (show), self);
      g_signal_connect_swapped (workspace, "session-updated", G_CALLBACK (session_updated_cb),
                                self);
      g_signal_connect_swapped (workspace, "notify::presentation", G_CALLBACK (presentation_cb),
                                self);
      presentation_cb (self);
    }
  show (self);
}

static void
ws_findings_panel_dispose (GObject *object)
{
  WsFindingsPanel *self = WS_FINDINGS_PANEL (object);

  self->workspace = NULL;
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->trace_shown, g_free);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_findings_panel_parent_class)->dispose (object);
}

static void
ws_findings_panel_class_init (WsFindingsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_findings_panel_dispose;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_findings_panel_workspace_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "findings");
}

static void
ws_findings_panel_init (WsFindingsPanel *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->box);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Findings"), -1);
  show (self);
}

GtkWidget *
ws_findings_panel_new (void)
{
  return g_object_new (WS_TYPE_FINDINGS_PANEL, NULL);
}
