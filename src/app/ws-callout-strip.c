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
  guint most;     /* callouts shown at most for this run: 1 once a second cut a sentence short */
  guint fewer_id; /* the idle that shows one fewer */
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
  const char *fix = ws_finding_get_fix (f, WS_AUDIENCE_APP);
  const char *more = fix && *fix ? fix : f->numbers;
  /* The first sentence, whole, on up to three lines: what a room reads at a glance, never
   * cut mid-sentence; the rest on hover and in the findings. */
  g_autofree char *first = more != NULL ? g_strndup (more, ws_label_first_sentence_end (more)
                                                             - more)
                                        : NULL;

  gtk_widget_add_css_class (card, "callout");
  gtk_widget_add_css_class (card, ws_severity_to_string (f->severity));
  /* The first one's title is the takeaway over the chart. */
  /* Under a projector's 768 pixels (a 1280×720 or 1024×600 screen) the chart keeps its share: a
   * line less. */
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  gboolean short_screen = root != NULL && gtk_widget_get_height (GTK_WIDGET (root)) > 0
                          && gtk_widget_get_height (GTK_WIDGET (root)) < 760;

  gtk_box_append (GTK_BOX (card), text (index == 0 ? _("What to change") : f->title, "title", 1));
  if (first != NULL && *first)
    gtk_box_append (GTK_BOX (card), text (first, NULL, short_screen ? 2 : 3));
  /* The whole of it on hover. */
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
  if (self->run != (run ? ws_run_get_id (run) : 0))
    self->most = MAX_CALLOUTS;
  self->run = run ? ws_run_get_id (run) : 0;
  self->n_callouts = 0;
  if (findings != NULL)
    {
      self->shown = g_ptr_array_ref (findings);
      for (guint i = 0; i < findings->len && i < self->most; i++, self->n_callouts++)
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

/* A callout's sentence cut short ("…") at the width it was given. */
static gboolean
any_cut (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if ((GTK_IS_LABEL (c) && !gtk_widget_has_css_class (c, "title")
         && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (c))))
        || any_cut (c))
      return TRUE;
  return FALSE;
}

static gboolean
show_fewer_cb (gpointer data)
{
  WsCalloutStrip *self = data;

  self->fewer_id = 0;
  self->most = 1;
  update (self);
  return G_SOURCE_REMOVE;
}

static void
ws_callout_strip_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                          int *minimum, int *natural, int *minimum_baseline,
                          int *natural_baseline)
{
  gtk_widget_measure (WS_CALLOUT_STRIP (widget)->box, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

static GtkSizeRequestMode
ws_callout_strip_get_request_mode (GtkWidget *widget)
{
  return gtk_widget_get_request_mode (WS_CALLOUT_STRIP (widget)->box);
}

/* Two callouts side by side each have half the width: where a sentence does not fit there
 * in its lines, the first finding's callout takes the whole width alone. */
static void
ws_callout_strip_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  WsCalloutStrip *self = WS_CALLOUT_STRIP (widget);

  gtk_widget_allocate (self->box, width, height, baseline, NULL);
  if (self->n_callouts > 1 && self->fewer_id == 0 && any_cut (self->box))
    self->fewer_id = g_idle_add (show_fewer_cb, self);
}

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

  g_clear_handle_id (&self->fewer_id, g_source_remove);
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
  widget_class->size_allocate = ws_callout_strip_size_allocate;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_callout_strip_workspace_changed;
  /* Its own allocation rather than a layout manager's: it looks at what the width did to
   * the callouts' sentences. */
  widget_class->measure = ws_callout_strip_measure;
  widget_class->get_request_mode = ws_callout_strip_get_request_mode;
  gtk_widget_class_set_css_name (widget_class, "calloutstrip");
}

static void
ws_callout_strip_init (WsCalloutStrip *self)
{
  self->most = MAX_CALLOUTS;
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
