/* ws-window-private.h: the window's insides, shared by the files that hold its jobs: the
 * files (ws-window-files.c), running (ws-window-run.c) and what is shown where
 * (ws-window-layout.c). Each installs its own actions from the window's class_init.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-chart-actions.h"
#include "ws-environment.h"
#include "ws-plan.h"
#include "ws-run-controller.h"
#include "ws-status-bar.h"
#include "ws-timeline-view.h"
#include "ws-welcome-page.h"
#include "ws-window.h"

G_BEGIN_DECLS

struct _WsWindow
{
  AdwApplicationWindow parent_instance;

  /* template */
  AdwToastOverlay *toasts;
  AdwViewSwitcherTitle *switcher_title;
  AdwViewSwitcherBar *switcher_bar;
  AdwFlap *config_flap, *findings_flap;
  GtkStack *main_stack;
  WsWelcomePage *welcome;
  AdwViewStack *views;
  WsTimelineView *timeline;
  WsStatusBar *status_bar;
  GMenu *samples_menu;
  GMenu *recent_menu;
  WsWorkspace *workspace;
  WsEnvironment *environment;
  WsPlan *plan;
  WsRunController *controller;
  WsChartActions *chart_actions;

  GSettings *settings;
  GListModel *samples;
  char *last_toast;
  GtkFileChooserNative *chooser;
  guint switcher_idle;
  WsSession *landed; /* weak: the traced session whose first view was chosen */
};

/* An action of the window, with its key when it has one. */
typedef struct
{
  const char *name, *type;
  GtkWidgetActionActivateFunc activate;
  guint key;
  GdkModifierType modifiers;
} WsWindowAction;

void _ws_window_install_actions (GtkWidgetClass *widget_class, const WsWindowAction *actions,
                                 guint n_actions);

/* A child of the template by its id. */
GtkWidget *_ws_window_child (WsWindow *self, const char *id);
/* Which actions are enabled, after what they depend on changed. */
void _ws_window_update_actions (WsWindow *self);

/* ws-window-files.c: Open, Replay, the recordings, Save, Save As; a file dropped. */
void _ws_window_files_install (GtkWidgetClass *widget_class);
void _ws_window_files_init (WsWindow *self);
/* The session saved to `file`, or the reason in a toast (Save As, and the control). */
void _ws_window_save_to (WsWindow *self, GFile *file);

/* ws-window-run.c: Run, Sweep, Stop, Trace a Program, the environment. */
void _ws_window_run_install (GtkWidgetClass *widget_class);

/* ws-window-layout.c: the panes docked by size, the views' switcher, presentation mode. */
void _ws_window_layout_install (GtkWidgetClass *widget_class);
void _ws_window_layout_init (WsWindow *self);
/* Before the children are allocated `width` × `height`. */
void _ws_window_dock_panes (WsWindow *self, int width, int height);
void _ws_window_update_switcher (WsWindow *self);
void _ws_window_update_presentation (WsWindow *self);

/* ws-window-control.c: with WARPSCOPE_CONTROL set, commands read from a FIFO (tests of the app
 * on a GPU machine, where no accessibility bus drives it). */
void _ws_window_control_init (WsWindow *self);

G_END_DECLS
