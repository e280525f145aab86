/* fuzz-kernel-file.c: a libFuzzer entry point over what an own kernel brings in from outside:
 * the header of a kernel file (parsed, then every expression evaluated at the defaults), and
 * the same bytes read as NVRTC's log and as compute-sanitizer's report. Plain C, no GLib:
 * tests/test-kernel-file-header.c feeds it the examples mutated, and replay-kernel-file replays
 * corpus/kernel-file/ through it with any compiler.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include <stdlib.h>
#include <string.h>

#include "ws-kernel-file.h"
#include "ws-nvrtc-log.h"
#include "ws-sanitizer-report.h"

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* Tens of kilobytes each: static, not on the stack. */
  static WsKernelFile kf;
  static WsCompileDiag diags[16];
  static WsSanitizerFinding findings[8];
  WsSanitizerSummary summary;
  char *text;

  if (ws_kernel_file_parse ((const char *) data, size, &kf))
    {
      WsKfConfig cfg;
      uint64_t grid[3], n;
      double rtol, atol;
      char err[512];
      int which;

      ws_kernel_file_default_config (&kf, &cfg);
      ws_kernel_file_grid (&kf, &cfg, grid, err, sizeof err);
      ws_kernel_file_allowed (&kf, &cfg, &which, err, sizeof err);
      for (int i = 0; i < kf.n_args; i++)
        if (kf.args[i].is_buffer)
          ws_kernel_file_length (&kf, i, &cfg, &n, err, sizeof err);
        else
          {
            WsExprValue v;

            ws_kernel_file_eval (&kf, &kf.args[i].value, "arg", &cfg, &v, err, sizeof err);
          }
      ws_kernel_file_flops (&kf, &cfg);
      ws_kernel_file_bytes (&kf, &cfg);
      ws_kernel_file_tolerance (&kf, &cfg, &rtol, &atol);
    }
  for (int d = 0; d < 3; d++)
    ws_kernel_file_uses_block_macro ((const char *) data, size, d);

  /* The log and report readers take NUL-terminated text. */
  text = malloc (size + 1);
  if (text == NULL)
    return 0;
  memcpy (text, data, size);
  text[size] = '\0';
  ws_nvrtc_parse_log (text, "kernel.cu", diags, 16);
  ws_sanitizer_parse (text, findings, 8, &summary);
  free (text);
  return 0;
}
