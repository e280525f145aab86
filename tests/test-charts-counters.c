/* test-charts-counters.c: what the charts draw of the GPU's counters (docs/counters.md),
 * beside the theory they draw already: the block-size chart's achieved occupancy, its legend,
 * its axis and its CSV.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-charts-util.h"

/* The lines of a recording as they are, and after each launch record a counters record whose
 * achieved occupancy is four fifths of the theoretical (a stand-in: no recording has counters
 * yet). */
static GPtrArray *
lines_with_counters (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *o;

      if (!*lines[i])
        continue;
      g_ptr_array_add (out, g_strdup (lines[i]));
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      o = json_node_get_object (json_parser_get_root (parser));
      if (g_str_equal (json_object_get_string_member (o, "type"), "launch"))
        g_ptr_array_add (out, g_strdup_printf (
                                "{\"type\":\"counters\",\"run\":%" G_GINT64_FORMAT ","
                                "\"chip\":\"GH100\",\"groups\":\"basic\",\"passes\":2,"
                                "\"cost_ns\":1000000,\"values\":{\"achieved_occupancy\":%g}}",
                                json_object_get_int_member (o, "run"),
                                80 * json_object_get_double_member (o, "occupancy")));
    }
  return out;
}

/* A block sweep whose counters were read draws the achieved occupancy under the theoretical
 * on the right-hand axis, named in the legend and the axis; one without draws neither. */
static void
test_blocks_achieved (void)
{
  g_autoptr (GPtrArray) lines = lines_with_counters ("vector-add-blocks-h200.jsonl");
  g_autoptr (WsSession) counted = NULL;
  WsChartOptions options;
  g_autofree char *with = NULL, *without = NULL;

  counted = session_from_lines (lines);
  g_assert_nonnull (ws_run_get_counters (ws_session_find_run (counted, 1)));
  ws_chart_options_init (&options, WS_CHART_BLOCKS, NULL, 1200, 700);
  {
    g_autoptr (GPtrArray) sessions = one (counted);
    g_autoptr (GBytes) svg = render (sessions, &options, WS_EXPORT_SVG, 1);

    g_autoptr (GOutputStream) stream = g_memory_output_stream_new_resizable ();
    g_autofree char *text = NULL;

    g_assert_true (ws_export_csv_to_stream (sessions, &options, stream, NULL));
    g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));
    g_assert_true (g_output_stream_close (stream, NULL, NULL));
    text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
    with = svg_text_content (svg);
    /* The CSV carries it too: block 32's 50% theoretical, 40% achieved. */
    g_assert_nonnull (strstr (text, ",registers,achieved_occupancy_pct,best,"));
    g_assert_nonnull (strstr (text, ",0.5,blocks_per_sm,32,12,40,"));
  }
  {
    g_autoptr (WsSession) plain = load_recording ("vector-add-blocks-h200.jsonl");
    g_autoptr (GPtrArray) sessions = one (plain);
    g_autoptr (GBytes) svg = render (sessions, &options, WS_EXPORT_SVG, 1);

    without = svg_text_content (svg);
  }
  g_assert_nonnull (strstr (with, "achieved occupancy, measured (right axis)"));
  g_assert_nonnull (strstr (with, "Occupancy, theoretical and achieved"));
  g_assert_null (strstr (without, "achieved occupancy"));
  g_assert_nonnull (strstr (without, "Theoretical occupancy"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/charts/counters/blocks-achieved", test_blocks_achieved);
  return g_test_run ();
}
