/* ws-takeaway.c: the presentation's headline: the selected run's place among the session's
 * runs and its one-line takeaway, large enough to read from the back of a classroom.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-takeaway.h"

#include <glib/gi18n.h>

#include "ws-analysis.h"
#include "ws-trace.h"

struct _WsTakeaway
{
  WsView parent_instance;
  GtkWidget *box;
  GtkLabel *context, *headline;
  GtkWidget *previous, *next, *more;
  gboolean has_answer; /* a run or a traced program with something to say */
};

enum
{
  PROP_0,
  PROP_HAS_ANSWER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WsTakeaway, ws_takeaway, WS_TYPE_VIEW)

/* Which of the session's runs `run` is, from 1; and how many there are. */
static guint
place_of (WsSession *session, WsRun *run, guint *n)
{
  GListModel *runs = ws_session_get_runs (session);

  *n = g_list_model_get_n_items (runs);
  for (guint i = 0; i < *n; i++)
    {
      g_autoptr (WsRun) r = g_list_model_get_item (runs, i);

      if (r == run)
        return i + 1;
    }
  return 0;
}

static void
set_answer (WsTakeaway *self, gboolean has_answer)
{
  if (self->has_answer == has_answer)
    return;
  self->has_answer = has_answer;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_ANSWER]);
}

/* A traced program has no runs to step through: its most severe finding (of its first
 * program run, which the analysis lists first) is what it says. */
static gboolean
update_trace (WsTakeaway *self, WsWorkspace *workspace)
{
  WsSession *session = ws_workspace_get_session (workspace);
  WsSessionAnalysis *analysis = ws_workspace_get_analysis (workspace);
  g_autoptr (GPtrArray) findings = NULL;

  if (session == NULL || ws_session_get_trace (session) == NULL || analysis == NULL)
    return FALSE;
  findings = ws_session_analysis_dup_trace_findings (analysis);
  gtk_widget_set_visible (self->previous, FALSE);
  gtk_widget_set_visible (self->next, FALSE);
  gtk_label_set_text (self->context, _("The traced program"));
  gtk_widget_set_visible (GTK_WIDGET (self->context),
                          ws_workspace_get_presentation (workspace));
  if (findings->len == 0)
    {
      gtk_label_set_text (self->headline, ws_workspace_is_analysed (workspace)
                                            ? _("Nothing to point out yet")
                                            : _("Analysing the session…"));
      set_answer (self, FALSE);
      return TRUE;
    }
  gtk_label_set_text (self->headline, ((WsFinding *) g_ptr_array_index (findings, 0))->title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->headline),
                               ((WsFinding *) g_ptr_array_index (findings, 0))->title);
  set_answer (self, TRUE);
  return TRUE;
}

static void
update (WsTakeaway *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsRun *run = workspace ? ws_workspace_get_selected_run (workspace) : NULL;
  GPtrArray *findings;
  g_autofree char *size = NULL, *block = NULL, *context = NULL;
  const char *headline;
  guint place, n;

  gboolean presenting = workspace != NULL && ws_workspace_get_presentation (workspace);

  /* On a projector the clicker steps through the runs and the callouts say the rest; beside
   * the chart the table picks runs, and a button opens the findings. */
  gtk_widget_set_visible (self->previous, presenting);
  gtk_widget_set_visible (self->next, presenting);
  gtk_widget_set_visible (self->more, !presenting);
  if (run == NULL && workspace != NULL && update_trace (self, workspace))
    return;
  if (run == NULL)
    {
      gtk_label_set_text (self->context, "");
      gtk_widget_set_visible (GTK_WIDGET (self->context), FALSE);
      gtk_label_set_text (self->headline, _("Press → or Page Down to step through the runs"));
      set_answer (self, FALSE);
      return;
    }
  set_answer (self, TRUE);
  size = ws_run_dup_size_label (run);
  block = ws_run_dup_block_label (run);
  place = place_of (ws_workspace_get_session (workspace), run, &n);
  if (*block)
    /* Translators: "Run 5 of 12 · vector_add, n = 10,000,000, block 256, pageable". */
    context = g_strdup_printf (_("Run %1$u of %2$u · %3$s, %4$s, block %5$s, %6$s"), place, n,
                               ws_run_get_config (run)->kernel, size, block,
                               ws_run_get_config (run)->transfer
                                 ? ws_transfer_label (ws_run_get_config (run)->transfer)
                                 : "");
  else
    context = g_strdup_printf (_("Run %1$u of %2$u · %3$s, %4$s"), place, n,
                               ws_run_get_config (run)->kernel, size);
  findings = ws_workspace_get_findings (workspace, run);
  if (findings != NULL && findings->len > 0)
    headline = ((WsFinding *) g_ptr_array_index (findings, 0))->title;
  else if (ws_run_get_state (run) == WS_RUN_STATE_RUNNING)
    headline = _("Still running…");
  else
    headline = _("Nothing to point out: verified, and it uses the GPU well");
  gtk_label_set_text (self->context, context);
  /* Beside the chart the table says which run it is: one line, the answer. */
  gtk_widget_set_visible (GTK_WIDGET (self->context), presenting);
  gtk_label_set_text (self->headline, headline);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->headline), headline);
}

gboolean
ws_takeaway_has_answer (WsTakeaway *self)
{
  g_return_val_if_fail (WS_IS_TAKEAWAY (self), FALSE);
  return self->has_answer;
}

const char *
ws_takeaway_get_context (WsTakeaway *self)
{
  g_return_val_if_fail (WS_IS_TAKEAWAY (self), NULL);
  return gtk_label_get_text (self->context);
}

const char *
ws_takeaway_get_headline (WsTakeaway *self)
{
  g_return_val_if_fail (WS_IS_TAKEAWAY (self), NULL);
  return gtk_label_get_text (self->headline);
}

static void
ws_takeaway_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsTakeaway *self = WS_TAKEAWAY (view);

  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::run", G_CALLBACK (update), self);
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (update), self);
      g_signal_connect_swapped (workspace, "notify::presentation", G_CALLBACK (update), self);
      g_signal_connect_swapped (workspace, "run-updated", G_CALLBACK (update), self);
      g_signal_connect_swapped (workspace, "analysis-ready", G_CALLBACK (update), self);
      /* A live traced program's findings change as it runs. */
      g_signal_connect_swapped (workspace, "session-updated", G_CALLBACK (update), self);
    }
  update (self);
}

static void
ws_takeaway_dispose (GObject *object)
{
  WsTakeaway *self = WS_TAKEAWAY (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_takeaway_parent_class)->dispose (object);
}

static void
ws_takeaway_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_HAS_ANSWER:
      g_value_set_boolean (value, WS_TAKEAWAY (object)->has_answer);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_takeaway_class_init (WsTakeawayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_takeaway_dispose;
  object_class->get_property = ws_takeaway_get_property;
  /* Whether it has an answer to show: a selected run, or a traced program's finding. */
  properties[PROP_HAS_ANSWER] = g_param_spec_boolean ("has-answer", NULL, NULL, FALSE,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                        | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  WS_VIEW_CLASS (klass)->workspace_changed = ws_takeaway_workspace_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "takeaway");
}

static GtkWidget *
step_button (const char *icon, const char *action, const char *tooltip, const char *name)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "circular");
  gtk_widget_add_css_class (button, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  return button;
}

static void
ws_takeaway_init (WsTakeaway *self)
{
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  self->context = GTK_LABEL (gtk_label_new (NULL));
  self->headline = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->context, 0);
  gtk_label_set_ellipsize (self->context, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->context), "context");
  /* One line where it fits, two at most: the finding's title is a sentence. */
  gtk_label_set_xalign (self->headline, 0);
  gtk_label_set_wrap (self->headline, TRUE);
  gtk_label_set_lines (self->headline, 2);
  gtk_label_set_ellipsize (self->headline, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->headline), "headline");
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (text), GTK_WIDGET (self->context));
  gtk_box_append (GTK_BOX (text), GTK_WIDGET (self->headline));
  self->previous = step_button ("go-previous-symbolic", "win.previous-run",
                                _("Previous run (←, Page Up)"), _("Previous run"));
  self->next = step_button ("go-next-symbolic", "win.next-run", _("Next run (→, Page Down)"),
                            _("Next run"));
  /* Beside the chart, where the findings pane is folded away: one click to the rest. Shown
   * by the window outside presentation mode. */
  self->more = gtk_button_new_with_label (_("All findings"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->more), "win.toggle-findings");
  gtk_widget_set_tooltip_text (self->more, _("Show the findings pane (Shift+F9)"));
  gtk_widget_set_valign (self->more, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->more, "more");
  gtk_widget_add_css_class (self->more, "flat");
  gtk_box_append (GTK_BOX (self->box), self->previous);
  gtk_box_append (GTK_BOX (self->box), text);
  gtk_box_append (GTK_BOX (self->box), self->next);
  gtk_box_append (GTK_BOX (self->box), self->more);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  update (self);
}

GtkWidget *
ws_takeaway_new (void)
{
  return g_object_new (WS_TYPE_TAKEAWAY, NULL);
}
