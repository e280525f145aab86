/* ws-callout-strip.c: a presentation's findings, large. The takeaway above the chart already
 * reads the first finding's title, so its callout says what to change; the next finding
 * follows with its title. Two at most: at 24 px a third would be cut to a word a line.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-callout-strip.h"

#include <glib/gi18n.h>

#include "ws-analysis.h"
#include "ws-label.h"

#define MAX_CALLOUTS 2

struct _WsCalloutStrip
{
  WsView parent_instance;
  GtkWidget *box;
  GPtrArray *shown; /* WsFinding, held while shown (the workspace's cache may drop them) */
  int run;
  guint n_callouts;
};

G_DEFINE_FINAL_TYPE (WsCalloutStrip, ws_callout_strip, WS_TYPE_VIEW)

static GtkWidget *
text (const char *words, const char *css, int lines)
{
  GtkWidget *label = ws_label_new_wrapped (words, css);

  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_lines (GTK_LABEL (label), lines);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  return label;
}

static void
outline (WsCalloutStrip *self, WsFinding *f)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));

  if (workspace != NULL && f->activities != NULL && f->activities->len > 0)
    ws_workspace_highlight_finding (workspace, f->run ? f->run : self->run, f->activities);
}

static void
callout_clicked_cb (GtkGestureClick *gesture, int n, double x, double y, WsCalloutStrip *self)
{
  GtkWidget *card = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (card), "index"));
  WsFinding *f;

  if (self->shown == NULL || index >= self->shown->len)
    return;
  f = g_ptr_array_index (self->shown, index);
  if (f->activities == NULL || f->activities->len == 0)
    return;
  outline (self, f);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-view", "s", "timeline");
}

static GtkWidget *
callout (WsCalloutStrip *self, WsFinding *f, guint index)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkGesture *click = gtk_gesture_click_new ();
  const char *more = f->fix && *f->fix ? f->fix : f->numbers;

  gtk_widget_add_css_class (card, "callout");
  gtk_widget_add_css_class (card, ws_severity_to_string (f->severity));
  /* The first one's title is the takeaway over the chart. */
  gtk_box_append (GTK_BOX (card), text (index == 0 ? _("What to change") : f->title, "title", 1));
  if (more != NULL && *more)
    gtk_box_append (GTK_BOX (card), text (more, NULL, 2));
  /* Cut to fit the strip; the whole of it on hover. */
  gtk_widget_set_tooltip_text (card, more && *more ? more : f->title);
  g_object_set_data (G_OBJECT (card), "index", GUINT_TO_POINTER (index));
  g_signal_connect (click, "released", G_CALLBACK (callout_clicked_cb), self);
  gtk_widget_add_controller (card, GTK_EVENT_CONTROLLER (click));
  gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, f->title,
                                  -1);
  return card;
}

static void
update (WsCalloutStrip *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsRun *run = workspace ? ws_workspace_get_selected_run (workspace) : NULL;
  GPtrArray *findings = run ? ws_workspace_get_findings (workspace, run) : NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  self->run = run ? ws_run_get_id (run) : 0;
  self->n_callouts = 0;
  if (findings != NULL)
    {
      self->shown = g_ptr_array_ref (findings);
      for (guint i = 0; i < findings->len && i < MAX_CALLOUTS; i++, self->n_callouts++)
        gtk_box_append (GTK_BOX (self->box), callout (self, g_ptr_array_index (findings, i), i));
    }
  gtk_widget_set_visible (self->box, self->n_callouts > 0);
}

/* A new run on a projector: what its first finding is about, outlined. */
static void
run_cb (WsCalloutStrip *self)
{
  update (self);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && self->shown != NULL && self->shown->len > 0)
    outline (self, g_ptr_array_index (self->shown, 0));
}

guint
ws_callout_strip_get_n_callouts (WsCalloutStrip *self)
{
  g_return_val_if_fail (WS_IS_CALLOUT_STRIP (self), 0);
  return self->n_callouts;
}

static void
ws_callout_strip_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsCalloutStrip *self = WS_CALLOUT_STRIP (view);

  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::run", G_CALLBACK (run_cb), self);
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (update), self);
      g_signal_connect_swapped (workspace, "run-updated", G_CALLBACK (update), self);
      g_signal_connect_swapped (workspace, "analysis-ready", G_CALLBACK (update), self);
    }
  update (self);
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
ws_callout_strip_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_callout_strip_parent_class)->map (widget);
  run_cb (WS_CALLOUT_STRIP (widget));
}

static void
ws_callout_strip_dispose (GObject *object)
{
  WsCalloutStrip *self = WS_CALLOUT_STRIP (object);

  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_callout_strip_parent_class)->dispose (object);
}

static void
ws_callout_strip_class_init (WsCalloutStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_callout_strip_dispose;
  widget_class->map = ws_callout_strip_map;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_callout_strip_workspace_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "calloutstrip");
}

static void
ws_callout_strip_init (WsCalloutStrip *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_set_homogeneous (GTK_BOX (self->box), TRUE);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Findings"), -1);
}

GtkWidget *
ws_callout_strip_new (void)
{
  return g_object_new (WS_TYPE_CALLOUT_STRIP, NULL);
}
