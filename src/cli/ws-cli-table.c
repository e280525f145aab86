/* ws-cli-table.c: tables of text for terminals and Markdown.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli-table.h"

#include <string.h>

#include "ws-cli.h"

typedef struct
{
  char *title;
  WsCliAlign align;
  int gap_before;
  gboolean visible;
} Column;

struct _WsCliTable
{
  GArray *columns;  /* Column */
  GPtrArray *rows;  /* GPtrArray of char * (NULL: empty), one per column */
};

static void
column_clear (gpointer data)
{
  Column *column = data;

  g_free (column->title);
}

WsCliTable *
ws_cli_table_new (void)
{
  WsCliTable *table = g_new0 (WsCliTable, 1);

  table->columns = g_array_new (FALSE, TRUE, sizeof (Column));
  g_array_set_clear_func (table->columns, column_clear);
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  return table;
}

void
ws_cli_table_free (WsCliTable *table)
{
  if (table == NULL)
    return;
  g_array_unref (table->columns);
  g_ptr_array_unref (table->rows);
  g_free (table);
}

guint
ws_cli_table_add_column (WsCliTable *table, const char *title, WsCliAlign align, int gap_before)
{
  Column column = { g_strdup (title), align, gap_before, TRUE };

  g_return_val_if_fail (table->rows->len == 0, 0);
  g_array_append_val (table->columns, column);
  return table->columns->len - 1;
}

void
ws_cli_table_add_row (WsCliTable *table)
{
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_set_size (row, (int) table->columns->len);
  g_ptr_array_add (table->rows, row);
}

void
ws_cli_table_take (WsCliTable *table, guint column, char *text)
{
  GPtrArray *row;

  g_return_if_fail (table->rows->len > 0 && column < table->columns->len);
  row = g_ptr_array_index (table->rows, table->rows->len - 1);
  g_free (g_ptr_array_index (row, column));
  /* Escaped here, not only when written, so that the columns are measured as they print. */
  g_ptr_array_index (row, column)
    = text != NULL ? ws_format_escape_controls (text, WS_ESCAPE_KEEP_NEWLINE) : NULL;
  g_free (text);
}

void
ws_cli_table_set (WsCliTable *table, guint column, const char *text)
{
  ws_cli_table_take (table, column, g_strdup (text));
}

void
ws_cli_table_set_visible (WsCliTable *table, guint column, gboolean visible)
{
  g_return_if_fail (column < table->columns->len);
  g_array_index (table->columns, Column, column).visible = visible;
}

guint
ws_cli_table_get_n_rows (WsCliTable *table)
{
  return table->rows->len;
}

const char *
ws_cli_table_get (WsCliTable *table, guint row, guint column)
{
  const char *text;

  g_return_val_if_fail (row < table->rows->len && column < table->columns->len, "");
  text = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (table->rows, row), column);
  return text != NULL ? text : "";
}

gboolean
ws_cli_table_is_constant (WsCliTable *table, guint column)
{
  if (table->rows->len == 0)
    return FALSE;
  for (guint r = 1; r < table->rows->len; r++)
    if (!g_str_equal (ws_cli_table_get (table, r, column), ws_cli_table_get (table, 0, column)))
      return FALSE;
  return TRUE;
}

/* ---- text -------------------------------------------------------------------------------- */

static gsize
widest_line (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  gsize widest = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    widest = MAX (widest, ws_cli_text_width (lines[i]));
  return widest;
}

static gsize
column_width (WsCliTable *table, guint c)
{
  const Column *column = &g_array_index (table->columns, Column, c);
  gsize width = widest_line (column->title);

  for (guint r = 0; r < table->rows->len; r++)
    width = MAX (width, widest_line (ws_cli_table_get (table, r, c)));
  return width;
}

static gsize
gap_of (const Column *column, gsize gap, gboolean first)
{
  if (first)
    return 0;
  return column->gap_before >= 0 ? (gsize) column->gap_before : gap;
}

gsize
ws_cli_table_get_width (WsCliTable *table, gsize gap, gsize indent)
{
  gsize total = indent;
  gboolean first = TRUE;

  for (guint c = 0; c < table->columns->len; c++)
    {
      const Column *column = &g_array_index (table->columns, Column, c);

      if (!column->visible)
        continue;
      total += gap_of (column, gap, first) + column_width (table, c);
      first = FALSE;
    }
  return total;
}

/* Writes one row (title row when `cells` is NULL) of several lines, lines trimmed at the
 * right. */
static void
append_row (WsCliTable *table, GString *out, GPtrArray *cells, const gsize *widths, gsize gap,
            gsize indent)
{
  g_autoptr (GPtrArray) split = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  guint n_lines = 1;

  for (guint c = 0; c < table->columns->len; c++)
    {
      const Column *column = &g_array_index (table->columns, Column, c);
      const char *text = cells == NULL ? column->title : g_ptr_array_index (cells, c);
      GStrv lines = g_strsplit (text != NULL ? text : "", "\n", -1);

      g_ptr_array_add (split, lines);
      if (column->visible)
        n_lines = MAX (n_lines, g_strv_length (lines));
    }
  for (guint l = 0; l < n_lines; l++)
    {
      gsize line_start = out->len;
      gboolean first = TRUE;

      g_string_append_printf (out, "%*s", (int) indent, "");
      for (guint c = 0; c < table->columns->len; c++)
        {
          const Column *column = &g_array_index (table->columns, Column, c);
          GStrv lines = g_ptr_array_index (split, c);
          guint n = g_strv_length (lines);
          /* Titles sit on the last line, over their column; cells start on the first. */
          guint first_line = cells == NULL ? n_lines - MIN (n, n_lines) : 0;
          const char *text = l >= first_line && l - first_line < n ? lines[l - first_line] : "";
          gsize pad;

          if (!column->visible)
            continue;
          g_string_append_printf (out, "%*s", (int) gap_of (column, gap, first), "");
          first = FALSE;
          pad = widths[c] - MIN (widths[c], ws_cli_text_width (text));
          if (column->align == WS_CLI_ALIGN_RIGHT)
            g_string_append_printf (out, "%*s%s", (int) pad, "", text);
          else
            g_string_append_printf (out, "%s%*s", text, (int) pad, "");
        }
      while (out->len > line_start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
}

void
ws_cli_table_append_text (WsCliTable *table, GString *out, gsize gap, gsize indent)
{
  g_autofree gsize *widths = g_new0 (gsize, MAX (table->columns->len, 1));
  gsize total = ws_cli_table_get_width (table, gap, indent);

  for (guint c = 0; c < table->columns->len; c++)
    widths[c] = column_width (table, c);
  append_row (table, out, NULL, widths, gap, indent);
  g_string_append_printf (out, "%*s", (int) indent, "");
  for (gsize i = indent; i < total; i++)
    g_string_append (out, "─");
  g_string_append_c (out, '\n');
  for (guint r = 0; r < table->rows->len; r++)
    append_row (table, out, g_ptr_array_index (table->rows, r), widths, gap, indent);
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void
append_markdown_cell (GString *out, const char *text)
{
  g_string_append_c (out, ' ');
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      if (*p == '\n')
        g_string_append_c (out, ' ');
      else if (*p == '|')
        g_string_append (out, "\\|");
      else
        g_string_append_c (out, *p);
    }
  g_string_append (out, " |");
}

void
ws_cli_table_append_markdown (WsCliTable *table, GString *out)
{
  g_string_append_c (out, '|');
  for (guint c = 0; c < table->columns->len; c++)
    if (g_array_index (table->columns, Column, c).visible)
      append_markdown_cell (out, g_array_index (table->columns, Column, c).title);
  g_string_append (out, "\n|");
  for (guint c = 0; c < table->columns->len; c++)
    {
      const Column *column = &g_array_index (table->columns, Column, c);

      if (column->visible)
        g_string_append (out, column->align == WS_CLI_ALIGN_RIGHT ? " ---: |" : " --- |");
    }
  g_string_append_c (out, '\n');
  for (guint r = 0; r < table->rows->len; r++)
    {
      g_string_append_c (out, '|');
      for (guint c = 0; c < table->columns->len; c++)
        if (g_array_index (table->columns, Column, c).visible)
          append_markdown_cell (out, ws_cli_table_get (table, r, c));
      g_string_append_c (out, '\n');
    }
}
