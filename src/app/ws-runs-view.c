/* ws-runs-view.c: the runs table, a GtkColumnView over the session's runs. Rows update as a
 * live run's records arrive; every column sorts. A person's selection becomes the
 * workspace's, and the workspace's shows as selected rows.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runs-view-private.h"

#include <math.h>

#include <glib/gi18n.h>

#include "ws-analysis.h"
#include "ws-format.h"
#include "ws-run-columns.h"
#include "ws-units.h"

struct _WsRunsView
{
  WsView parent_instance;
  GtkWidget *scroller;
  GtkColumnView *columns;
  GtkMultiSelection *selection;
  GtkSortListModel *sorted;
  GtkSliceListModel *shown; /* the sorted runs, all of them once the first rows are laid out */
  guint grow_tick;          /* the tick callback that shows them all */
  gboolean syncing; /* the rows follow the workspace: not a person's choice */
  GHashTable *findings_shown; /* GtkListItem of the findings column now bound (borrowed) */
  GtkSorter *findings_sorter;
  WsRunsWidths widths;
};

G_DEFINE_FINAL_TYPE (WsRunsView, ws_runs_view, WS_TYPE_VIEW)


/* Each column of the table is one of ws-run-columns.h, which gives its title and, where the
 * cell says no more than the value, its text. */
static const char *const column_keys[N_COLUMNS] = {
  "run", "gpu", "kernel", "shape", "block", "transfer", "kernel_ns_median", "e2e_ns_median",
  "speedup_kernel_vs_1", "speedup_kernel_vs_all", "occupancy", "verified", "findings",
};

static const WsRunColumn *
schema_column (Column column)
{
  const WsRunColumn *c = ws_run_column_find (column_keys[column]);

  g_assert (c != NULL && c->title != NULL);
  return c;
}

static char *
with_spread (const WsStats *s)
{
  g_autofree char *median = NULL, *min = NULL, *max = NULL, *spread = NULL;

  if (s->n == 0)
    return g_strdup (WS_UNITS_NONE);
  median = ws_units_duration (s->median);
  if (s->n == 1 || s->max <= s->min)
    return g_steal_pointer (&median);
  /* The spread as a percentage keeps the column narrow; the tooltip has the range. */
  spread = ws_units_percent (0.5 * (s->max - s->min) / s->median);
  return g_strdup_printf ("%s ±%s", median, spread);
}

GPtrArray *
_ws_runs_view_get_findings (WsRunsView *self, WsRun *run)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));

  return workspace ? ws_workspace_get_findings (workspace, run) : NULL;
}

char *
_ws_runs_view_cell_text (WsRunsView *self, WsRun *run, Column column, const char **css)
{
  const WsTiming *t = ws_run_get_timing (run);
  const WsLaunch *l = ws_run_get_launch (run);
  const WsVerify *v = ws_run_get_verify (run);

  *css = NULL;
  switch (column)
    {
    case COL_KERNEL:
      /* An own kernel's runs differ by their parameters: "matmul_tiled TILE=16". */
      return ws_run_dup_kernel_label (run);
    case COL_ID:
    case COL_DEVICE:
    case COL_SIZE:
    case COL_BLOCK:
    case COL_MEMORY:
      return ws_run_column_dup_text (schema_column (column), run, NULL);
    case COL_KERNEL_TIME:
      if (t && t->kernel.n > 0)
        return with_spread (&t->kernel);
      return t ? ws_units_duration (t->kernel_untraced_ns) : g_strdup ("…");
    case COL_E2E:
      return t != NULL ? with_spread (&t->e2e) : g_strdup ("…");
    case COL_SPEEDUP_ONE:
    case COL_SPEEDUP_ALL:
      {
        gboolean all = column == COL_SPEEDUP_ALL;
        double k = ws_run_get_speedup (run, all, FALSE), e = ws_run_get_speedup (run, all, TRUE);
        g_autofree char *ks = NULL, *es = NULL;

        if (!(k > 0))
          return g_strdup (WS_UNITS_NONE);
        ks = ws_units_ratio (k);
        es = ws_units_ratio (e);
        *css = e > 0 && e < 1 ? "warning" : NULL;
        return g_strdup_printf ("%s / %s", ks, es);
      }
    case COL_OCCUPANCY:
      if (l == NULL)
        return g_strdup ("…");
      *css = l->occupancy < 0.5 ? "error" : l->occupancy < 1.0 ? "warning" : NULL;
      return ws_run_column_dup_text (schema_column (column), run, NULL);
    case COL_VERIFIED:
      switch (ws_run_get_state (run))
        {
        case WS_RUN_STATE_RUNNING: return g_strdup (_("running…"));
        case WS_RUN_STATE_REFUSED: *css = "error"; return g_strdup (_("not run"));
        case WS_RUN_STATE_INCOMPLETE: *css = "warning"; return g_strdup (_("incomplete"));
        default: break;
        }
      if (v == NULL)
        return g_strdup (WS_UNITS_NONE);
      *css = v->pass ? "success" : "error";
      return g_strdup (v->pass ? _("✓ pass") : _("✗ FAIL"));
    case COL_FINDINGS:
      {
        GPtrArray *f = ws_run_get_state (run) == WS_RUN_STATE_RUNNING
                         ? NULL
                         : _ws_runs_view_get_findings (self, run);
        guint counts[4] = { 0 };
        GString *s = g_string_new (NULL);

        for (guint i = 0; f != NULL && i < f->len; i++)
          counts[((WsFinding *) g_ptr_array_index (f, i))->severity]++;
        if (counts[WS_SEVERITY_HIGH])
          g_string_append_printf (s, "● %u ", counts[WS_SEVERITY_HIGH]);
        if (counts[WS_SEVERITY_MEDIUM])
          g_string_append_printf (s, "▲ %u ", counts[WS_SEVERITY_MEDIUM]);
        if (counts[WS_SEVERITY_LOW])
          g_string_append_printf (s, "◆ %u", counts[WS_SEVERITY_LOW]);
        *css = counts[WS_SEVERITY_HIGH] ? "error" : counts[WS_SEVERITY_MEDIUM] ? "warning" : NULL;
        return g_string_free (s, FALSE);
      }
    default:
      return g_strdup ("");
    }
}

static void
update_label (GtkListItem *item, WsRunsView *self)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  WsRun *run = gtk_list_item_get_item (item);
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "column"));
  g_autofree char *text = NULL;
  const char *css = NULL;

  if (run == NULL)
    return;
  text = _ws_runs_view_cell_text (self, run, column, &css);
  gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
  gtk_widget_remove_css_class (label, "error");
  gtk_widget_remove_css_class (label, "warning");
  gtk_widget_remove_css_class (label, "success");
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer column)
{
  Column c = GPOINTER_TO_INT (column);
  float xalign = c >= COL_KERNEL_TIME && c <= COL_OCCUPANCY ? 1.0 : 0.0;
  GtkWidget *label;

  /* The columns have fixed widths (fix_column_widths), and a cell's text is an inscription,
   * whose size does not follow its text: a new text is drawn again, where a label's would have
   * the column view measure and allocate that column's cell of every bound row again, most of
   * a frame while the list scrolls. */
  label = gtk_inscription_new (NULL);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (label), xalign);
  gtk_widget_add_css_class (label, "numeric");
  g_object_set_data (G_OBJECT (label), "column", column);
  /* The tooltip is built when GTK asks for it, under the pointer: a tooltip set on a visible
   * cell as its row is bound would ask the display where the pointer is (GTK 4.8), a round
   * trip to the X server for each cell of each row scrolled into view. */
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (_ws_runs_view_query_tooltip_cb), NULL);
  gtk_list_item_set_child (item, label);
}

static void
state_notify_cb (WsRun *run, GParamSpec *pspec, GtkListItem *item)
{
  update_label (item, g_object_get_data (G_OBJECT (item), "view"));
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, WsRunsView *self)
{
  WsRun *run = gtk_list_item_get_item (item);

  g_object_set_data (G_OBJECT (item), "view", self);
  /* The run the cell's tooltip is about; the item holds it until unbind_cb. */
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "run", run);
  _ws_runs_widths_bound (&self->widths, gtk_list_item_get_child (item));
  if (self->findings_shown != NULL
      && GPOINTER_TO_INT (g_object_get_data (G_OBJECT (gtk_list_item_get_child (item)), "column"))
           == COL_FINDINGS)
    g_hash_table_add (self->findings_shown, item);
  update_label (item, self);
  g_signal_connect_object (run, "notify::state", G_CALLBACK (state_notify_cb), item, 0);
}

static void
unbind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, WsRunsView *self)
{
  WsRun *run = gtk_list_item_get_item (item);

  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "run", NULL);
  if (self->findings_shown != NULL)
    g_hash_table_remove (self->findings_shown, item);
  if (run != NULL)
    g_signal_handlers_disconnect_by_func (run, state_notify_cb, item);
}

/* Sorting: numbers by value, text alphabetically. */
static double
sort_key (WsRunsView *self, WsRun *run, Column column)
{
  const WsTiming *t = ws_run_get_timing (run);
  const WsLaunch *l = ws_run_get_launch (run);
  const WsRunConfig *c = ws_run_get_config (run);

  switch (column)
    {
    case COL_ID: return c->id;
    case COL_DEVICE: return c->device + c->id / 1e9;
    case COL_SIZE: return c->size;
    case COL_BLOCK: return c->threads_per_block + c->block[0] / 2048.0;
    case COL_KERNEL_TIME: return ws_run_get_kernel_ns (run);
    case COL_E2E: return t ? t->e2e.median : 0;
    case COL_SPEEDUP_ONE: return ws_run_get_speedup (run, FALSE, FALSE);
    case COL_SPEEDUP_ALL: return ws_run_get_speedup (run, TRUE, FALSE);
    case COL_OCCUPANCY: return l ? l->occupancy : 0;
    case COL_VERIFIED: return ws_run_get_verify (run) ? ws_run_get_verify (run)->pass : -1;
    case COL_FINDINGS:
      {
        GPtrArray *f = _ws_runs_view_get_findings (self, run);
        double score = 0;

        for (guint i = 0; f != NULL && i < f->len; i++)
          score += 1 << (2 * ((WsFinding *) g_ptr_array_index (f, i))->severity);
        return score;
      }
    default: return 0;
    }
}

static int
compare_cb (gconstpointer a, gconstpointer b, gpointer data)
{
  WsRun *x = (WsRun *) a, *y = (WsRun *) b;
  WsRunsView *self = g_object_get_data (G_OBJECT (data), "view");
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (data), "column"));

  if (column == COL_KERNEL || column == COL_MEMORY)
    {
      const WsRunConfig *cx = ws_run_get_config (x), *cy = ws_run_get_config (y);
      int r = g_strcmp0 (column == COL_KERNEL ? cx->kernel : cx->transfer,
                         column == COL_KERNEL ? cy->kernel : cy->transfer);

      return r != 0 ? r : cx->id - cy->id;
    }
  {
    double kx = sort_key (self, x, column), ky = sort_key (self, y, column);

    return kx < ky ? GTK_ORDERING_SMALLER : kx > ky ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
  }
}

static void
selection_changed_cb (GtkSelectionModel *model, guint position, guint n, WsRunsView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  int first, second;

  if (self->syncing || workspace == NULL)
    return;
  ws_runs_view_get_selection (self, &first, &second);
  ws_workspace_select_runs (workspace, first, second);
}

void
ws_runs_view_get_selection (WsRunsView *self, int *first, int *second)
{
  g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  GtkBitsetIter iter;
  guint position;
  int found = 0;

  *first = *second = 0;
  if (!gtk_bitset_iter_init_first (&iter, set, &position))
    return;
  do
    {
      g_autoptr (WsRun) run = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

      if (found == 0)
        *first = ws_run_get_id (run);
      else
        *second = ws_run_get_id (run);
      found++;
    }
  while (found < 2 && gtk_bitset_iter_next (&iter, &position));
}

static void show_all_rows (WsRunsView *self);

static void
select_run (WsRunsView *self, int id, gboolean unselect_rest)
{
  guint n;

  show_all_rows (self);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (G_LIST_MODEL (self->selection), i);

      if (ws_run_get_id (run) == id)
        {
          gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), i,
                                           unselect_rest);
          return;
        }
    }
}

void
ws_runs_view_select_run (WsRunsView *self, int id)
{
  g_return_if_fail (WS_IS_RUNS_VIEW (self));
  select_run (self, id, TRUE);
}

void
ws_runs_view_add_to_selection (WsRunsView *self, int id)
{
  g_return_if_fail (WS_IS_RUNS_VIEW (self));
  select_run (self, id, FALSE);
}

/* A row chosen elsewhere (the timeline, a clicker) is scrolled into view. GTK 4.8 has no
 * gtk_column_view_scroll_to, but the rows are of one height: the adjustment's range over them
 * places one (the header scrolls with them). */
static void
scroll_to_row (WsRunsView *self, guint row)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  double upper = gtk_adjustment_get_upper (adj), page = gtk_adjustment_get_page_size (adj);
  double value = gtk_adjustment_get_value (adj), h, top;

  if (n == 0 || upper <= page)
    return;
  h = upper / (n + 1);
  top = (row + 1) * h;
  if (top < value + h || top + h > value + page)
    gtk_adjustment_set_value (adj, CLAMP (top - (page - h) / 2, 0, upper - page));
}

/* The workspace's runs as selected rows, when they are not already. */
static void
show_selection (WsRunsView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  int want[2] = { ws_workspace_get_run (workspace), ws_workspace_get_compare_run (workspace) };
  int first, second;
  g_autoptr (GtkBitset) rows = gtk_bitset_new_empty ();
  g_autoptr (GtkBitset) all = NULL;
  guint n;

  ws_runs_view_get_selection (self, &first, &second);
  if ((first == want[0] && second == want[1]) || (first == want[1] && second == want[0]))
    return;
  show_all_rows (self);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  for (guint i = 0; i < n && (want[0] || want[1]); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (G_LIST_MODEL (self->selection), i);
      int id = ws_run_get_id (run);

      if (id != 0 && (id == want[0] || id == want[1]))
        gtk_bitset_add (rows, i);
    }
  all = gtk_bitset_new_range (0, n);
  self->syncing = TRUE;
  gtk_selection_model_set_selection (GTK_SELECTION_MODEL (self->selection), rows, all);
  self->syncing = FALSE;
  if (!gtk_bitset_is_empty (rows))
    scroll_to_row (self, gtk_bitset_get_minimum (rows));
}

/* The GPU that ran each run, when a sweep was split across several. */
static void
show_device_column (WsRunsView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = workspace ? ws_workspace_get_session (workspace) : NULL;
  g_autoptr (GtkColumnViewColumn) column
    = g_list_model_get_item (gtk_column_view_get_columns (self->columns), COL_DEVICE);

  gtk_column_view_column_set_visible (column, session != NULL
                                                && g_list_model_get_n_items (
                                                     ws_session_get_devices (session)) > 1);
}

/* Every run a row. */
static void
show_all_rows (WsRunsView *self)
{
  if (self->grow_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->columns), self->grow_tick);
  self->grow_tick = 0;
  if (gtk_slice_list_model_get_size (self->shown) == G_MAXUINT)
    return;
  self->syncing = TRUE;
  gtk_slice_list_model_set_size (self->shown, G_MAXUINT);
  self->syncing = FALSE;
}

/* GTK 4.8's list views keep 200 rows bound around the one in view, however few show. Making
 * and binding a row's 13 cells is 2 – 3 ms of a shared core: 8 a frame keep each frame short. */
#define BOUND_ROWS 200
#define ROWS_A_FRAME 8

static gboolean
grow_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  WsRunsView *self = data;
  guint size = gtk_slice_list_model_get_size (self->shown);

  if (size >= BOUND_ROWS)
    {
      self->grow_tick = 0;
      show_all_rows (self);
      return G_SOURCE_REMOVE;
    }
  self->syncing = TRUE;
  gtk_slice_list_model_set_size (self->shown, size + ROWS_A_FRAME);
  self->syncing = FALSE;
  return G_SOURCE_CONTINUE;
}

/* A list view given thousands of rows binds 200 of them, 13 cells each, in one go, and lays
 * them all out in the next frame: a third of a second on two cores. So a session's runs come
 * in a few rows a frame until the view has all it binds, then the rest at once, which binds
 * nothing more. Tick callbacks run only while the view is shown. */
static void
show_session (WsRunsView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = ws_workspace_get_session (workspace);

  show_device_column (self);
  _ws_runs_widths_new_session (&self->widths);

  self->syncing = TRUE;
  gtk_slice_list_model_set_size (self->shown, ROWS_A_FRAME);
  gtk_sort_list_model_set_model (self->sorted, session ? ws_session_get_runs (session) : NULL);
  self->syncing = FALSE;
  if (self->grow_tick == 0)
    {
      self->grow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->columns), grow_cb, self,
                                                      NULL);
    }
}

static void
run_updated_cb (WsWorkspace *workspace, WsRun *run, WsRunsView *self)
{
  /* A new result can change other runs' findings too. */
  gtk_widget_queue_draw (GTK_WIDGET (self->columns));
  show_device_column (self);
  _ws_runs_widths_fit_run (&self->widths, run);
}

/* The findings column was empty while a thread analysed the session: the cells shown say them
 * now, and a sort by findings sorts again. */
static void
analysis_ready_cb (WsRunsView *self)
{
  GHashTableIter iter;
  gpointer item;

  g_hash_table_iter_init (&iter, self->findings_shown);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    update_label (item, self);
  gtk_sorter_changed (self->findings_sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

static void
ws_runs_view_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsRunsView *self = WS_RUNS_VIEW (view);

  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (show_session), self);
      g_signal_connect_swapped (workspace, "notify::run", G_CALLBACK (show_selection), self);
      g_signal_connect_swapped (workspace, "notify::compare-run", G_CALLBACK (show_selection), self);
      g_signal_connect (workspace, "run-updated", G_CALLBACK (run_updated_cb), self);
      g_signal_connect_swapped (workspace, "analysis-ready", G_CALLBACK (analysis_ready_cb),
                                self);
      show_session (self);
      show_selection (self);
    }
  else
    gtk_sort_list_model_set_model (self->sorted, NULL);
}

static void
ws_runs_view_dispose (GObject *object)
{
  WsRunsView *self = WS_RUNS_VIEW (object);

  _ws_runs_widths_clear (&self->widths);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_pointer (&self->findings_shown, g_hash_table_unref);
  G_OBJECT_CLASS (ws_runs_view_parent_class)->dispose (object);
}

static void
ws_runs_view_class_init (WsRunsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_runs_view_dispose;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_runs_view_workspace_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_runs_view_init (WsRunsView *self)
{
  GtkSorter *sorter;

  self->findings_shown = g_hash_table_new (NULL, NULL);
  self->columns = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->columns, TRUE);
  gtk_column_view_set_reorderable (self->columns, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->columns), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Runs"), -1);
  for (int c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      GtkCustomSorter *custom;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);
      column = gtk_column_view_column_new (_(schema_column ((Column) c)->title), factory);
      custom = gtk_custom_sorter_new (compare_cb, NULL, NULL);
      g_object_set_data (G_OBJECT (custom), "view", self);
      g_object_set_data (G_OBJECT (custom), "column", GINT_TO_POINTER (c));
      /* The sorter's own pointer reaches compare_cb through this. */
      gtk_custom_sorter_set_sort_func (custom, compare_cb, custom, NULL);
      gtk_column_view_column_set_sorter (column, GTK_SORTER (custom));
      if (c == COL_FINDINGS)
        self->findings_sorter = GTK_SORTER (custom);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (c == COL_KERNEL)
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (self->columns, column);
      g_object_unref (custom);
      g_object_unref (column);
    }
  _ws_runs_view_set_header_tooltips (self->columns);
  show_device_column (self);
  _ws_runs_widths_init (&self->widths, self, self->columns);
  sorter = gtk_column_view_get_sorter (self->columns);
  self->sorted = gtk_sort_list_model_new (NULL, g_object_ref (sorter));
  self->shown = gtk_slice_list_model_new (G_LIST_MODEL (self->sorted), 0, G_MAXUINT);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (self->shown));
  gtk_column_view_set_model (self->columns, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->columns));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  {
    g_autoptr (GtkColumnViewColumn) first
      = g_list_model_get_item (gtk_column_view_get_columns (self->columns), COL_ID);

    gtk_column_view_sort_by_column (self->columns, first, GTK_SORT_ASCENDING);
  }
}

gboolean
ws_runs_view_shows_devices (WsRunsView *self)
{
  g_autoptr (GtkColumnViewColumn) column = NULL;

  g_return_val_if_fail (WS_IS_RUNS_VIEW (self), FALSE);
  column = g_list_model_get_item (gtk_column_view_get_columns (self->columns), COL_DEVICE);
  return gtk_column_view_column_get_visible (column);
}

WsSession *
_ws_runs_view_get_session (WsRunsView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));

  return workspace ? ws_workspace_get_session (workspace) : NULL;
}

GtkAdjustment *
ws_runs_view_get_vadjustment (WsRunsView *self)
{
  g_return_val_if_fail (WS_IS_RUNS_VIEW (self), NULL);
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
}

GtkWidget *
ws_runs_view_new (void)
{
  return g_object_new (WS_TYPE_RUNS_VIEW, NULL);
}
