/* ws-cli-common.c: option parsing, messages, sessions from files and from the runner, and text
 * laid out for a terminal, shared by the subcommands.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ws-config.h"
#include "ws-file.h"

/* ---- options and messages ---------------------------------------------------------------- */

static const struct
{
  const char *command;
  const char *usage;
} usages[] = {
  { "run", "--kernel K[,K…] [--sizes LIST] [--blocks LIST] [--transfer LIST] [OPTION…]" },
  { "report", "FILE [--format table|csv|json|markdown] [OPTION…]" },
  { "devices", "[--target NAME] [OPTION…]" },
  { "kernels", "[--target NAME] [OPTION…]" },
  { "targets", "[list] | add NAME --ssh HOST|--srun OPTIONS|--sbatch OPTIONS [OPTION…] | "
               "remove NAME" },
  { "merge", "FILE… -o OUT" },
  { "occupancy", "--block N [--arch sm_XX] [--regs R] [--smem BYTES] | --list-archs" },
  { "replay", "FILE [--speed X]" },
  { "export", "FILE… --chart CHART --format FORMAT -o OUT [OPTION…]" },
  { "trace", "[-o FILE] [--sweep NAME=V,…] [OPTION…] [--] PROGRAM [ARG…]" },
};

static const char *
usage_of (const char *command)
{
  for (guint i = 0; i < G_N_ELEMENTS (usages); i++)
    if (g_str_equal (usages[i].command, command))
      return usages[i].usage;
  return "[OPTION…]";
}

GOptionContext *
ws_cli_context_new (const char *command, const char *parameters, const char *summary,
                    const char *description, GOptionEntry *entries)
{
  GOptionContext *context = g_option_context_new (parameters);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);
  if (description != NULL)
    g_option_context_set_description (context, description);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  return context;
}

gboolean
ws_cli_parse (GOptionContext *context, const char *command, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;

  if (g_option_context_parse (context, argc, argv, &error))
    return TRUE;
  ws_cli_usage_error (command, "%s", error->message);
  return FALSE;
}

static void
print_message (const char *command, const char *kind, const char *format, va_list args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);
  g_autoptr (GString) out = g_string_new ("warpscope-cli");
  gsize width = (gsize) ws_cli_terminal_width (stderr);

  if (command != NULL)
    g_string_append_printf (out, " %s", command);
  g_string_append (out, ": ");
  if (kind != NULL)
    g_string_append_printf (out, "%s: ", kind);
  ws_cli_append_wrapped (out, message, ws_cli_text_width (out->str), 2, width);
  g_string_append_c (out, '\n');
  fflush (stdout);
  ws_cli_write (stderr, out->str);
}

int
ws_cli_usage_error (const char *command, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  print_message (command, NULL, format, args);
  va_end (args);
  fprintf (stderr, _("Usage: warpscope-cli %s %s\n"), command, usage_of (command));
  fprintf (stderr, _("Try “warpscope-cli %s --help” for its options.\n"), command);
  return WS_CLI_EXIT_USAGE;
}

void
ws_cli_error (const char *command, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  print_message (command, NULL, format, args);
  va_end (args);
}

void
ws_cli_warning (const char *command, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  print_message (command, _("warning"), format, args);
  va_end (args);
}

/* ---- sessions from files ----------------------------------------------------------------- */

/* Lines that could not be read are worth a warning each, but not a screenful. */
#define MAX_PROBLEMS_SHOWN 5

WsSession *
ws_cli_load_session (const char *command, const char *path, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr (GError) local = NULL;
  g_autoptr (WsSession) session = ws_session_load (file, NULL, &local);
  g_autofree char *basename = g_path_get_basename (path);
  GPtrArray *problems;

  if (session == NULL)
    {
      /* GIO names the file for most failures, not for all (a directory): a person must see
       * which file it was. */
      if (strstr (local->message, basename) == NULL)
        g_prefix_error (&local, "%s: ", path);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  problems = ws_session_get_problems (session);
  for (guint i = 0; i < MIN (problems->len, MAX_PROBLEMS_SHOWN); i++)
    {
      WsProblem *p = g_ptr_array_index (problems, i);

      ws_cli_warning (command, _("%s, line %u: %s"), path, p->line, p->message);
    }
  if (problems->len > MAX_PROBLEMS_SHOWN)
    ws_cli_warning (command, _("%s: %u more lines could not be read"), path,
                    problems->len - MAX_PROBLEMS_SHOWN);
  return g_steal_pointer (&session);
}

void
ws_cli_print_session_errors (FILE *out, WsSession *session, int width)
{
  GPtrArray *errors = ws_session_get_errors (session);

  for (guint i = 0; i < errors->len; i++)
    {
      WsRunnerError *e = g_ptr_array_index (errors, i);
      g_autoptr (GString) text = g_string_new (NULL);
      gboolean warning = g_strcmp0 (e->severity, "warning") == 0;

      /* An own kernel's header and compile errors point into its file, as a compiler's do. */
      if (e->file != NULL && e->line > 0)
        g_string_append_printf (text, "%s:%d:%d: %s: ", e->file, e->line, MAX (e->column, 1),
                                warning ? _("warning") : _("error"));
      else
        g_string_append_printf (text, "%s (%s): ", warning ? _("warning") : _("error"), e->code);
      ws_cli_append_wrapped (text, e->message, ws_cli_text_width (text->str), 2,
                             (gsize) MAX (width, 0));
      g_string_append_c (text, '\n');
      if (e->detail != NULL && *e->detail != '\0')
        {
          g_string_append (text, "  ");
          ws_cli_append_wrapped (text, e->detail, 2, 2, (gsize) MAX (width, 0));
          g_string_append_c (text, '\n');
        }
      ws_cli_write (out, text->str);
    }
}

gboolean
ws_cli_check_output (const char *command, const char *option, const char *output)
{
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;

  /* "" would become the current folder. */
  if (output != NULL && *output != '\0')
    {
      file = g_file_new_for_commandline_arg (output);
      path = g_file_get_path (file);
      if (path == NULL)
        return TRUE; /* a location GIO writes (sftp://…): it is asked when written */
    }
  if (ws_file_check_writable (path != NULL ? path : "", &error))
    return TRUE;
  ws_cli_usage_error (command, "%s: %s", option, error->message);
  return FALSE;
}

/* ---- terminal and text ------------------------------------------------------------------- */

int
ws_cli_terminal_width (FILE *stream)
{
  struct winsize size;
  int fd = fileno (stream);

  if (fd < 0 || !isatty (fd))
    return 0;
  if (ioctl (fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return 80;
}

gsize
ws_cli_text_width (const char *text)
{
  gsize width = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          width++;
          continue;
        }
      if (g_unichar_iszerowidth (c))
        continue;
      width += g_unichar_iswide (c) ? 2 : 1;
    }
  return width;
}

/* Closing punctuation that must not start a line, and opening punctuation that must not end
 * one (Chinese and Japanese text). */
static gboolean
no_break_before (gunichar c)
{
  return c != 0 && g_utf8_strchr ("，。：；、！？）」』】》％", -1, c) != NULL;
}

static gboolean
no_break_after (gunichar c)
{
  return c != 0 && g_utf8_strchr ("（「『【《", -1, c) != NULL;
}

/* A unit stays on the line of its number: "12.8 µs", "3206 GB/s", "1.38×". */
static gboolean
is_unit (const char *word)
{
  static const char *const units[] = {
    "ns", "µs", "ms", "s", "GB/s", "GFLOP/s", "TFLOP/s", "KiB", "MiB", "GiB", "TiB", "bytes",
    "byte", "%",
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_has_prefix (word, units[i]))
      {
        const char *rest = word + strlen (units[i]);

        while (*rest != '\0' && strchr (",.;:)]", *rest) != NULL)
          rest++;
        /* "µs；" in Chinese text */
        while (*rest != '\0' && no_break_before (g_utf8_get_char (rest)))
          rest = g_utf8_next_char (rest);
        if (*rest == '\0')
          return TRUE;
      }
  return FALSE;
}

static gboolean
is_connector (const char *word)
{
  return g_str_equal (word, "n") || g_str_equal (word, "≈") || g_str_equal (word, "=");
}

typedef struct
{
  char *text;
  gboolean space_before; /* joined to the previous token by a space, else directly */
} Token;

static void
token_clear (Token *t)
{
  g_free (t->text);
}

/* Breaks may fall at spaces and, in CJK text, which has no spaces, beside any wide
 * character but before closing or after opening punctuation. */
static GArray *
tokenize (const char *paragraph)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  g_autoptr (GString) current = g_string_new (NULL);
  gboolean space = FALSE, current_space = FALSE;
  gunichar prev = 0;

  g_array_set_clear_func (tokens, (GDestroyNotify) token_clear);
  for (const char *p = paragraph; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == ' ')
        {
          space = TRUE;
          prev = 0;
          continue;
        }
      if (current->len > 0
          && (space
              || ((g_unichar_iswide (c) || g_unichar_iswide (prev)) && !no_break_before (c)
                  && !no_break_after (prev))))
        {
          Token t = { g_strdup (current->str), current_space };

          g_array_append_val (tokens, t);
          g_string_truncate (current, 0);
        }
      if (current->len == 0)
        current_space = space;
      space = FALSE;
      g_string_append_unichar (current, c);
      prev = c;
    }
  if (current->len > 0)
    {
      Token t = { g_strdup (current->str), current_space };

      g_array_append_val (tokens, t);
    }
  return tokens;
}

void
ws_cli_append_wrapped (GString *out, const char *text, gsize first_indent, gsize indent,
                       gsize width)
{
  g_auto (GStrv) paragraphs = g_strsplit (text, "\n", -1);
  gsize column = first_indent;

  for (guint p = 0; paragraphs[p] != NULL; p++)
    {
      g_autoptr (GArray) tokens = tokenize (paragraphs[p]);
      gboolean line_empty = TRUE;

      if (p > 0)
        {
          g_string_append_c (out, '\n');
          g_string_append_printf (out, "%*s", (int) indent, "");
          column = indent;
        }
      for (guint w = 0; w < tokens->len; w++)
        {
          const Token *t = &g_array_index (tokens, Token, w);
          gsize word = ws_cli_text_width (t->text);
          gsize glued = word;

          /* Keep "n ≈ 5,800" and "12.8 µs" whole: measure up to the end of the group. */
          for (guint g = w; g + 1 < tokens->len; g++)
            {
              const Token *next = &g_array_index (tokens, Token, g + 1);

              if (!(is_connector (g_array_index (tokens, Token, g).text) || is_unit (next->text)))
                break;
              glued += (next->space_before ? 1 : 0) + ws_cli_text_width (next->text);
            }
          if (!line_empty && width > 0 && column + (t->space_before ? 1 : 0) + glued > width)
            {
              g_string_append_c (out, '\n');
              g_string_append_printf (out, "%*s", (int) indent, "");
              column = indent;
              line_empty = TRUE;
            }
          if (!line_empty && t->space_before)
            {
              g_string_append_c (out, ' ');
              column++;
            }
          g_string_append (out, t->text);
          column += word;
          line_empty = FALSE;
        }
    }
}

void
ws_cli_write (FILE *out, const char *text)
{
  g_autofree char *safe = ws_format_escape_controls (text, WS_ESCAPE_KEEP_NEWLINE
                                                             | WS_ESCAPE_KEEP_TAB);

  fputs (safe, out);
}

void
ws_cli_write_data (FILE *out, const char *text)
{
  fputs (text, out);
}
