/* test-cli-terminal.c: warpscope-cli's text on a terminal and through a pipe: help wrapped to
 * the width (80 columns in a pipe), severity colours only on a terminal and never with
 * NO_COLOR.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-cli.h"

/* Display columns, as a terminal counts them: a CJK character takes two. */
static gsize
columns (const char *line)
{
  gsize n = 0;

  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p))
    n += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  return n;
}

/* The commands `warpscope-cli --help` lists, each line "  NAME  summary". */
static GPtrArray *
list_commands (void)
{
  g_auto (Result) r = { 0 };
  g_auto (GStrv) lines = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  gboolean in_list = FALSE;

  run_cli (&r, (const char *[]) { "--help", NULL });
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_equal (lines[i], "Commands:"))
        in_list = TRUE;
      else if (in_list && g_str_has_prefix (lines[i], "  ") && lines[i][2] != ' ')
        g_ptr_array_add (names, g_strndup (lines[i] + 2, strcspn (lines[i] + 2, " ")));
      else if (in_list && *lines[i] == '\0')
        break;
    }
  return names;
}

static void
assert_fits (const char *what, const char *text, gsize width)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  g_assert_cmpuint (g_strv_length (lines), >, 5);
  for (guint i = 0; lines[i] != NULL; i++)
    if (columns (lines[i]) > width)
      g_error ("%s: line %u is %" G_GSIZE_FORMAT " columns wide, more than %" G_GSIZE_FORMAT
               ":\n%s", what, i + 1, columns (lines[i]), width, lines[i]);
}

static void
check_help_width (const char *language)
{
  g_autoptr (GPtrArray) commands = list_commands ();
  g_autofree char *lang = g_strdup_printf ("LANGUAGE=%s", language);
  const char *const envp[] = { lang, g_str_equal (language, "C") ? "LC_ALL=C.UTF-8"
                                                                 : "LC_ALL=zh_CN.UTF-8", NULL };
  g_auto (Result) main_help = { 0 };

  g_assert_cmpuint (commands->len, >=, 10);
  run_cli_full (&main_help, (const char *[]) { "--help", NULL }, envp, NULL);
  assert_fits ("warpscope-cli --help", main_help.out, 80);
  for (guint i = 0; i < commands->len; i++)
    {
      const char *command = g_ptr_array_index (commands, i);
      g_auto (Result) r = { 0 };
      g_autofree char *what = g_strdup_printf ("warpscope-cli %s --help (%s)", command, language);

      run_cli_full (&r, (const char *[]) { command, "--help", NULL }, envp, NULL);
      g_assert_cmpint (r.status, ==, 0);
      assert_fits (what, r.out, 80);
    }
  {
    g_auto (Result) r = { 0 };

    run_cli_full (&r, (const char *[]) { "targets", "add", "--help", NULL }, envp, NULL);
    g_assert_cmpint (r.status, ==, 0);
    assert_fits ("warpscope-cli targets add --help", r.out, 80);
  }
}

/* Piped, no line of any command's --help is wider than 80 columns; every option is still
 * there, its description wrapped under itself. */
static void
test_help_width (void)
{
  g_auto (Result) r = { 0 };

  check_help_width ("C");
  check_help_width ("zh_CN");
  run_cli (&r, (const char *[]) { "export", "--help", NULL });
  g_assert_nonnull (strstr (r.out, "\n  --compare=ID            A second run beside --run: the "
                                   "timeline draws the two\n                          one above "
                                   "the other"));
}

/* `args` run in a pseudo-terminal (script(1)), `env` added. */
static char *
run_in_terminal (const char *const *args, const char *const *env)
{
  g_autofree char *cli = cli_path ();
  g_autoptr (GString) command = g_string_new (NULL);
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  int status = 0;

  if (g_find_program_in_path ("script") == NULL)
    return NULL;
  g_string_append (command, g_shell_quote (cli));
  for (guint i = 0; args[i] != NULL; i++)
    {
      g_autofree char *quoted = g_shell_quote (args[i]);

      g_string_append_printf (command, " %s", quoted);
    }
  envp = g_environ_setenv (envp, "TERM", "xterm-256color", TRUE);
  envp = g_environ_unsetenv (envp, "NO_COLOR");
  for (guint i = 0; env != NULL && env[i] != NULL; i += 2)
    envp = g_environ_setenv (envp, env[i], env[i + 1], TRUE);
  g_assert_true (g_spawn_sync (NULL,
                               (char *[]) { "script", "-qec", command->str, "/dev/null", NULL },
                               envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  return out;
}

/* On a terminal the severities of the findings are coloured; NO_COLOR and a pipe get none,
 * nor do the CSV and JSON. */
static void
test_severity_colors (void)
{
  g_autofree char *sample = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *trace = sample_path ("trace-vector-add-h200.jsonl");
  g_autofree char *tty = run_in_terminal ((const char *[]) { "report", sample, NULL }, NULL);
  g_autofree char *no_color = NULL;
  g_autofree char *tty_trace = NULL;
  g_autofree char *tty_json = NULL;
  g_auto (Result) piped = { 0 };

  if (tty == NULL)
    {
      g_test_skip ("script(1) is not installed");
      return;
    }
  g_assert_nonnull (strstr (tty, "  \033[1;31mhigh\033[0m    Small grid"));
  g_assert_nonnull (strstr (tty, "  \033[33mmedium\033[0m  Transfer-bound"));
  g_assert_nonnull (strstr (tty, "  \033[36mlow\033[0m     Small copies"));
  /* Only the severities: the table and the findings' text stay plain. */
  g_assert_null (strstr (tty, "\033[36mlow\033[0m     Small copies: 4.00 KB each\033"));

  tty_trace = run_in_terminal ((const char *[]) { "report", trace, NULL }, NULL);
  g_assert_nonnull (strstr (tty_trace, "\033[0m"));

  no_color = run_in_terminal ((const char *[]) { "report", sample, NULL },
                             (const char *[]) { "NO_COLOR", "1", NULL });
  g_assert_nonnull (strstr (no_color, "  high    Small grid"));
  g_assert_null (strchr (no_color, '\033'));

  tty_json = run_in_terminal ((const char *[]) { "report", sample, "--format", "json", NULL },
                             NULL);
  g_assert_null (strchr (tty_json, '\033'));

  run_cli (&piped, (const char *[]) { "report", sample, NULL });
  g_assert_cmpint (piped.status, ==, 0);
  g_assert_nonnull (strstr (piped.out, "  high    Small grid"));
  g_assert_null (strchr (piped.out, '\033'));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/help/width", test_help_width);
  g_test_add_func ("/cli/color/severity", test_severity_colors);
  return g_test_run ();
}
