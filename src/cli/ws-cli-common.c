/* ws-cli-common.c: option parsing, messages, sessions from files and from the runner, and text
 * laid out for a terminal, shared by the subcommands.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ws-analysis.h"
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

/* GOption writes --help through g_print, then exits. */
static void
print_help_cb (const char *text)
{
  ws_cli_write_help (stdout, text);
}

gboolean
ws_cli_parse (GOptionContext *context, const char *command, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  GPrintFunc previous = g_set_print_handler (print_help_cb);
  gboolean parsed = g_option_context_parse (context, argc, argv, &error);

  g_set_print_handler (previous);
  if (parsed)
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
  guint n_bad, listed, shown;

  if (session == NULL)
    {
      /* GIO names the file for most failures, not for all (a directory): a person must see
       * which file it was. */
      if (strstr (local->message, basename) == NULL)
        g_prefix_error (&local, "%s: ", path);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  /* The model lists the first WS_SESSION_MAX_PROBLEMS bad lines and counts them all; after
   * them come what the end of the stream says (its own count of the lines not listed, a
   * missing done record). */
  problems = ws_session_get_problems (session);
  n_bad = ws_session_get_n_bad_lines (session);
  listed = MIN (MIN (n_bad, WS_SESSION_MAX_PROBLEMS), problems->len);
  shown = MIN (listed, MAX_PROBLEMS_SHOWN);
  for (guint i = 0; i < shown; i++)
    {
      WsProblem *p = g_ptr_array_index (problems, i);

      ws_cli_warning (command, _("%s, line %u: %s"), path, p->line, p->message);
    }
  if (n_bad > shown)
    ws_cli_warning (command,
                    g_dngettext (NULL, "%s: %u more line could not be read",
                                 "%s: %u more lines could not be read", n_bad - shown),
                    path, n_bad - shown);
  for (guint i = listed + (n_bad > WS_SESSION_MAX_PROBLEMS); i < problems->len; i++)
    {
      WsProblem *p = g_ptr_array_index (problems, i);

      ws_cli_warning (command, _("%s, line %u: %s"), path, p->line, p->message);
    }
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
      gboolean warning = e->severity == WS_ERROR_SEVERITY_WARNING;

      /* An own kernel's header and compile errors point into its file, as a compiler's do. */
      if (e->file != NULL && e->line > 0)
        g_string_append_printf (text, "%s:%d:%d: %s: ", e->file, e->line, MAX (e->column, 1),
                                warning ? _("warning") : _("error"));
      else
        g_string_append_printf (text, "%s (%s): ", warning ? _("warning") : _("error"),
                                e->code_name);
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

/* Permissions do not tell it all: root passes every check, and a read-only or special file
 * system (/proc, /sys) refuses what its modes allow. So a file is made in the folder the
 * output will be written in, as the atomic write will, and removed. */
static gboolean
probe_folder (const char *path, GError **error)
{
  g_autofree char *target = ws_file_resolve_links (path, error);
  g_autofree char *dir = NULL;
  g_autofree char *probe = NULL;
  int fd, saved;

  if (target == NULL)
    return FALSE;
  dir = g_path_get_dirname (target);
  probe = g_build_filename (dir, ".warpscope-probe-XXXXXX", NULL);
  fd = g_mkstemp (probe);
  if (fd >= 0)
    {
      close (fd);
      g_unlink (probe);
      return TRUE;
    }
  saved = errno;
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               /* Translators: the file, its folder, then why. */
               _("%s cannot be written: no file can be made in the folder %s (%s). Give a file "
                 "in a folder you can write to"),
               path, dir, g_strerror (saved));
  return FALSE;
}

/* A file of its own for the runs `output` could not take: in the cache folder, else the
 * temporary one (a full disk may hold the one and not the other). */
static char *
save_elsewhere (WsSession *session, const char *output, GError **error)
{
  g_autofree char *base = g_path_get_basename (output);
  g_autofree char *stem = g_str_has_suffix (base, ".jsonl")
                            ? g_strndup (base, strlen (base) - strlen (".jsonl"))
                            : g_strdup (base);
  g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "warpscope", "unsaved",
                                             NULL);
  const char *folders[] = { cache, g_get_tmp_dir () };

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *template = g_strdup_printf ("%s/%s-XXXXXX.jsonl", folders[i], stem);
      g_autoptr (GFile) file = NULL;
      int fd;

      g_clear_error (error);
      if (g_mkdir_with_parents (folders[i], 0700) != 0
          || (fd = g_mkstemp_full (template, O_WRONLY, 0644)) < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", folders[i],
                       g_strerror (saved));
          continue;
        }
      close (fd);
      file = g_file_new_for_path (template);
      if (ws_session_save (session, file, NULL, error))
        return g_steal_pointer (&template);
      g_unlink (template);
    }
  return NULL;
}

char *
ws_cli_save_session (const char *command, WsSession *session, const char *output,
                     const char *what)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (output);
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) elsewhere_error = NULL;
  char *elsewhere;

  if (ws_session_save (session, file, NULL, &error))
    return g_strdup (output);
  /* Checked before the work, and yet: its folder removed meanwhile, a disk that filled. The
   * runs are in memory still: kept where they can be, and that place said. */
  elsewhere = save_elsewhere (session, output, &elsewhere_error);
  if (elsewhere != NULL)
    ws_cli_error (command, _("could not save %s to %s: %s. It is kept in %s instead: move it "
                             "where you want it."),
                  what, output, error->message, elsewhere);
  else
    ws_cli_error (command, _("could not save %s to %s: %s; nor in a file of its own (%s): it "
                             "is lost. Free some disk space and run again."),
                  what, output, error->message, elsewhere_error->message);
  return elsewhere;
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
  /* A file name is checked as given, so that the message names what the person typed
   * (GIO's path is absolute). */
  if (path != NULL && g_uri_peek_scheme (output) == NULL)
    {
      g_free (path);
      path = g_strdup (output);
    }
  if (ws_file_check_writable (path != NULL ? path : "", &error) && probe_folder (path, &error))
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
    "ns", "µs", "ms", "s", "GB/s", "GFLOP/s", "TFLOP/s", "PFLOP/s", "kFLOP", "MFLOP", "GFLOP",
    "TFLOP", "FLOP", "kB", "MB", "GB", "TB", "PB", "B", "KiB", "MiB", "GiB", "TiB", "bytes",
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

/* Where the description of an indented term (an option, a command) starts: after its first
 * run of two or more spaces ("  -o, --output=OUT        The file…", "  run         run
 * kernels…"); NULL when the line is no such term's. */
static const char *
term_description (const char *line)
{
  const char *p = line;
  const char *gap;

  while (*p == ' ')
    p++;
  if (*p == '\0' || p == line || (gap = strstr (p, "  ")) == NULL)
    return NULL;
  while (*gap == ' ')
    gap++;
  return *gap != '\0' ? gap : NULL;
}

char *
ws_cli_wrap_help (const char *text, gsize width)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gsize lead = strspn (line, " ");
      const char *description = term_description (line);

      if (i > 0)
        g_string_append_c (out, '\n');
      if (width == 0 || ws_cli_text_width (line) <= width)
        g_string_append (out, line);
      else if (description != NULL)
        {
          gsize column = ws_cli_text_width (line) - ws_cli_text_width (description);

          /* The description wraps under itself; far right, under the option instead. */
          g_string_append_len (out, line, description - line);
          ws_cli_append_wrapped (out, description, column, MIN (column, width / 2), width);
        }
      else
        {
          g_string_append_len (out, line, (gssize) lead);
          ws_cli_append_wrapped (out, line + lead, lead, lead, width);
        }
    }
  return g_string_free (out, FALSE);
}

void
ws_cli_write_help (FILE *out, const char *text)
{
  int width = ws_cli_terminal_width (out);
  g_autofree char *wrapped = ws_cli_wrap_help (text, width > 0 ? (gsize) width : 80);

  ws_cli_write (out, wrapped);
}

gboolean
ws_cli_use_color (FILE *out)
{
  const char *no_color = g_getenv ("NO_COLOR");
  int fd = fileno (out);

  /* https://no-color.org: set to anything but the empty string, it turns colours off. */
  if (no_color != NULL && *no_color != '\0')
    return FALSE;
  if (g_strcmp0 (g_getenv ("TERM"), "dumb") == 0)
    return FALSE;
  return fd >= 0 && isatty (fd);
}

/* SGR colours of the severities, from info up: plain, cyan, yellow, bold red. */
static const char *const severity_sgr[] = { "", "\033[36m", "\033[33m", "\033[1;31m" };

/* A finding's first line starts with its severity, padded as ws_cli_report_append_finding
 * pads it; the severity that `line` starts with, or -1. */
static int
line_severity (const char *line, gsize *label_length)
{
  if (!g_str_has_prefix (line, "  "))
    return -1;
  for (int s = WS_SEVERITY_INFO; s <= WS_SEVERITY_HIGH; s++)
    {
      const char *label = ws_severity_to_label ((WsSeverity) s);
      gsize n = strlen (label);
      gsize used = 2 + ws_cli_text_width (label);
      gsize fill = used < 10 ? 10 - used : 1;

      if (strncmp (line + 2, label, n) == 0 && strspn (line + 2 + n, " ") == fill
          && line[2 + n + fill] != '\0')
        {
          *label_length = n;
          return s;
        }
    }
  return -1;
}

void
ws_cli_write_report (FILE *out, const char *text)
{
  g_autofree char *safe = ws_format_escape_controls (text, WS_ESCAPE_KEEP_NEWLINE
                                                             | WS_ESCAPE_KEEP_TAB);
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) colored = NULL;

  if (!ws_cli_use_color (out))
    {
      fputs (safe, out);
      return;
    }
  /* The escapes are added after the file's text was made safe: only these reach the
   * terminal. */
  lines = g_strsplit (safe, "\n", -1);
  colored = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      gsize n = 0;
      int s = line_severity (lines[i], &n);

      if (i > 0)
        g_string_append_c (colored, '\n');
      if (s > WS_SEVERITY_INFO)
        g_string_append_printf (colored, "  %s%.*s\033[0m%s", severity_sgr[s], (int) n,
                                lines[i] + 2, lines[i] + 2 + n);
      else
        g_string_append (colored, lines[i]);
    }
  fputs (colored->str, out);
}

void
ws_cli_write_data (FILE *out, const char *text)
{
  fputs (text, out);
}
