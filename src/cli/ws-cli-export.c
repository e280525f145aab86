/* ws-cli-export.c: `warpscope-cli export`: a chart as PNG, SVG or PDF, the numbers it plots as
 * CSV, or the session as a Chrome trace, with no display.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <gio/gunixoutputstream.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "ws-export.h"
#include "ws-file.h"

/* Sizes when none is given: a PNG for a slide, a figure for a paper (points). */
#define PNG_WIDTH 1200
#define PNG_HEIGHT 700
#define PAGE_WIDTH 720
#define PAGE_HEIGHT 420

static char *
list_charts (void)
{
  GString *s = g_string_new (NULL);

  for (int k = 0; k < WS_N_CHARTS; k++)
    g_string_append_printf (s, "%s%s", k > 0 ? ", " : "", ws_chart_kind_to_string (k));
  return g_string_free (s, FALSE);
}

/* PNG from "out.png", trace from "out.json" (Chrome's trace format is JSON). */
static gboolean
format_from_extension (const char *path, WsExportFormat *format)
{
  const char *dot = strrchr (path, '.');

  if (dot == NULL || strchr (dot, '/') != NULL)
    return FALSE;
  if (g_ascii_strcasecmp (dot, ".json") == 0)
    {
      *format = WS_EXPORT_TRACE;
      return TRUE;
    }
  return ws_export_format_from_string (dot + 1, format);
}

static char *
default_output (const char *input, const char *chart, WsExportFormat format)
{
  g_autofree char *base = g_path_get_basename (input);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  if (format == WS_EXPORT_TRACE)
    return g_strdup_printf ("%s-trace%s", base, ws_export_format_extension (format));
  return g_strdup_printf ("%s-%s%s", base, chart, ws_export_format_extension (format));
}

/* The occupancy chart shows a configuration: the chosen run's, else the first with launch
 * facts. */
static void
occupancy_from_run (WsSession *session, int id, WsChartOptions *options)
{
  GListModel *runs = ws_session_get_runs (session);
  WsDevice *device = ws_session_get_device (session);

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      const WsLaunch *l = ws_run_get_launch (run);

      if (l == NULL || (id != 0 && ws_run_get_id (run) != id))
        continue;
      options->block_size = (int) ws_run_get_config (run)->threads_per_block;
      options->registers = l->registers;
      options->smem_bytes = l->static_smem + l->dynamic_smem;
      break;
    }
  if (device != NULL)
    options->arch = ws_device_get_info (device)->sm;
}

/* A pipe: the export's bytes on stdout, nothing else there. */
static int
write_to_stdout (GPtrArray *sessions, const WsChartOptions *options, WsExportFormat format,
                 double scale)
{
  g_autoptr (GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  gboolean ok;

  fflush (stdout);
  switch (format)
    {
    case WS_EXPORT_TRACE:
      ok = ws_export_trace_to_stream (g_ptr_array_index (sessions, 0), out, &error);
      break;
    case WS_EXPORT_CSV:
      ok = ws_export_csv_to_stream (sessions, options, out, &error);
      break;
    case WS_EXPORT_PNG:
    case WS_EXPORT_SVG:
    case WS_EXPORT_PDF:
    default:
      bytes = ws_export_chart_to_bytes (sessions, options, format, scale, &error);
      if (bytes == NULL)
        {
          ws_cli_error ("export", _("could not draw the chart: %s"), error->message);
          return WS_CLI_EXIT_FAILED;
        }
      ok = g_output_stream_write_all (out, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL, NULL, &error);
      break;
    }
  if (!ok)
    {
      ws_cli_error ("export", _("could not write to stdout: %s"), error->message);
      return WS_CLI_EXIT_FAILED;
    }
  return WS_CLI_EXIT_OK;
}

/* What `export` was given, and what it made of it. */
typedef struct
{
  char *chart_name, *format_name, *theme_name;
  char *output;
  double width, height, scale;
  int run, compare;
  gboolean annotate;
  WsChartKind kind;
  WsExportFormat format;
  WsThemeKind theme;
} ExportOptions;

static void
export_options_clear (ExportOptions *o)
{
  g_clear_pointer (&o->chart_name, g_free);
  g_clear_pointer (&o->format_name, g_free);
  g_clear_pointer (&o->theme_name, g_free);
  g_clear_pointer (&o->output, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ExportOptions, export_options_clear)

static gboolean
parse_options (ExportOptions *o, const char *charts, int *argc, char ***argv)
{
  GOptionEntry entries[] = {
    { "chart", 'c', 0, G_OPTION_ARG_STRING, &o->chart_name,
      N_("timeline, speedup, blocks, occupancy, breakdown, roofline or params"), "CHART" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &o->format_name,
      N_("png, svg, pdf, csv (the chart's numbers) or trace (Chrome trace JSON, for Perfetto); "
         "default: from OUT's extension"), "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("The file to write (default FILE-CHART.EXT here); - writes it to stdout (then give "
         "--format)"), "OUT" },
    { "width", 'W', 0, G_OPTION_ARG_DOUBLE, &o->width,
      N_("Width: pixels for PNG (1200), points for SVG and PDF (720)"), "W" },
    { "height", 'H', 0, G_OPTION_ARG_DOUBLE, &o->height,
      N_("Height: pixels for PNG (700), points for SVG and PDF (420)"), "H" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &o->scale,
      N_("PNG pixels per unit: 2 or 3 for sharp slides (default 1)"), "S" },
    { "theme", 't', 0, G_OPTION_ARG_STRING, &o->theme_name,
      N_("light (default), dark or print"), "THEME" },
    { "run", 'r', 0, G_OPTION_ARG_INT, &o->run,
      N_("Only this run (timeline, breakdown, occupancy); default: every run"), "ID" },
    { "compare", 0, 0, G_OPTION_ARG_INT, &o->compare,
      N_("A second run beside --run: the timeline draws the two one above the other, each "
         "counted from its own start"), "ID" },
    { "annotate", 0, 0, G_OPTION_ARG_NONE, &o->annotate,
      N_("Write the findings on the chart (presentation mode)"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autofree char *description = NULL;

  description = g_strdup_printf (
    _("Charts: %s. With several FILEs, charts that compare (speedup) draw one curve per "
      "session; the others draw the first.\n\n"
      "Exit status: 0 written; 1 a FILE could not be read or OUT could not be written; 2 bad "
      "arguments (an unknown chart, format or theme, a run the session does not have, a chart "
      "the sessions have nothing for: blocks without a block-size sweep, params without a "
      "tunable parameter swept, speedup without a CPU baseline or of vector and matrix sizes "
      "together, roofline of a traced program)."),
    charts);
  context = ws_cli_context_new (
    "export", _("FILE…"),
    _("Writes a chart of a session as PNG, SVG or PDF (text stays text), the numbers behind "
      "it as CSV, or the whole session as a Chrome trace-event file that Perfetto and "
      "chrome://tracing open. Needs no display."),
    description, entries);
  return ws_cli_parse (context, "export", argc, argv);
}

/* The o->format, chart and o->theme named, and the numbers in their ranges. */
static int
check_options (ExportOptions *o, const char *charts, int argc)
{
  if (argc < 2)
    return ws_cli_usage_error ("export", _("which session? Give a file (.jsonl)."));

  if (o->format_name != NULL)
    {
      if (!ws_export_format_from_string (o->format_name, &o->format))
        return ws_cli_usage_error ("export", _("--format “%s” is not a format: use png, svg, "
                                               "pdf, csv or trace."),
                                   o->format_name);
    }
  else if (o->output == NULL || !format_from_extension (o->output, &o->format))
    return ws_cli_usage_error ("export", _("which format? Give --format png, svg, pdf, csv or "
                                           "trace, or an -o file ending in one of them."));
  if (o->chart_name != NULL && !ws_chart_kind_from_string (o->chart_name, &o->kind))
    return ws_cli_usage_error ("export", _("--chart “%s” is not a chart: use %s."),
                               o->chart_name, charts);
  if (o->chart_name == NULL && o->format != WS_EXPORT_TRACE)
    return ws_cli_usage_error ("export", _("which chart? Give --chart (%s)."), charts);
  if (o->theme_name != NULL && !ws_theme_kind_from_string (o->theme_name, &o->theme))
    return ws_cli_usage_error ("export", _("--theme “%s” is not a theme: use light, dark or "
                                           "print."),
                               o->theme_name);
  if (o->width < 0 || o->height < 0 || o->width > 20000 || o->height > 20000
      || !isfinite (o->width) || !isfinite (o->height))
    return ws_cli_usage_error ("export", _("--width and --height must be between 1 and "
                                           "20000."));
  if (!(o->scale > 0) || o->scale > 4)
    return ws_cli_usage_error ("export", _("--scale must be more than 0 and at most 4."));
  if (o->run < 0 || o->compare < 0)
    return ws_cli_usage_error ("export", _("--run and --compare take a run's number (1, 2, …)."));
  if (o->compare != 0 && o->run == 0)
    return ws_cli_usage_error ("export", _("--compare needs --run: give the run to compare "
                                           "it with."));
  return WS_CLI_EXIT_OK;
}

/* Every FILE, and the runs --run and --compare name in the first. */
static int
load_sessions (const ExportOptions *o, int argc, char **argv, GPtrArray *sessions)
{
  g_autoptr (GError) error = NULL;
  WsSession *main_session;

  for (int i = 1; i < argc; i++)
    {
      WsSession *session = ws_cli_load_session ("export", argv[i], &error);

      if (session == NULL)
        {
          ws_cli_error ("export", "%s", error->message);
          return WS_CLI_EXIT_FAILED;
        }
      g_ptr_array_add (sessions, session);
    }
  main_session = g_ptr_array_index (sessions, 0);
  if (o->run != 0 && ws_session_find_run (main_session, o->run) == NULL)
    {
      guint n = g_list_model_get_n_items (ws_session_get_runs (main_session));

      return ws_cli_usage_error ("export", _("%s has no run %d (it has %u runs)."), argv[1],
                                 o->run, n);
    }
  if (o->compare != 0 && ws_session_find_run (main_session, o->compare) == NULL)
    {
      guint n = g_list_model_get_n_items (ws_session_get_runs (main_session));

      return ws_cli_usage_error ("export", _("%s has no run %d (it has %u runs)."), argv[1],
                                 o->compare, n);
    }
  return WS_CLI_EXIT_OK;
}

/* -o, or a name made from the first FILE's; never one of the sessions being read. */
static int
choose_output (ExportOptions *o, int argc, char **argv)
{
  if (o->output == NULL)
    o->output = default_output (argv[1], ws_chart_kind_to_string (o->kind), o->format);
  if (!g_str_equal (o->output, "-"))
    {
      if (!ws_cli_check_output ("export", "-o", o->output))
        return WS_CLI_EXIT_USAGE;
      /* By device and inode: a link to a session, a second hard link, "./s.jsonl" and
       * "s.jsonl" are all the session. */
      for (int i = 1; i < argc; i++)
        if (ws_file_same (o->output, argv[i]))
          return ws_cli_usage_error ("export", _("-o %s is %s, a session being read: writing "
                                                 "there would replace the recording. Give "
                                                 "another file to write."),
                                     o->output, argv[i]);
    }
  return WS_CLI_EXIT_OK;
}

/* The chart's options: its size, theme, runs, and the occupancy's configuration. */
static void
chart_options (const ExportOptions *o, WsSession *main_session, WsChartOptions *options)
{
  double width = o->width, height = o->height;

  if (width == 0)
    width = o->format == WS_EXPORT_PNG ? PNG_WIDTH : PAGE_WIDTH;
  if (height == 0)
    height = o->format == WS_EXPORT_PNG ? PNG_HEIGHT : PAGE_HEIGHT;
  ws_chart_options_init (options, o->kind, ws_theme_get (o->theme), width, height);
  options->run = o->run;
  options->compare_run = o->compare;
  options->annotate = o->annotate;
  if (o->kind == WS_CHART_OCCUPANCY)
    occupancy_from_run (main_session, o->run, options);
}

/* The chart, its numbers or the trace, to the file or to stdout. */
static int
write_export (const ExportOptions *o, GPtrArray *sessions, const WsChartOptions *options)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (o->output);
  g_autoptr (GError) error = NULL;
  WsSession *main_session = g_ptr_array_index (sessions, 0);
  gboolean ok;

  /* A chart of nothing (a block-size chart without a block sweep, a speedup without a CPU
   * baseline) is refused before any file is opened, not written empty and not over OUT; so
   * are speedup curves that would share an axis they do not have in common. */
  if (o->format != WS_EXPORT_TRACE && !ws_chart_check (sessions, options, &error))
    {
      ws_cli_error ("export", _("%s Or choose another chart with --chart."), error->message);
      return WS_CLI_EXIT_USAGE;
    }

  if (g_str_equal (o->output, "-"))
    return write_to_stdout (sessions, options, o->format, o->scale);
  switch (o->format)
    {
    case WS_EXPORT_TRACE:
      ok = ws_export_trace (main_session, file, &error);
      break;
    case WS_EXPORT_CSV:
      ok = ws_export_csv (sessions, options, file, &error);
      break;
    case WS_EXPORT_PNG:
    case WS_EXPORT_SVG:
    case WS_EXPORT_PDF:
    default:
      ok = ws_export_chart (sessions, options, o->format, o->scale, file, &error);
      break;
    }
  if (!ok)
    {
      ws_cli_error ("export", _("could not write %s: %s"), o->output, error->message);
      return WS_CLI_EXIT_FAILED;
    }
  fprintf (stdout, _("Wrote %s\n"), o->output);
  return WS_CLI_EXIT_OK;
}

int
ws_cli_export (int argc, char **argv)
{
  g_auto (ExportOptions) o = { .scale = 1, .kind = WS_CHART_TIMELINE, .theme = WS_THEME_LIGHT };
  g_autoptr (GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *charts = list_charts ();
  WsChartOptions options;
  int status;

  if (!parse_options (&o, charts, &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if ((status = check_options (&o, charts, argc)) != WS_CLI_EXIT_OK
      || (status = load_sessions (&o, argc, argv, sessions)) != WS_CLI_EXIT_OK
      || (status = choose_output (&o, argc, argv)) != WS_CLI_EXIT_OK)
    return status;
  chart_options (&o, g_ptr_array_index (sessions, 0), &options);
  return write_export (&o, sessions, &options);
}
