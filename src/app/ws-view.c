/* ws-view.c: the views' base: the "workspace" property, its handlers let go when it is
 * replaced and when the view is disposed, and the hook a view follows it from.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-view.h"

typedef struct
{
  WsWorkspace *workspace;
} WsViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (WsView, ws_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_WORKSPACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Every handler a view has on its workspace has the view as its data: one call lets go of
 * them all, whichever view it is. */
static void
let_go (WsView *self, WsViewPrivate *priv)
{
  if (priv->workspace != NULL)
    g_signal_handlers_disconnect_by_data (priv->workspace, self);
  g_clear_object (&priv->workspace);
}

WsWorkspace *
ws_view_get_workspace (WsView *self)
{
  g_return_val_if_fail (WS_IS_VIEW (self), NULL);
  return ((WsViewPrivate *) ws_view_get_instance_private (self))->workspace;
}

void
ws_view_set_workspace (WsView *self, WsWorkspace *workspace)
{
  WsViewPrivate *priv;

  g_return_if_fail (WS_IS_VIEW (self));
  g_return_if_fail (workspace == NULL || WS_IS_WORKSPACE (workspace));
  priv = ws_view_get_instance_private (self);
  if (priv->workspace == workspace)
    return;
  let_go (self, priv);
  priv->workspace = workspace ? g_object_ref (workspace) : NULL;
  if (WS_VIEW_GET_CLASS (self)->workspace_changed != NULL)
    WS_VIEW_GET_CLASS (self)->workspace_changed (self, workspace);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WORKSPACE]);
}

static void
ws_view_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_WORKSPACE: ws_view_set_workspace (WS_VIEW (object), g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_view_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  switch (prop)
    {
    case PROP_WORKSPACE: g_value_set_object (value, ws_view_get_workspace (WS_VIEW (object))); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_view_dispose (GObject *object)
{
  WsView *self = WS_VIEW (object);

  let_go (self, ws_view_get_instance_private (self));
  G_OBJECT_CLASS (ws_view_parent_class)->dispose (object);
}

static void
ws_view_class_init (WsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = ws_view_set_property;
  object_class->get_property = ws_view_get_property;
  object_class->dispose = ws_view_dispose;
  properties[PROP_WORKSPACE] = g_param_spec_object ("workspace", NULL, NULL, WS_TYPE_WORKSPACE,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                      | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_view_init (WsView *self)
{
}
