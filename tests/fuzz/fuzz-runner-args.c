/* fuzz-runner-args.c: warpscope-runner's command line (ws_args_parse) and the texts it makes
 * of what it read. The input is argv: one word per line (a NUL also ends a word, as it would
 * in a real argv), after the program's name. Plain C like the runner: no GLib.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ws-args.h"

/* More words than any real command line; the rest of the input is left out. */
#define MAX_WORDS 256

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  return 0;
}

static void
check_texts (const WsOptions *opts)
{
  char buf[128];

  for (int k = 0; k < opts->n_kernels; k++)
    for (int s = 0; s < opts->n_sizes; s++)
      {
        uint64_t shape[3];

        ws_size_shape (&opts->sizes[s], opts->kernels[k], shape);
        ws_shape_text (opts->kernels[k], shape, buf, sizeof buf);
        assert (memchr (buf, '\0', sizeof buf) != NULL);
      }
  for (int t = 0; t < opts->n_transfers; t++)
    {
      ws_transfer_text (opts->transfers[t].kind, opts->transfers[t].streams, buf, sizeof buf);
      assert (buf[0] != '\0');
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* Each word in an allocation of its own and the options on the heap: a read past either
   * is one AddressSanitizer sees. */
  char *argv[MAX_WORDS + 2];
  int argc = 0;
  size_t start = 0;
  WsOptions *opts = malloc (sizeof *opts);
  WsArgError err;
  int ok;

  argv[argc++] = strdup ("warpscope-runner");
  for (size_t i = 0; i <= size && argc <= MAX_WORDS; i++)
    if (i == size || data[i] == '\n' || data[i] == '\0')
      {
        if (i == size && i == start && argc > 1)
          break; /* a last newline ends the last word; it does not start an empty one */
        argv[argc] = malloc (i - start + 1);
        memcpy (argv[argc], data + start, i - start);
        argv[argc][i - start] = '\0';
        argc++;
        start = i + 1;
      }
  argv[argc] = NULL;

  ok = ws_args_parse (argc, argv, opts, &err);
  if (ok)
    {
      assert (err.code == WS_ERROR_NONE);
      assert (opts->mode != WS_MODE_NONE);
      assert (opts->n_kernels >= 0 && opts->n_kernels <= WS_MAX_KERNELS);
      assert (opts->n_sizes >= 0 && opts->n_sizes <= WS_MAX_LIST);
      assert (opts->n_blocks >= 0 && opts->n_blocks <= WS_MAX_LIST);
      check_texts (opts);
    }
  else
    {
      /* A refusal names its code and says what to write instead. */
      assert (err.code != WS_ERROR_NONE);
      assert (memchr (err.message, '\0', sizeof err.message) != NULL);
      assert (err.message[0] != '\0');
    }

  for (int i = 0; i < argc; i++)
    free (argv[i]);
  free (opts);
  return 0;
}
