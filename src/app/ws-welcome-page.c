/* ws-welcome-page.c: the welcome page. Its heading and paragraph are the environment's own,
 * bound; each recording is a plain button that opens it, one click for a newcomer.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-welcome-page.h"

#include <adwaita.h>

#include "ws-sample.h"

/* The tutorial's §4 vector add traced as written: the 0.02× its own timer printed, explained. */
#define TRACED_SAMPLE "trace-vector-add-h200.jsonl"

struct _WsWelcomePage
{
  GtkWidget parent_instance;

  AdwStatusPage *status_page;
  GtkWidget *samples_heading;
  GtkWidget *traced_button;
  GtkBox *samples_box;

  WsEnvironment *environment;
  GBinding *title_binding, *description_binding;
  GListModel *samples;
};

G_DEFINE_FINAL_TYPE (WsWelcomePage, ws_welcome_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_ENVIRONMENT,
  PROP_SAMPLES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The status page reads its description as Pango markup; the environment's paragraph is
 * text, and a launcher's message may hold && or <. */
static gboolean
escape_markup (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  const char *text = g_value_get_string (from);

  g_value_take_string (to, text != NULL ? g_markup_escape_text (text, -1) : NULL);
  return TRUE;
}

void
ws_welcome_page_set_environment (WsWelcomePage *self, WsEnvironment *environment)
{
  g_return_if_fail (WS_IS_WELCOME_PAGE (self));
  g_clear_pointer (&self->title_binding, g_binding_unbind);
  g_clear_pointer (&self->description_binding, g_binding_unbind);
  g_set_object (&self->environment, environment);
  if (environment != NULL)
    {
      self->title_binding = g_object_bind_property (environment, "title", self->status_page,
                                                    "title", G_BINDING_SYNC_CREATE);
      self->description_binding = g_object_bind_property_full (environment, "description",
                                                               self->status_page, "description",
                                                               G_BINDING_SYNC_CREATE, escape_markup,
                                                               NULL, NULL, NULL);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENVIRONMENT]);
}

/* A group's heading and a box that lays its recordings two to a line, each a card, so that
 * the page stays short enough to read on a 1024×768 screen. */
static GtkWidget *
add_group (WsWelcomePage *self, WsSampleGroup group)
{
  GtkWidget *heading = gtk_label_new (ws_sample_group_title (group));
  GtkWidget *flow = gtk_flow_box_new ();

  gtk_widget_add_css_class (heading, "caption-heading");
  gtk_widget_add_css_class (heading, "dim-label");
  gtk_widget_set_margin_top (heading, 6);
  gtk_box_append (self->samples_box, heading);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (flow), TRUE);
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (flow), 1);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 2);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (flow), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (flow), 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (flow), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  ws_sample_group_title (group), -1);
  gtk_box_append (self->samples_box, flow);
  return flow;
}

static void
fill (WsWelcomePage *self)
{
  GtkWidget *child, *flow = NULL;
  guint n = self->samples ? g_list_model_get_n_items (self->samples) : 0;
  int group = -1;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->samples_box))) != NULL)
    gtk_box_remove (self->samples_box, child);
  gtk_widget_set_visible (self->traced_button, FALSE);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsSample) sample = g_list_model_get_item (self->samples, i);
      g_autofree char *name = g_path_get_basename (ws_sample_get_path (sample));
      GtkWidget *button, *label, *item;

      /* The tutorial's own program, traced, is offered first, on a button of its own. */
      if (g_str_equal (name, TRACED_SAMPLE))
        {
          gtk_actionable_set_action_target (GTK_ACTIONABLE (self->traced_button), "s",
                                            ws_sample_get_path (sample));
          gtk_actionable_set_action_name (GTK_ACTIONABLE (self->traced_button),
                                          "win.open-sample");
          gtk_widget_set_visible (self->traced_button, TRUE);
          continue;
        }
      /* The list is sorted by group: each starts under its heading. */
      if ((int) ws_sample_get_group (sample) != group)
        {
          group = (int) ws_sample_get_group (sample);
          flow = add_group (self, ws_sample_get_group (sample));
        }
      button = gtk_button_new_with_label (ws_sample_get_title (sample));
      label = gtk_button_get_child (GTK_BUTTON (button));
      /* Long titles wrap, so that two fit a line beside the sidebar at 1024×768. */
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
      gtk_label_set_width_chars (GTK_LABEL (label), 16);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-sample");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", ws_sample_get_path (sample));
      gtk_widget_add_css_class (button, "card");
      /* The button takes the focus, not the box's child around it. */
      gtk_flow_box_append (GTK_FLOW_BOX (flow), button);
      item = gtk_widget_get_parent (button);
      gtk_widget_set_focusable (item, FALSE);
    }
  gtk_widget_set_visible (self->samples_heading, n > 0);
}

void
ws_welcome_page_set_samples (WsWelcomePage *self, GListModel *samples)
{
  g_return_if_fail (WS_IS_WELCOME_PAGE (self));
  if (self->samples != NULL)
    g_signal_handlers_disconnect_by_data (self->samples, self);
  g_set_object (&self->samples, samples);
  if (samples != NULL)
    g_signal_connect_swapped (samples, "items-changed", G_CALLBACK (fill), self);
  fill (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAMPLES]);
}

static void
ws_welcome_page_set_property (GObject *object, guint prop, const GValue *value,
                              GParamSpec *pspec)
{
  WsWelcomePage *self = WS_WELCOME_PAGE (object);

  switch (prop)
    {
    case PROP_ENVIRONMENT: ws_welcome_page_set_environment (self, g_value_get_object (value)); break;
    case PROP_SAMPLES: ws_welcome_page_set_samples (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_welcome_page_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsWelcomePage *self = WS_WELCOME_PAGE (object);

  switch (prop)
    {
    case PROP_ENVIRONMENT: g_value_set_object (value, self->environment); break;
    case PROP_SAMPLES: g_value_set_object (value, self->samples); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_welcome_page_dispose (GObject *object)
{
  WsWelcomePage *self = WS_WELCOME_PAGE (object);

  ws_welcome_page_set_environment (self, NULL);
  ws_welcome_page_set_samples (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WELCOME_PAGE);
  G_OBJECT_CLASS (ws_welcome_page_parent_class)->dispose (object);
}

static void
ws_welcome_page_class_init (WsWelcomePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_welcome_page_set_property;
  object_class->get_property = ws_welcome_page_get_property;
  object_class->dispose = ws_welcome_page_dispose;
  properties[PROP_ENVIRONMENT] = g_param_spec_object ("environment", NULL, NULL,
                                                      WS_TYPE_ENVIRONMENT, rw);
  properties[PROP_SAMPLES] = g_param_spec_object ("samples", NULL, NULL, G_TYPE_LIST_MODEL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-welcome-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWelcomePage, status_page);
  gtk_widget_class_bind_template_child (widget_class, WsWelcomePage, samples_heading);
  gtk_widget_class_bind_template_child (widget_class, WsWelcomePage, traced_button);
  gtk_widget_class_bind_template_child (widget_class, WsWelcomePage, samples_box);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_welcome_page_init (WsWelcomePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
