/* ws-findings-panel.c: the findings panel. Each card: a severity badge, the title, the numbers,
 * then "Why" and "What to change". Activating a card emits finding-activated with the run and
 * the activity indices it points at, so the timeline can outline them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-findings-panel.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-analysis.h"

struct _WsFindingsPanel
{
  GtkWidget parent_instance;
  GtkWidget *scroller;
  GtkWidget *box;
  GPtrArray *shown; /* WsFinding, borrowed (owned by the runs view's cache) */
  int run;
};

G_DEFINE_FINAL_TYPE (WsFindingsPanel, ws_findings_panel, GTK_TYPE_WIDGET)

enum
{
  FINDING_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GtkWidget *
label (const char *text, const char *css, gboolean markup)
{
  GtkWidget *l = gtk_label_new (NULL);

  if (markup)
    gtk_label_set_markup (GTK_LABEL (l), text);
  else
    gtk_label_set_text (GTK_LABEL (l), text);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (l), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_selectable (GTK_LABEL (l), FALSE);
  if (css != NULL)
    gtk_widget_add_css_class (l, css);
  return l;
}

static void
clear (WsFindingsPanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
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
  g_signal_emit (self, signals[FINDING_ACTIVATED], 0, f->run ? f->run : self->run, f->activities);
}

static GtkWidget *
finding_card (WsFindingsPanel *self, WsFinding *f, guint index)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  const char *severity = ws_severity_to_string (f->severity);
  GtkWidget *badge = label (severity, "badge", FALSE);
  GtkGesture *click = gtk_gesture_click_new ();
  g_autofree char *why = g_markup_printf_escaped (_("<b>Why:</b> %s"), f->cause ? f->cause : "");
  g_autofree char *fix = g_markup_printf_escaped (_("<b>What to change:</b> %s"),
                                                  f->fix ? f->fix : "");

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
  if (f->fix && *f->fix)
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

void
ws_findings_panel_show (WsFindingsPanel *self, WsSession *session, WsRun *run,
                        GPtrArray *findings)
{
  g_return_if_fail (WS_IS_FINDINGS_PANEL (self));
  clear (self);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  self->run = run ? ws_run_get_id (run) : 0;

  if (run == NULL)
    {
      gtk_box_append (GTK_BOX (self->box), label (_("Findings"), "title-3", FALSE));
      gtk_box_append (GTK_BOX (self->box),
                      label (_("Select a run in the table to see what its numbers say: what "
                               "limits it, why, and what to change."),
                             "dim-label", FALSE));
      if (session != NULL)
        {
          GPtrArray *errors = ws_session_get_errors (session);
          GPtrArray *problems = ws_session_get_problems (session);

          for (guint i = 0; i < errors->len; i++)
            {
              WsRunnerError *e = g_ptr_array_index (errors, i);
              WsFinding fake = { .severity = g_strcmp0 (e->severity, "error") == 0
                                               ? WS_SEVERITY_HIGH
                                               : WS_SEVERITY_MEDIUM,
                                 .title = e->message, .numbers = e->detail };

              gtk_box_append (GTK_BOX (self->box), finding_card (self, &fake, G_MAXUINT));
            }
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
      return;
    }

  {
    g_autofree char *size = ws_run_dup_size_label (run);
    g_autofree char *block = ws_run_dup_block_label (run);
    g_autofree char *heading = g_strdup_printf (_("Run %d: %s, %s, block %s"), ws_run_get_id (run),
                                                ws_run_get_config (run)->kernel, size, block);

    gtk_box_append (GTK_BOX (self->box), label (heading, "title-4", FALSE));
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

void
ws_findings_panel_set_presentation (WsFindingsPanel *self, gboolean presentation)
{
  if (presentation)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
}

static void
ws_findings_panel_dispose (GObject *object)
{
  WsFindingsPanel *self = WS_FINDINGS_PANEL (object);

  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_findings_panel_parent_class)->dispose (object);
}

static void
ws_findings_panel_class_init (WsFindingsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_findings_panel_dispose;
  /* A finding was clicked: its run and the activity indices (GArray of guint, may be NULL). */
  signals[FINDING_ACTIVATED] = g_signal_new ("finding-activated", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                             2, G_TYPE_INT, G_TYPE_POINTER);
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
  ws_findings_panel_show (self, NULL, NULL, NULL);
}

GtkWidget *
ws_findings_panel_new (void)
{
  return g_object_new (WS_TYPE_FINDINGS_PANEL, NULL);
}
