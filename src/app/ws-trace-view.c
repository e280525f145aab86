/* ws-trace-view.c: the traced program's tables, a grid per program run, built from the
 * model's tables (ws_trace_collect_kernels, ws_trace_collect_copies): nothing is summed here.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-trace-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-label.h"
#include "ws-units.h"
#include "ws-trace-command.h"

struct _WsTraceView
{
  WsView parent_instance;

  GtkWidget *scroller;
  GtkWidget *box;
  WsWorkspace *workspace; /* WsView's, not held: set in workspace_changed */
  GHashTable *kernel_rows, *copy_rows; /* program id → GString of its rows, for tests */
};

G_DEFINE_FINAL_TYPE (WsTraceView, ws_trace_view, WS_TYPE_VIEW)

static WsTrace *
trace_of (WsTraceView *self)
{
  WsSession *session = self->workspace ? ws_workspace_get_session (self->workspace) : NULL;

  return session ? ws_session_get_trace (session) : NULL;
}

/* A table: a heading row, then rows of cells; numbers right-aligned. Also kept as text. */
typedef struct
{
  GtkGrid *grid;
  GString *rows;
  int row;
} Table;

static void
table_init (Table *t, const char *const *headings, guint n, GString *rows)
{
  t->grid = GTK_GRID (gtk_grid_new ());
  t->rows = rows;
  t->row = 1;
  gtk_grid_set_column_spacing (t->grid, 12);
  gtk_grid_set_row_spacing (t->grid, 4);
  gtk_widget_add_css_class (GTK_WIDGET (t->grid), "trace-table");
  for (guint c = 0; c < n; c++)
    gtk_grid_attach (t->grid, ws_label_new (_(headings[c]), "heading", c == 0 ? 0 : 1), (int) c,
                     0, 1, 1);
}

/* Takes the cells (NULL-terminated, freed here). */
static void
table_add (Table *t, char **cells)
{
  for (guint c = 0; cells[c] != NULL; c++)
    {
      GtkWidget *l = ws_label_new (cells[c], c == 0 ? NULL : "numeric", c == 0 ? 0 : 1);

      if (c == 0)
        {
          /* Long template names are cut, but never below 20 characters: the table scrolls. */
          gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_END);
          gtk_label_set_width_chars (GTK_LABEL (l), MIN ((int) g_utf8_strlen (cells[c], -1), 20));
          gtk_label_set_max_width_chars (GTK_LABEL (l), 32);
          gtk_widget_set_tooltip_text (l, cells[c]);
        }
      gtk_grid_attach (t->grid, l, (int) c, t->row, 1, 1);
    }
  if (t->rows != NULL)
    {
      g_autofree char *line = g_strjoinv (" | ", cells);

      g_string_append_printf (t->rows, "%s\n", line);
    }
  t->row++;
  g_strfreev (cells);
}

static char *
occupancy_cell (const WsTraceKernel *k)
{
  g_autofree char *pct = NULL;

  if (!k->has_occupancy)
    return g_strdup (WS_UNITS_NONE);
  pct = ws_units_percent (k->occupancy.occupancy);
  if (k->occupancy.occupancy >= 1)
    return g_steal_pointer (&pct);
  /* Translators: an occupancy ("12.5%") and what limits it ("registers"), as the CLI's table. */
  return g_strdup_printf (_("%s, %s"), pct, ws_limiter_name (k->occupancy.limiter));
}

static const char *const kernel_headings[] = {
  N_("Kernel"), N_("Grid"), N_("Block"), N_("Registers"), N_("Count"), N_("Total"),
  N_("Median"), N_("Min"), N_("Max"), N_("Share"), N_("Occupancy"),
};

static GtkWidget *
kernel_table (WsTraceView *self, WsTrace *trace, guint program)
{
  g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (trace, program);
  GString *rows = g_string_new (NULL);
  Table t;

  g_hash_table_replace (self->kernel_rows, GUINT_TO_POINTER (program), rows);
  if (kernels->len == 0)
    return ws_label_new_wrapped (_("No kernels: the program launched none while it was traced."),
                                 "dim-label");
  table_init (&t, kernel_headings, G_N_ELEMENTS (kernel_headings), rows);
  for (guint i = 0; i < kernels->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (kernels, i);
      char **cells = g_new0 (char *, G_N_ELEMENTS (kernel_headings) + 1);

      cells[0] = g_strdup (k->short_name);
      cells[1] = ws_trace_format_dims (k->grid);
      cells[2] = ws_trace_format_dims (k->block);
      cells[3] = g_strdup_printf ("%u", k->registers);
      cells[4] = ws_units_grouped (k->count);
      cells[5] = ws_units_duration (k->total_ns);
      cells[6] = ws_units_duration (k->median_ns);
      cells[7] = ws_units_duration (k->min_ns);
      cells[8] = ws_units_duration (k->max_ns);
      cells[9] = ws_units_percent (k->share);
      cells[10] = occupancy_cell (k);
      table_add (&t, cells);
    }
  return GTK_WIDGET (t.grid);
}

static const char *const copy_headings[] = {
  N_("Direction, host memory"), N_("Count"), N_("Bytes"), N_("Total"), N_("Median"), N_("Min"), N_("Max"),
  N_("GB/s"),
};

static GtkWidget *
copy_table (WsTraceView *self, WsTrace *trace, guint program)
{
  g_autoptr (GPtrArray) copies = ws_trace_collect_copies (trace, program);
  GString *rows = g_string_new (NULL);
  Table t;

  g_hash_table_replace (self->copy_rows, GUINT_TO_POINTER (program), rows);
  if (copies->len == 0)
    return ws_label_new_wrapped (_("No copies or memsets."), "dim-label");
  table_init (&t, copy_headings, G_N_ELEMENTS (copy_headings), rows);
  for (guint i = 0; i < copies->len; i++)
    {
      const WsTraceCopy *c = g_ptr_array_index (copies, i);
      char **cells = g_new0 (char *, G_N_ELEMENTS (copy_headings) + 1);

      cells[0] = ws_trace_describe_copy (c);
      cells[1] = ws_units_grouped (c->count);
      cells[2] = ws_units_bytes ((double) c->bytes);
      cells[3] = ws_units_duration (c->total_ns);
      cells[4] = ws_units_duration (c->median_ns);
      cells[5] = ws_units_duration (c->min_ns);
      cells[6] = ws_units_duration (c->max_ns);
      cells[7] = c->kind == WS_ACTIVITY_MEMCPY ? ws_units_gbs (c->gbs) : g_strdup (WS_UNITS_NONE);
      table_add (&t, cells);
    }
  return GTK_WIDGET (t.grid);
}

/* A program run's heading: its values in a sweep, its command, how it ended. */
static void
add_program (WsTraceView *self, WsTrace *trace, const WsTraceProgram *p, guint n_programs)
{
  g_autofree char *command = ws_trace_describe_command (trace, p);
  g_autofree char *ending = ws_trace_describe_ending (trace, p, NULL);
  g_autofree char *params = ws_trace_describe_params (p);
  g_autofree char *heading = NULL, *line = NULL;

  if (n_programs > 1)
    /* Translators: "Run 2 of 6 · TPB=64" */
    heading = *params ? g_strdup_printf (_("Run %u of %u · %s"), p->id, p->of, params)
                      : g_strdup_printf (_("Run %u of %u"), p->id, p->of);
  else
    heading = g_strdup (_("The traced program"));
  /* Translators: the command line, then how it ended ("exited with status 0 after 2.00 s") */
  line = g_strdup_printf (_("%s — %s"), command, ending ? ending : _("still running"));
  gtk_box_append (GTK_BOX (self->box), ws_label_new (heading, "title-3", 0));
  gtk_box_append (GTK_BOX (self->box), ws_label_new_wrapped (line, "dim-label"));
  for (guint i = 0; p->errors != NULL && i < p->errors->len; i++)
    {
      const WsRunnerError *e = g_ptr_array_index (p->errors, i);

      gtk_box_append (GTK_BOX (self->box), ws_label_new_wrapped (e->message, "error"));
    }
  gtk_box_append (GTK_BOX (self->box), ws_label_new (_("Kernels"), "heading", 0));
  gtk_box_append (GTK_BOX (self->box), kernel_table (self, trace, p->id));
  gtk_box_append (GTK_BOX (self->box), ws_label_new (_("Copies"), "heading", 0));
  gtk_box_append (GTK_BOX (self->box), copy_table (self, trace, p->id));
}

/* The page of the view stack this view is on, shown only for a trace. */
static void
update_page (WsTraceView *self, gboolean has_trace)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_VIEW_STACK);
  AdwViewStackPage *page;

  if (stack == NULL)
    return;
  page = adw_view_stack_get_page (ADW_VIEW_STACK (stack), GTK_WIDGET (self));
  if (page != NULL)
    adw_view_stack_page_set_visible (page, has_trace);
}

void
ws_trace_view_refresh (WsTraceView *self)
{
  WsTrace *trace;
  GtkWidget *child;
  GPtrArray *programs;

  g_return_if_fail (WS_IS_TRACE_VIEW (self));
  trace = trace_of (self);
  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_hash_table_remove_all (self->kernel_rows);
  g_hash_table_remove_all (self->copy_rows);
  update_page (self, trace != NULL);
  if (trace == NULL)
    return;
  programs = ws_trace_get_programs (trace);
  for (guint i = 0; i < programs->len; i++)
    add_program (self, trace, g_ptr_array_index (programs, i), programs->len);
  if (programs->len == 0)
    {
      /* The library's own file, without the runner around it: one program, id 0. */
      gtk_box_append (GTK_BOX (self->box), ws_label_new (_("Kernels"), "heading", 0));
      gtk_box_append (GTK_BOX (self->box), kernel_table (self, trace, WS_TRACE_ALL_PROGRAMS));
      gtk_box_append (GTK_BOX (self->box), ws_label_new (_("Copies"), "heading", 0));
      gtk_box_append (GTK_BOX (self->box), copy_table (self, trace, WS_TRACE_ALL_PROGRAMS));
    }
}

static void
session_cb (WsTraceView *self)
{
  ws_trace_view_refresh (self);
}

static char *
dup_rows (GHashTable *table, guint program)
{
  GString *rows = g_hash_table_lookup (table, GUINT_TO_POINTER (program));

  if (rows == NULL && program == 0)
    {
      GHashTableIter iter;
      gpointer key, value;
      guint best = G_MAXUINT;

      g_hash_table_iter_init (&iter, table);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (GPOINTER_TO_UINT (key) < best)
          best = GPOINTER_TO_UINT (key), rows = value;
    }
  return g_strdup (rows != NULL ? rows->str : "");
}

char *
ws_trace_view_dup_kernel_rows (WsTraceView *self, guint program)
{
  g_return_val_if_fail (WS_IS_TRACE_VIEW (self), NULL);
  return dup_rows (self->kernel_rows, program);
}

char *
ws_trace_view_dup_copy_rows (WsTraceView *self, guint program)
{
  g_return_val_if_fail (WS_IS_TRACE_VIEW (self), NULL);
  return dup_rows (self->copy_rows, program);
}

/* ---- boilerplate ------------------------------------------------------------------------ */

static void
ws_trace_view_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsTraceView *self = WS_TRACE_VIEW (view);

  self->workspace = workspace;
  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (session_cb), self);
      g_signal_connect_swapped (workspace, "session-updated", G_CALLBACK (ws_trace_view_refresh),
                                self);
    }
  session_cb (self);
}

static void
ws_trace_view_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_trace_view_parent_class)->root (widget);
  /* In the stack now: its page follows whether there is a trace. */
  update_page (WS_TRACE_VIEW (widget), trace_of (WS_TRACE_VIEW (widget)) != NULL);
}

static void
ws_trace_view_dispose (GObject *object)
{
  WsTraceView *self = WS_TRACE_VIEW (object);

  self->workspace = NULL;
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_trace_view_parent_class)->dispose (object);
}

static void
ws_trace_view_finalize (GObject *object)
{
  WsTraceView *self = WS_TRACE_VIEW (object);

  g_hash_table_unref (self->kernel_rows);
  g_hash_table_unref (self->copy_rows);
  G_OBJECT_CLASS (ws_trace_view_parent_class)->finalize (object);
}

static void
ws_trace_view_class_init (WsTraceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_trace_view_dispose;
  object_class->finalize = ws_trace_view_finalize;
  widget_class->root = ws_trace_view_root;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_trace_view_workspace_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "traceview");
}

static void
string_free (gpointer s)
{
  g_string_free (s, TRUE);
}

static void
ws_trace_view_init (WsTraceView *self)
{
  self->kernel_rows = g_hash_table_new_full (NULL, NULL, NULL, string_free);
  self->copy_rows = g_hash_table_new_full (NULL, NULL, NULL, string_free);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start (self->box, 18);
  gtk_widget_set_margin_end (self->box, 18);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 18);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->box);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Kernels and copies of the traced program"), -1);
}

GtkWidget *
ws_trace_view_new (void)
{
  return g_object_new (WS_TYPE_TRACE_VIEW, NULL);
}
