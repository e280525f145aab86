/* ws-cli-table.h: a table of text cells laid out for a terminal (columns sized to their widest
 * cell, cells of several lines) or written as Markdown.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  WS_CLI_ALIGN_LEFT,
  WS_CLI_ALIGN_RIGHT,
} WsCliAlign;

typedef struct _WsCliTable WsCliTable;

WsCliTable *ws_cli_table_new (void);
void ws_cli_table_free (WsCliTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCliTable, ws_cli_table_free)

/* `title` may hold several lines ("kernel\ntime"). `gap_before`: spaces before the column, so
 * that a value and its spread can sit close together; -1 for the table's gap. */
guint ws_cli_table_add_column (WsCliTable *table, const char *title, WsCliAlign align,
                               int gap_before);
/* A new row; then set each cell (a cell may hold several lines). Cells left unset are empty. */
void ws_cli_table_add_row (WsCliTable *table);
void ws_cli_table_set (WsCliTable *table, guint column, const char *text);
void ws_cli_table_take (WsCliTable *table, guint column, char *text);

void ws_cli_table_set_visible (WsCliTable *table, guint column, gboolean visible);
guint ws_cli_table_get_n_rows (WsCliTable *table);
/* TRUE when every row holds the same text in `column` (there is at least one row). */
gboolean ws_cli_table_is_constant (WsCliTable *table, guint column);
const char *ws_cli_table_get (WsCliTable *table, guint row, guint column);

/* Columns the text layout takes, gaps and indent included. */
gsize ws_cli_table_get_width (WsCliTable *table, gsize gap, gsize indent);
void ws_cli_table_append_text (WsCliTable *table, GString *out, gsize gap, gsize indent);
void ws_cli_table_append_markdown (WsCliTable *table, GString *out);

G_END_DECLS
