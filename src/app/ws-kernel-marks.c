/* ws-kernel-marks.c: an own kernel's problems as GtkSourceMarks, one per problem, its
 * message kept on the mark for the tooltips: the gutter's icon and the marked line itself.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel-marks.h"

#include <glib/gi18n.h>

static const char *const categories[] = { WS_MARK_ERROR, WS_MARK_WARNING, WS_MARK_MEMCHECK };

static char *
tooltip_cb (GtkSourceMarkAttributes *attributes, GtkSourceMark *mark, gpointer data)
{
  return g_strdup (g_object_get_data (G_OBJECT (mark), "message"));
}

char *
ws_kernel_marks_dup_tooltip_at (GtkSourceView *view, int x, int y)
{
  GtkTextView *text_view = GTK_TEXT_VIEW (view);
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (text_view));
  GString *text = NULL;
  GtkTextIter iter;
  int bx, by, top, height;

  g_return_val_if_fail (GTK_SOURCE_IS_VIEW (view), NULL);
  gtk_text_view_window_to_buffer_coords (text_view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
  gtk_text_view_get_line_at_y (text_view, &iter, by, &top);
  gtk_text_view_get_line_yrange (text_view, &iter, &top, &height);
  if (by < top || by >= top + height)
    return NULL; /* below the last line */
  for (guint i = 0; i < G_N_ELEMENTS (categories); i++)
    {
      GSList *marks = gtk_source_buffer_get_source_marks_at_line (
        buffer, gtk_text_iter_get_line (&iter), categories[i]);

      for (GSList *m = marks; m != NULL; m = m->next)
        {
          const char *message = g_object_get_data (m->data, "message");

          if (message == NULL)
            continue;
          if (text == NULL)
            text = g_string_new (message);
          else
            g_string_append_printf (text, "\n%s", message);
        }
      g_slist_free (marks);
    }
  return text ? g_string_free (text, FALSE) : NULL;
}

static gboolean
line_tooltip_cb (GtkWidget *view, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                 gpointer data)
{
  g_autofree char *text = NULL;

  if (keyboard)
    {
      /* From the keyboard: the line of the cursor. */
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
      GtkTextIter cursor;
      GdkRectangle where;

      gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
      gtk_text_view_get_iter_location (GTK_TEXT_VIEW (view), &cursor, &where);
      gtk_text_view_buffer_to_window_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_WIDGET,
                                             where.x, where.y, &x, &y);
    }
  text = ws_kernel_marks_dup_tooltip_at (GTK_SOURCE_VIEW (view), x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

gboolean
ws_kernel_marks_first (GtkSourceBuffer *buffer, GtkTextIter *iter)
{
  GSList *marks;
  gboolean found = FALSE;

  g_return_val_if_fail (GTK_SOURCE_IS_BUFFER (buffer), FALSE);
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), iter);
  for (;;)
    {
      marks = gtk_source_buffer_get_source_marks_at_iter (buffer, iter, NULL);
      for (GSList *m = marks; m != NULL && !found; m = m->next)
        for (guint i = 0; i < G_N_ELEMENTS (categories) && !found; i++)
          found = g_strcmp0 (gtk_source_mark_get_category (m->data), categories[i]) == 0;
      g_slist_free (marks);
      if (found || !gtk_source_buffer_forward_iter_to_source_mark (buffer, iter, NULL))
        return found;
    }
}

void
ws_kernel_marks_setup (GtkSourceView *view)
{
  static const char *const icons[] = { "dialog-error-symbolic", "dialog-warning-symbolic",
                                       "dialog-warning-symbolic" };

  for (guint i = 0; i < G_N_ELEMENTS (categories); i++)
    {
      g_autoptr (GtkSourceMarkAttributes) a = gtk_source_mark_attributes_new ();
      GdkRGBA background;

      gtk_source_mark_attributes_set_icon_name (a, icons[i]);
      /* The line itself tinted too, so a mark is seen without looking at the gutter. */
      gdk_rgba_parse (&background, i == 0 ? "rgba(224,27,36,0.16)" : "rgba(229,165,10,0.18)");
      gtk_source_mark_attributes_set_background (a, &background);
      g_signal_connect (a, "query-tooltip-text", G_CALLBACK (tooltip_cb), NULL);
      gtk_source_view_set_mark_attributes (view, categories[i], a, 10 - (int) i);
    }
  gtk_source_view_set_show_line_marks (view, TRUE);
  /* The gutter's icon is small and far from the code: the tinted line says it too. */
  gtk_widget_set_has_tooltip (GTK_WIDGET (view), TRUE);
  g_signal_connect (view, "query-tooltip", G_CALLBACK (line_tooltip_cb), NULL);
}

static void
add_mark (GtkSourceBuffer *buffer, const char *category, int line, const char *message)
{
  GtkTextIter iter;
  GtkSourceMark *mark;
  int lines = gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer));

  if (line < 1)
    return;
  /* A line past the end (a file edited since it ran) goes on the last. */
  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (buffer), &iter, MIN (line, lines) - 1);
  mark = gtk_source_buffer_create_source_mark (buffer, NULL, category, &iter);
  g_object_set_data_full (G_OBJECT (mark), "message", g_strdup (message), g_free);
}

void
ws_kernel_marks_update (GtkSourceBuffer *buffer, WsKernelSource *source, WsSession *session)
{
  GtkTextIter start, end;

  g_return_if_fail (GTK_SOURCE_IS_BUFFER (buffer));
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  for (guint i = 0; i < G_N_ELEMENTS (categories); i++)
    gtk_source_buffer_remove_source_marks (buffer, &start, &end, categories[i]);
  for (guint i = 0; source != NULL && i < ws_kernel_source_get_problems (source)->len; i++)
    {
      WsSourceProblem *p = g_ptr_array_index (ws_kernel_source_get_problems (source), i);
      g_autofree char *text = g_strdup_printf ("%u:%u: %s", p->line, p->column, p->message);

      add_mark (buffer, WS_MARK_ERROR, (int) p->line, text);
    }
  if (session == NULL)
    return;
  for (guint i = 0; i < ws_session_get_errors (session)->len; i++)
    {
      WsRunnerError *e = g_ptr_array_index (ws_session_get_errors (session), i);
      g_autofree char *text = e->column > 0
                                ? g_strdup_printf ("%d:%d: %s", e->line, e->column, e->message)
                                : g_strdup_printf ("%d: %s", e->line, e->message);

      add_mark (buffer, e->severity == WS_ERROR_SEVERITY_ERROR ? WS_MARK_ERROR : WS_MARK_WARNING,
                e->line, text);
    }
  for (guint i = 0; i < ws_session_get_memcheck_findings (session)->len; i++)
    {
      WsMemcheckFinding *f = g_ptr_array_index (ws_session_get_memcheck_findings (session), i);
      g_autofree char *text = NULL;

      if (f->has_thread)
        text = g_strdup_printf (
          g_dngettext (NULL, "%s, first by thread (%u,%u,%u) of block (%u,%u,%u), %d time",
                       "%s, first by thread (%u,%u,%u) of block (%u,%u,%u), %d times",
                       f->count),
          f->message, f->thread[0], f->thread[1], f->thread[2], f->block[0], f->block[1],
          f->block[2], f->count);
      else
        text = g_strdup (f->message);
      add_mark (buffer, WS_MARK_MEMCHECK, f->line, text);
    }
}

const char *
ws_kernel_marks_get (GtkSourceBuffer *buffer, guint line, const char *category)
{
  GSList *marks;
  const char *message = NULL;

  g_return_val_if_fail (GTK_SOURCE_IS_BUFFER (buffer), NULL);
  if (line < 1)
    return NULL;
  marks = gtk_source_buffer_get_source_marks_at_line (buffer, (int) line - 1, category);
  if (marks != NULL)
    message = g_object_get_data (marks->data, "message");
  g_slist_free (marks);
  return message;
}

/* ---- the first marked line brought into sight ----------------------------------------------- */

typedef struct
{
  GtkTextView *view; /* not held: the state goes with it */
  guint tick;
  guint frames;
  GtkAdjustment *adjustment; /* the view's vertical one, held, and the handler on it */
  gulong changed;
  gboolean pending;
} Scroll;

#define SCROLL_KEY "ws-marks-scroll"
#define FIRST_MARK "ws-first-mark"

/* Whether the first marked line is wholly in sight; else it is scrolled to once more. */
static gboolean
in_sight (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextMark *mark = gtk_text_buffer_get_mark (buffer, FIRST_MARK);
  GdkRectangle visible;
  GtkTextIter iter;
  int y, height;

  if (mark == NULL)
    return TRUE;
  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, mark);
  gtk_text_view_get_line_yrange (view, &iter, &y, &height);
  if (visible.height > 0 && height > 0 && y >= visible.y
      && y + height <= visible.y + visible.height)
    return TRUE;
  gtk_text_view_scroll_to_mark (view, mark, 0, TRUE, 0, 0.3);
  return FALSE;
}

static void
scroll_stop (Scroll *s)
{
  s->pending = FALSE;
  /* GTK 4.8 cannot take a tick callback off a view whose frame clock has gone. */
  if (s->tick != 0 && gtk_widget_get_realized (GTK_WIDGET (s->view)))
    gtk_widget_remove_tick_callback (GTK_WIDGET (s->view), s->tick);
  s->tick = 0;
}

static gboolean
scroll_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  Scroll *s = data;

  /* Kept at for the frames the window may still be laid out in: a line in sight in one may be
   * under the bottom edge in the next. */
  if (gtk_widget_get_height (widget) > 0)
    in_sight (s->view);
  if (!s->pending || ++s->frames > 120)
    {
      s->pending = FALSE;
      s->tick = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
scroll_changed_cb (GtkAdjustment *adjustment, Scroll *s)
{
  if (s->pending && gtk_widget_get_height (GTK_WIDGET (s->view)) > 0)
    in_sight (s->view);
}

static void
scroll_unrealize_cb (GtkWidget *widget, Scroll *s)
{
  scroll_stop (s);
}

static void
scroll_free (gpointer data)
{
  Scroll *s = data;

  if (s->adjustment != NULL)
    {
      g_signal_handler_disconnect (s->adjustment, s->changed);
      g_object_unref (s->adjustment);
    }
  g_free (s);
}

void
ws_kernel_marks_scroll_to_first (GtkSourceView *source_view)
{
  GtkTextView *view = GTK_TEXT_VIEW (source_view);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextMark *mark = gtk_text_buffer_get_mark (buffer, FIRST_MARK);
  Scroll *s = g_object_get_data (G_OBJECT (view), SCROLL_KEY);
  GtkTextIter iter;

  if (!ws_kernel_marks_first (GTK_SOURCE_BUFFER (buffer), &iter))
    return;
  if (mark == NULL)
    gtk_text_buffer_create_mark (buffer, FIRST_MARK, &iter, TRUE);
  else
    gtk_text_buffer_move_mark (buffer, mark, &iter);
  if (s == NULL)
    {
      s = g_new0 (Scroll, 1);
      s->view = view;
      g_signal_connect (view, "unrealize", G_CALLBACK (scroll_unrealize_cb), s);
      g_object_set_data_full (G_OBJECT (view), SCROLL_KEY, s, scroll_free);
    }
  /* The adjustment comes with the scrolled window the view is put in. */
  if (s->adjustment == NULL && gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view)) != NULL)
    {
      s->adjustment = g_object_ref (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view)));
      s->changed = g_signal_connect (s->adjustment, "changed", G_CALLBACK (scroll_changed_cb), s);
    }
  s->frames = 0;
  s->pending = TRUE;
  if (s->tick == 0)
    s->tick = gtk_widget_add_tick_callback (GTK_WIDGET (view), scroll_tick_cb, s, NULL);
}
