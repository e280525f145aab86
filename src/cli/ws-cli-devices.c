/* ws-cli-devices.c: `warpscope-cli devices`: the runner's --device-info for people: each GPU
 * with its limits and measured bandwidths, then every problem the runner diagnosed, with what
 * to do about it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

static void
append_line (GString *out, const char *label, const char *text, gsize width)
{
  g_autofree char *prefix = g_strdup_printf ("  %-12s", label);

  g_string_append (out, prefix);
  ws_cli_append_wrapped (out, text, ws_cli_text_width (prefix), ws_cli_text_width (prefix),
                         width);
  g_string_append_c (out, '\n');
}

/* "9.41 GB/s", or with the start-up samples' spread: "9.41 GB/s (8.90–9.77, 21 copies)". */
static char *
format_ceiling (double gbs, const WsRateSpread *spread)
{
  g_autofree char *median = ws_units_gbs (gbs);
  g_autofree char *lo = NULL, *hi = NULL;

  if (spread->n <= 1)
    return g_steal_pointer (&median);
  lo = ws_units_number (spread->min, 3);
  hi = ws_units_number (spread->max, 3);
  /* Translators: a copy rate, then the lowest and highest of the samples it is the median
   * of, and how many there were. */
  return g_strdup_printf (g_dngettext (NULL, "%s (%s–%s, %d copy)",
                                       "%s (%s–%s, %d copies)", spread->n),
                          median, lo, hi, spread->n);
}

static void
append_device (GString *out, WsDevice *device, gsize width)
{
  const WsDeviceInfo *d = ws_device_get_info (device);
  g_autofree char *memory = ws_units_bytes ((double) d->memory_bytes);
  g_autofree char *free_memory = ws_units_bytes ((double) d->memory_free_bytes);
  g_autofree char *l2 = ws_units_bytes_binary ((double) d->l2_bytes);
  g_autofree char *smem = ws_units_bytes_binary ((double) d->smem_per_sm);
  g_autofree char *smem_block = ws_units_bytes_binary ((double) d->smem_per_block);
  g_autofree char *smem_optin = ws_units_bytes_binary ((double) d->smem_per_block_optin);
  g_autofree char *measured = ws_units_gbs (d->bandwidth_measured_gbs);
  g_autofree char *theoretical = ws_units_gbs (d->bandwidth_theoretical_gbs);
  g_autofree char *peak = ws_units_gflops (d->fp32_peak_gflops);
  g_autofree char *h2d_pinned = format_ceiling (d->h2d_pinned_gbs, &d->h2d_pinned);
  g_autofree char *d2h_pinned = format_ceiling (d->d2h_pinned_gbs, &d->d2h_pinned);
  g_autofree char *h2d_pageable = format_ceiling (d->h2d_pageable_gbs, &d->h2d_pageable);
  g_autofree char *d2h_pageable = format_ceiling (d->d2h_pageable_gbs, &d->d2h_pageable);
  g_autofree char *text = NULL;

  g_string_append_printf (out, _("GPU %d: %s (%s, compute capability %s)\n"), d->index,
                          d->name != NULL ? d->name : _("unnamed"), d->sm ? d->sm : "?",
                          d->compute_capability ? d->compute_capability : "?");
  text = g_strdup_printf (_("%d SMs at %.2f GHz; %s of memory (%s free), ECC %s; %s of L2"),
                          d->sm_count, d->sm_clock_khz / 1e6, memory, free_memory,
                          d->ecc ? _("on") : _("off"), l2);
  append_line (out, _("chip"), text, width);
  g_free (text);
  text = g_strdup_printf (_("%d threads, %d blocks, %d K registers, %s of shared memory; a "
                            "block: %d threads, %s of shared memory (%s after opting in)"),
                          d->max_threads_per_sm, d->max_blocks_per_sm, d->regs_per_sm / 1024,
                          smem, d->max_threads_per_block, smem_block, smem_optin);
  append_line (out, _("per SM"), text, width);
  g_free (text);
  text = g_strdup_printf (_("%s measured device copy (%s theoretical); FP32 peak %s"), measured,
                          theoretical, peak);
  append_line (out, _("memory"), text, width);
  g_free (text);
  text = g_strdup_printf (_("pinned %s in, %s out; pageable %s in, %s out; %d copy engines"),
                          h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable, d->async_engines);
  append_line (out, _("host copies"), text, width);
}

static void
append_software (GString *out, const WsHello *hello, gsize width)
{
  const char *runner = hello->runner ? hello->runner : "?";
  const char *build = hello->build ? hello->build : "?";
  const char *archs = hello->gpu_archs ? hello->gpu_archs : "?";
  const char *host = hello->host ? hello->host : "?";
  const char *runtime = hello->runtime_cuda ? hello->runtime_cuda : "?";
  g_autofree char *driver = NULL;
  g_autofree char *text = NULL;

  if (hello->driver_found && hello->driver_cuda != NULL)
    driver = g_strdup_printf (_("supports CUDA %s"), hello->driver_cuda);
  else
    driver = g_strdup (hello->driver_found ? _("found") : _("not found"));
  text = g_strdup_printf (_("host %s; NVIDIA driver %s; CUDA runtime %s; runner %s (%s build, "
                            "machine code for sm %s)"),
                          host, driver, runtime, runner, build, archs);
  g_string_append (out, _("Software\n  "));
  ws_cli_append_wrapped (out, text, 2, 2, width);
  g_string_append_c (out, '\n');
}

int
ws_cli_devices (int argc, char **argv)
{
  g_auto (WsCliRunnerArgs) runner_args = { 0 };
  int timeout = 120;
  gboolean verbose = FALSE;
  GOptionEntry entries[] = {
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout,
      N_("Stop the runner when it prints nothing for this long (default 120; 0: never)"),
      "SECONDS" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      N_("Also show what the runner wrote on stderr"), NULL },
    { NULL }
  };
  const char *const args[] = { "--device-info", NULL };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  WsCliRunnerOptions options = { .command = "devices", .timeout = 0 };
  GListModel *devices;
  GPtrArray *errors;
  gsize width;
  int status;

  context = ws_cli_runner_context_new (
    "devices",
    _("Describes the GPUs the runner sees (limits, memory, measured bandwidths) and every "
      "problem it diagnosed with the set-up, with what to do about it."),
    _("Exit status (the runner's): 0 the GPUs are usable; 3 no usable GPU (no driver, a "
      "driver older than the runtime, no device, no machine code for it); 5 an internal "
      "error. And: 2 bad arguments; 6 the runner could not be started or did not finish."),
    &runner_args, entries);
  if (!ws_cli_parse (context, "devices", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_usage_error ("devices", _("“%s”: devices takes no arguments."), argv[1]);
  if (timeout < 0)
    return ws_cli_usage_error ("devices", _("--timeout must be 0 (never) or more seconds."));

  session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  ws_cli_runner_args_apply (&runner_args, &options);
  options.timeout = (guint) timeout;
  options.verbose = verbose;
  status = ws_cli_run_runner (&options, args, session);
  if (ws_session_get_hello (session) == NULL)
    return status;

  width = (gsize) ws_cli_terminal_width (stdout);
  devices = ws_session_get_devices (session);
  for (guint i = 0; i < g_list_model_get_n_items (devices); i++)
    {
      g_autoptr (WsDevice) device = g_list_model_get_item (devices, i);

      append_device (out, device, width);
      g_string_append_c (out, '\n');
    }
  if (g_list_model_get_n_items (devices) == 0)
    g_string_append (out, _("No GPU can be used here.\n\n"));
  append_software (out, ws_session_get_hello (session), width);
  ws_cli_write (stdout, out->str);

  errors = ws_session_get_errors (session);
  if (errors->len > 0)
    {
      ws_cli_write (stdout, _("\nProblems\n"));
      ws_cli_print_session_errors (stdout, session, (int) width);
    }
  else
    ws_cli_write (stdout, _("\nNo problems found.\n"));
  return status;
}
