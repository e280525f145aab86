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

int
ws_cli_export (int argc, char **argv)
{
  g_autofree char *chart_name = NULL, *format_name = NULL, *theme_name = NULL;
  g_autofree char *output = NULL;
  double width = 0, height = 0, scale = 1;
  int run = 0, compare = 0;
  gboolean annotate = FALSE;
  GOptionEntry entries[] = {
    { "chart", 'c', 0, G_OPTION_ARG_STRING, &chart_name,
      N_("timeline, speedup, blocks, occupancy, breakdown, roofline or params"), "CHART" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_("png, svg, pdf, csv (the chart's numbers) or trace (Chrome trace JSON, for Perfetto); "
         "default: from OUT's extension"), "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("The file to write (default FILE-CHART.EXT here); - writes it to stdout (then give "
         "--format)"), "OUT" },
    { "width", 'W', 0, G_OPTION_ARG_DOUBLE, &width,
      N_("Width: pixels for PNG (1200), points for SVG and PDF (720)"), "W" },
    { "height", 'H', 0, G_OPTION_ARG_DOUBLE, &height,
      N_("Height: pixels for PNG (700), points for SVG and PDF (420)"), "H" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale,
      N_("PNG pixels per unit: 2 or 3 for sharp slides (default 1)"), "S" },
    { "theme", 't', 0, G_OPTION_ARG_STRING, &theme_name,
      N_("light (default), dark or print"), "THEME" },
    { "run", 'r', 0, G_OPTION_ARG_INT, &run,
      N_("Only this run (timeline, breakdown, occupancy); default: every run"), "ID" },
    { "compare", 0, 0, G_OPTION_ARG_INT, &compare,
      N_("A second run beside --run: the timeline draws the two one above the other, each "
         "counted from its own start"), "ID" },
    { "annotate", 0, 0, G_OPTION_ARG_NONE, &annotate,
      N_("Write the findings on the chart (presentation mode)"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *charts = list_charts ();
  g_autofree char *description = NULL;
  WsChartKind kind = WS_CHART_TIMELINE;
  WsExportFormat format;
  WsThemeKind theme = WS_THEME_LIGHT;
  WsChartOptions options;
  WsSession *main_session;
  gboolean ok;

  description = g_strdup_printf (
    _("Charts: %s. With several FILEs, charts that compare (speedup) draw one curve per "
      "session; the others draw the first.\n\n"
      "Exit status: 0 written; 1 a FILE could not be read or OUT could not be written; 2 bad "
      "arguments (an unknown chart, format or theme, a run the session does not have, a chart "
      "the sessions have nothing for: blocks without a block-size sweep, params without a "
      "tunable parameter swept, speedup of vector and matrix sizes together)."),
    charts);
  context = ws_cli_context_new (
    "export", _("FILE…"),
    _("Writes a chart of a session as PNG, SVG or PDF (text stays text), the numbers behind "
      "it as CSV, or the whole session as a Chrome trace-event file that Perfetto and "
      "chrome://tracing open. Needs no display."),
    description, entries);
  if (!ws_cli_parse (context, "export", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc < 2)
    return ws_cli_usage_error ("export", _("which session? Give a file (.jsonl)."));

  if (format_name != NULL)
    {
      if (!ws_export_format_from_string (format_name, &format))
        return ws_cli_usage_error ("export", _("--format “%s” is not a format: use png, svg, "
                                               "pdf, csv or trace."),
                                   format_name);
    }
  else if (output == NULL || !format_from_extension (output, &format))
    return ws_cli_usage_error ("export", _("which format? Give --format png, svg, pdf, csv or "
                                           "trace, or an -o file ending in one of them."));
  if (chart_name != NULL && !ws_chart_kind_from_string (chart_name, &kind))
    return ws_cli_usage_error ("export", _("--chart “%s” is not a chart: use %s."), chart_name,
                               charts);
  if (chart_name == NULL && format != WS_EXPORT_TRACE)
    return ws_cli_usage_error ("export", _("which chart? Give --chart (%s)."), charts);
  if (theme_name != NULL && !ws_theme_kind_from_string (theme_name, &theme))
    return ws_cli_usage_error ("export", _("--theme “%s” is not a theme: use light, dark or "
                                           "print."),
                               theme_name);
  if (width < 0 || height < 0 || width > 20000 || height > 20000 || !isfinite (width)
      || !isfinite (height))
    return ws_cli_usage_error ("export", _("--width and --height must be between 1 and "
                                           "20000."));
  if (!(scale > 0) || scale > 4)
    return ws_cli_usage_error ("export", _("--scale must be more than 0 and at most 4."));
  if (run < 0 || compare < 0)
    return ws_cli_usage_error ("export", _("--run and --compare take a run's number (1, 2, …)."));
  if (compare != 0 && run == 0)
    return ws_cli_usage_error ("export", _("--compare needs --run: give the run to compare "
                                           "it with."));

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
  if (run != 0 && ws_session_find_run (main_session, run) == NULL)
    {
      guint n = g_list_model_get_n_items (ws_session_get_runs (main_session));

      return ws_cli_usage_error ("export", _("%s has no run %d (it has %u runs)."), argv[1], run,
                                 n);
    }
  if (compare != 0 && ws_session_find_run (main_session, compare) == NULL)
    {
      guint n = g_list_model_get_n_items (ws_session_get_runs (main_session));

      return ws_cli_usage_error ("export", _("%s has no run %d (it has %u runs)."), argv[1],
                                 compare, n);
    }

  if (output == NULL)
    output = default_output (argv[1], ws_chart_kind_to_string (kind), format);
  if (!g_str_equal (output, "-"))
    {
      if (!ws_cli_check_output ("export", "-o", output))
        return WS_CLI_EXIT_USAGE;
      /* By device and inode: a link to a session, a second hard link, "./s.jsonl" and
       * "s.jsonl" are all the session. */
      for (int i = 1; i < argc; i++)
        if (ws_file_same (output, argv[i]))
          return ws_cli_usage_error ("export", _("-o %s is %s, a session being read: writing "
                                                 "there would replace the recording. Give "
                                                 "another file to write."),
                                     output, argv[i]);
    }
  file = g_file_new_for_commandline_arg (output);
  if (width == 0)
    width = format == WS_EXPORT_PNG ? PNG_WIDTH : PAGE_WIDTH;
  if (height == 0)
    height = format == WS_EXPORT_PNG ? PNG_HEIGHT : PAGE_HEIGHT;
  ws_chart_options_init (&options, kind, ws_theme_get (theme), width, height);
  options.run = run;
  options.compare_run = compare;
  options.annotate = annotate;
  if (kind == WS_CHART_OCCUPANCY)
    occupancy_from_run (main_session, run, &options);

  /* A chart of nothing (a block-size chart without a block sweep) is refused, not written
   * empty; so are speedup curves that would share an axis they do not have in common. */
  if (format != WS_EXPORT_TRACE && !ws_chart_check (sessions, &options, &error))
    {
      ws_cli_error ("export", _("%s Or choose another chart with --chart."), error->message);
      return WS_CLI_EXIT_USAGE;
    }

  if (g_str_equal (output, "-"))
    return write_to_stdout (sessions, &options, format, scale);
  switch (format)
    {
    case WS_EXPORT_TRACE:
      ok = ws_export_trace (main_session, file, &error);
      break;
    case WS_EXPORT_CSV:
      ok = ws_export_csv (sessions, &options, file, &error);
      break;
    case WS_EXPORT_PNG:
    case WS_EXPORT_SVG:
    case WS_EXPORT_PDF:
    default:
      ok = ws_export_chart (sessions, &options, format, scale, file, &error);
      break;
    }
  if (!ok)
    {
      ws_cli_error ("export", _("could not write %s: %s"), output, error->message);
      return WS_CLI_EXIT_FAILED;
    }
  fprintf (stdout, _("Wrote %s\n"), output);
  return WS_CLI_EXIT_OK;
}
