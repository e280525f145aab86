/* fuzz-report.c: what `warpscope-cli report` says about a session read from the input: the
 * findings, the fastest configurations and the crossovers, in its four formats.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include "ws-cli-report.h"

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  ws_fuzz_init_glib ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (WsSession) session = ws_fuzz_session_from_lines (data, size);
  g_autoptr (WsCliReport) report = NULL;
  g_autoptr (GString) out = g_string_new (NULL);

  if (ws_session_get_hello (session) == NULL)
    return 0; /* the CLI refuses it before a report is made */
  report = ws_cli_report_new (session, "fuzz.jsonl", WS_SEVERITY_INFO);
  ws_cli_report_write_table (report, out, 80);
  g_assert (g_utf8_validate (out->str, (gssize) out->len, NULL));
  g_string_truncate (out, 0);
  ws_cli_report_write_table (report, out, 0);
  g_string_truncate (out, 0);
  ws_cli_report_write_markdown (report, out);
  g_string_truncate (out, 0);
  ws_cli_report_write_csv (report, out);
  g_string_truncate (out, 0);
  ws_cli_report_write_json (report, out);
  g_assert (g_utf8_validate (out->str, (gssize) out->len, NULL));
  return 0;
}
