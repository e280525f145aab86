/* ws-runs-view-widths.c: the runs table's column widths, fixed once: the numbers' from the
 * widest text each can hold, the names' and words' from the session's own, every title's
 * whole. With them the column view need not measure every row it binds (ws-column-widths.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-runs-view-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-column-widths.h"
#include "ws-units.h"

/* The widest texts a column of numbers holds, as _ws_runs_view_cell_text writes them. */
static GPtrArray *
widest_texts (Column column)
{
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  switch (column)
    {
    case COL_ID:
      g_ptr_array_add (texts, g_strdup ("99999"));
      break;
    case COL_KERNEL_TIME:
    case COL_E2E:
      /* Three digits in the widest unit, and a spread of three. */
      for (double ns = 999; ns < 1e10; ns *= 1000)
        {
          g_autofree char *d = ws_units_duration (ns), *spread = ws_units_percent (9.99);

          g_ptr_array_add (texts, g_strdup_printf ("%s ±%s", d, spread));
        }
      break;
    case COL_SPEEDUP_ONE:
    case COL_SPEEDUP_ALL:
      {
        /* Up to four digits a side: "9999×", "0.099×". */
        g_autofree char *fast = ws_units_ratio (9999), *slow = ws_units_ratio (0.099);
        g_autofree char *faster = ws_units_ratio (999);

        g_ptr_array_add (texts, g_strdup_printf ("%s / %s", fast, faster));
        g_ptr_array_add (texts, g_strdup_printf ("%s / %s", slow, slow));
        break;
      }
    case COL_OCCUPANCY:
      g_ptr_array_add (texts, ws_units_percent (0.999));
      break;
    case COL_VERIFIED:
      g_ptr_array_add (texts, g_strdup (_("running…")));
      g_ptr_array_add (texts, g_strdup (_("not run")));
      g_ptr_array_add (texts, g_strdup (_("incomplete")));
      g_ptr_array_add (texts, g_strdup (_("✓ pass")));
      g_ptr_array_add (texts, g_strdup (_("✗ FAIL")));
      break;
    case COL_FINDINGS:
      g_ptr_array_add (texts, g_strdup ("● 9 ▲ 9 ◆ 9"));
      break;
    default:
      /* A name, a size, a block, a kind of memory, a GPU: the session's own
       * (fit_text_columns). */
      break;
    }
  return texts;
}

/* GTK 4.8 counts a hidden column's fixed width when it shares out the view's width among the
 * others (gtk_column_view_measure_across): a hidden column has none. */
static void
apply_width (GtkColumnViewColumn *column, int width)
{
  gtk_column_view_column_set_fixed_width (column,
                                          gtk_column_view_column_get_visible (column) ? width
                                                                                    : -1);
}

static void
visible_cb (GtkColumnViewColumn *column, GParamSpec *pspec, WsRunsWidths *w)
{
  for (guint i = 0; i < N_COLUMNS; i++)
    {
      g_autoptr (GtkColumnViewColumn) c
        = g_list_model_get_item (gtk_column_view_get_columns (w->columns), i);

      if (c == column)
        apply_width (column, w->widths[i]);
    }
}

static void
set_width (WsRunsWidths *w, Column c, int width)
{
  g_autoptr (GtkColumnViewColumn) column
    = g_list_model_get_item (gtk_column_view_get_columns (w->columns), c);

  w->widths[c] = width;
  apply_width (column, width);
}

/* The columns of names and words: as wide as their title or the widest text of the session's
 * runs (a session repeats a few texts many times: each is measured once). */
static const Column text_columns[] = { COL_DEVICE, COL_KERNEL, COL_SIZE, COL_BLOCK, COL_MEMORY };
G_STATIC_ASSERT (G_N_ELEMENTS (text_columns) == WS_RUNS_TEXT_COLUMNS);

/* What a text column's cell says depends on these of the run's configuration alone: runs
 * alike in them are measured once, without writing their text. */
typedef struct
{
  const char *words[2];
  guint64 numbers[4];
} TextKey;

static void
text_key (TextKey *key, const WsRunConfig *c, Column column)
{
  memset (key, 0, sizeof *key);
  switch (column)
    {
    case COL_DEVICE:
      key->numbers[0] = (guint64) c->device;
      key->words[0] = c->device_uuid;
      break;
    case COL_KERNEL:
      key->words[0] = c->kernel;
      key->words[1] = c->params;
      break;
    case COL_SIZE:
      memcpy (key->numbers, c->shape, sizeof c->shape);
      key->numbers[3] = (guint64) c->shape_rank;
      break;
    case COL_BLOCK:
      for (int i = 0; i < 3; i++)
        key->numbers[i] = c->block[i];
      key->numbers[3] = (guint64) c->library;
      break;
    case COL_MEMORY:
    default:
      key->words[0] = c->transfer;
      break;
    }
}

static guint
text_key_hash (gconstpointer p)
{
  const TextKey *k = p;
  guint h = 17;

  for (int i = 0; i < 2; i++)
    h = h * 31 + (k->words[i] != NULL ? g_str_hash (k->words[i]) : 0);
  for (int i = 0; i < 4; i++)
    h = h * 31 + g_int64_hash (&k->numbers[i]);
  return h;
}

static gboolean
text_key_equal (gconstpointer a, gconstpointer b)
{
  const TextKey *x = a, *y = b;

  return g_strcmp0 (x->words[0], y->words[0]) == 0 && g_strcmp0 (x->words[1], y->words[1]) == 0
         && memcmp (x->numbers, y->numbers, sizeof x->numbers) == 0;
}

static void
fit_text (WsRunsWidths *w, WsRun *run, guint i)
{
  g_autofree char *text = NULL;
  const char *css;

  text = _ws_runs_view_cell_text (w->view, run, text_columns[i], &css);
  w->text_widths[i] = MAX (w->text_widths[i], ws_column_widths_for_text (w->sample, text));
}

static void
fit_text_columns (WsRunsWidths *w)
{
  WsSession *session = _ws_runs_view_get_session (w->view);
  GListModel *runs = session ? ws_session_get_runs (session) : NULL;
  /* The keys point into the runs' configurations, which outlive the table. */
  g_autoptr (GHashTable) seen = g_hash_table_new_full (text_key_hash, text_key_equal, g_free, NULL);
  guint n = runs != NULL ? g_list_model_get_n_items (runs) : 0;

  for (guint i = 0; i < G_N_ELEMENTS (text_columns); i++)
    w->text_widths[i] = w->title_widths[text_columns[i]];
  for (guint r = 0; r < n; r++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, r);
      const WsRunConfig *config = ws_run_get_config (run);

      for (guint i = 0; i < G_N_ELEMENTS (text_columns); i++)
        {
          TextKey key;

          text_key (&key, config, text_columns[i]);
          key.numbers[3] |= (guint64) i << 56; /* one table for every column */
          if (g_hash_table_contains (seen, &key))
            continue;
          g_hash_table_add (seen, g_memdup2 (&key, sizeof key));
          fit_text (w, run, i);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (text_columns); i++)
    set_width (w, text_columns[i], w->text_widths[i]);
  w->texts_stale = FALSE;
}

void
_ws_runs_widths_fit_run (WsRunsWidths *w, WsRun *run)
{
  if (!w->fixed || w->texts_stale || w->sample == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (text_columns); i++)
    {
      int before = w->text_widths[i];

      fit_text (w, run, i);
      if (w->text_widths[i] > before)
        set_width (w, text_columns[i], w->text_widths[i]);
    }
}

/* Every column's width is fixed to what its title and the widest text it holds take
 * (ws-column-widths.h): the column view then sizes its columns without measuring a cell,
 * where it would otherwise measure every row bound so far whenever one is added. */
static void
fix_column_widths (WsRunsWidths *w)
{
  if (w->sample == NULL || ws_column_widths_for_text (w->sample, "") < 0)
    return;
  ws_column_widths_for_titles (w->columns, w->title_widths, N_COLUMNS);
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      g_autoptr (GPtrArray) texts = widest_texts (c);
      int width = w->title_widths[c];

      if (texts->len == 0)
        continue;
      for (guint i = 0; i < texts->len; i++)
        width = MAX (width, ws_column_widths_for_text (w->sample,
                                                       g_ptr_array_index (texts, i)));
      set_width (w, c, width);
    }
  w->fixed = TRUE;
  fit_text_columns (w);
}

/* Once the first rows are bound, their cells have the style to measure in; a frame later again
 * after the font changes, when the cells' styles are new. */
static gboolean
fix_widths_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  WsRunsWidths *w = data;

  if (w->restyled)
    w->restyled = FALSE;
  else if (!w->fixed)
    fix_column_widths (w);
  else if (w->texts_stale && w->sample != NULL)
    fit_text_columns (w);
  if (!w->fixed || w->texts_stale)
    return G_SOURCE_CONTINUE;
  w->tick = 0;
  return G_SOURCE_REMOVE;
}

static void
ensure_width_tick (WsRunsWidths *w)
{
  if (w->tick == 0)
    w->tick = gtk_widget_add_tick_callback (GTK_WIDGET (w->columns), fix_widths_cb, w, NULL);
}

static void
font_changed_cb (GtkSettings *settings, GParamSpec *pspec, WsRunsWidths *w)
{
  for (guint c = 0; c < N_COLUMNS; c++)
    set_width (w, c, -1);
  w->fixed = FALSE;
  w->restyled = TRUE;
  ensure_width_tick (w);
}

void
_ws_runs_widths_init (WsRunsWidths *w, WsRunsView *view, GtkColumnView *columns)
{
  w->view = view;
  w->columns = columns;
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      g_autoptr (GtkColumnViewColumn) column
        = g_list_model_get_item (gtk_column_view_get_columns (columns), c);

      w->widths[c] = -1;
      g_signal_connect (column, "notify::visible", G_CALLBACK (visible_cb), w);
    }
  ensure_width_tick (w);
  w->settings = gtk_settings_get_default ();
  if (w->settings != NULL)
    {
      g_object_ref (w->settings);
      g_signal_connect (w->settings, "notify::gtk-font-name", G_CALLBACK (font_changed_cb), w);
      g_signal_connect (w->settings, "notify::gtk-xft-dpi", G_CALLBACK (font_changed_cb), w);
    }
}

void
_ws_runs_widths_clear (WsRunsWidths *w)
{
  if (w->settings != NULL)
    g_signal_handlers_disconnect_by_data (w->settings, w);
  g_clear_object (&w->settings);
  for (guint c = 0; w->columns != NULL && c < N_COLUMNS; c++)
    {
      g_autoptr (GtkColumnViewColumn) column
        = g_list_model_get_item (gtk_column_view_get_columns (w->columns), c);

      if (column != NULL)
        g_signal_handlers_disconnect_by_data (column, w);
    }
  if (w->columns != NULL && w->tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (w->columns), w->tick);
  w->tick = 0;
  w->columns = NULL;
  g_clear_weak_pointer (&w->sample);
}

void
_ws_runs_widths_bound (WsRunsWidths *w, GtkWidget *child)
{
  /* The kernel's column is always shown, so its cells measure, and is not the first, so they
   * have the separator that every cell but the first has. */
  if (w->sample == NULL
      && GPOINTER_TO_INT (g_object_get_data (G_OBJECT (child), "column")) == COL_KERNEL)
    g_set_weak_pointer (&w->sample, child);
}

void
_ws_runs_widths_new_session (WsRunsWidths *w)
{
  w->texts_stale = TRUE;
  ensure_width_tick (w);
}
