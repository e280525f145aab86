/* ws-args-values.c: the values of the runner's other options: bounded whole numbers, kernel
 * names, transfer modes, CPU baselines, and an own kernel's --param and --arch.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-args-private.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
ws_transfer_text (WsTransfer transfer, int streams, char *buf, size_t len)
{
  if (transfer == WS_TRANSFER_STREAMS)
    snprintf (buf, len, "%s:%d", ws_transfer_to_string (transfer), streams);
  else
    snprintf (buf, len, "%s", ws_transfer_to_string (transfer));
  return buf;
}

int
_ws_args_parse_int (const char *option, const char *value, long min, long max, long *out,
                    WsArgError *err)
{
  WsErrorCode code = strcmp (option, "--reps") == 0 ? WS_ERROR_INVALID_REPS : WS_ERROR_BAD_ARGUMENT;
  char *end;
  long v;

  errno = 0;
  v = strtol (value, &end, 10);
  if (errno != 0 || end == value || *end != '\0')
    return fail (err, code, "%s needs a whole number, not '%s'", option, value);
  if (v < min || v > max)
    return fail (err, code, "%s must be between %ld and %ld, not %ld", option, min, max, v);
  *out = v;
  return 1;
}

int
_ws_args_parse_kernels (WsOptions *opts, const char *list, WsArgError *err)
{
  const char *p = list;

  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      char name[64];
      const WsKernelDesc *k;

      snprintf (name, sizeof name, "%.*s", (int) (len < 63 ? len : 63), p);
      k = ws_catalog_find (name);
      if (k == NULL)
        {
          char known[1024] = "";

          for (size_t i = 0; i < ws_catalog_size (); i++)
            if (!ws_catalog_get (i)->hidden)
              {
                if (known[0])
                  strncat (known, ", ", sizeof known - strlen (known) - 1);
                strncat (known, ws_catalog_get (i)->name, sizeof known - strlen (known) - 1);
              }
          return fail (err, WS_ERROR_UNKNOWN_KERNEL,
                       "there is no kernel called '%s'; the kernels are: %s (see --list)", name,
                       known);
        }
      if (opts->n_kernels >= WS_MAX_KERNELS)
        return fail (err, WS_ERROR_BAD_ARGUMENT,
                     "--kernel names more than %d kernels: name fewer, and run the others in a "
                     "session of their own",
                     WS_MAX_KERNELS);
      opts->kernels[opts->n_kernels++] = k;
      if (comma == NULL)
        return 1;
      p = comma + 1;
    }
}

/* streams:K, K from 1 to WS_MAX_STREAMS; 0 when the item is not that. */
static int
parse_streams (const char *p, size_t len)
{
  int k = 0;

  if (len < 9 || strncmp (p, "streams:", 8) != 0)
    return 0;
  for (size_t i = 8; i < len; i++)
    {
      if (!isdigit ((unsigned char) p[i]) || k > WS_MAX_STREAMS)
        return 0;
      k = k * 10 + (p[i] - '0');
    }
  return k >= 1 && k <= WS_MAX_STREAMS ? k : 0;
}

int
_ws_args_parse_transfers (WsOptions *opts, const char *list, WsArgError *err)
{
  const char *p = list;

  opts->n_transfers = 0;
  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      WsTransferMode t = { WS_TRANSFER_PAGEABLE, 1 };
      char a[24], word[16];
      WsTransfer named = WS_TRANSFER_OTHER;

      if (len < sizeof word)
        {
          memcpy (word, p, len);
          word[len] = '\0';
          named = ws_transfer_from_string (word);
        }
      /* streams:K is read here, with its bounds. */
      if (named == WS_TRANSFER_PAGEABLE || named == WS_TRANSFER_PINNED)
        t.kind = named;
      else if ((t.streams = parse_streams (p, len)) > 0)
        t.kind = WS_TRANSFER_STREAMS;
      else if (len >= 7 && strncmp (p, "streams", 7) == 0)
        return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                     "--transfer: '%.*s' is not a transfer mode; write streams:K with K, the "
                     "number of streams (and pieces), from 1 to %d, such as streams:4",
                     (int) (len < 40 ? len : 40), p, WS_MAX_STREAMS);
      else
        return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                     "--transfer: '%.*s' is not a transfer mode; use pageable (ordinary "
                     "malloc'd host memory), pinned (page-locked, cudaMallocHost) or streams:K "
                     "(pinned, the problem cut into K pieces over K streams, K from 1 to %d), "
                     "or several: pageable,pinned,streams:4",
                     (int) (len < 40 ? len : 40), p, WS_MAX_STREAMS);
      for (int i = 0; i < opts->n_transfers; i++)
        if (opts->transfers[i].kind == t.kind && opts->transfers[i].streams == t.streams)
          return fail (err, WS_ERROR_UNKNOWN_TRANSFER, "--transfer names %s twice",
                       ws_transfer_text (t.kind, t.streams, a, sizeof a));
      opts->transfers[opts->n_transfers++] = t;
      if (comma == NULL)
        return 1;
      p = comma + 1;
    }
}

int
_ws_args_parse_cpu (WsOptions *opts, const char *value, WsArgError *err)
{
  if (strcmp (value, "none") == 0)
    opts->cpu = 0;
  else if (strcmp (value, "1") == 0)
    opts->cpu = WS_CPU_ONE;
  else if (strcmp (value, "all") == 0)
    opts->cpu = WS_CPU_ALL;
  else if (strcmp (value, "1,all") == 0 || strcmp (value, "all,1") == 0)
    opts->cpu = WS_CPU_ONE | WS_CPU_ALL;
  else
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--cpu takes none, 1 (one thread), all (every core) or 1,all; not '%s'", value);
  return 1;
}

/* NAME=V[,V…]: the values are checked against the header once it is read. */
int
_ws_args_parse_param (WsOptions *opts, const char *value, WsArgError *err)
{
  const char *eq = strchr (value, '=');

  if (eq == NULL || eq == value || eq[1] == '\0')
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--param takes NAME=VALUES, such as --param TILE=8,16,32, not '%.60s'", value);
  for (const char *p = value; p < eq; p++)
    if (!(isalnum ((unsigned char) *p) || *p == '_') || isdigit ((unsigned char) value[0]))
      return fail (err, WS_ERROR_BAD_ARGUMENT,
                   "--param: '%.*s' is not a parameter's name; write the name a param line of "
                   "the header gives, such as TILE (letters, digits and _, not starting with a "
                   "digit)",
                   (int) (eq - value < 60 ? eq - value : 60), value);
  for (int i = 0; i < opts->n_params; i++)
    if (strncmp (opts->params[i], value, (size_t) (eq - value + 1)) == 0)
      return fail (err, WS_ERROR_BAD_ARGUMENT,
                   "--param %.*s is given twice: list its values in one, --param %.*s=8,16",
                   (int) (eq - value), value, (int) (eq - value), value);
  if (opts->n_params == (int) (sizeof opts->params / sizeof *opts->params))
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--param is given more than %d times: a kernel file declares at most %d "
                 "parameters, and each takes one --param with all its values",
                 (int) (sizeof opts->params / sizeof *opts->params),
                 (int) (sizeof opts->params / sizeof *opts->params));
  opts->params[opts->n_params++] = value;
  return 1;
}

/* sm_XY or XY, as in sm_90 or 90. */
int
_ws_args_parse_arch (WsOptions *opts, const char *value, WsArgError *err)
{
  const char *p = strncmp (value, "sm_", 3) == 0 ? value + 3 : value;
  size_t n = strlen (p);

  if (n < 2 || n > 4 || strspn (p, "0123456789") < n - 1
      || (strspn (p, "0123456789") == n - 1 && p[n - 1] != 'a'))
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--arch takes a GPU architecture such as sm_90 (Hopper) or sm_80, not '%s'",
                 value);
  opts->arch_minor = p[n - 1 - (p[n - 1] == 'a')] - '0';
  opts->arch_major = atoi (p) / 10;
  if (opts->arch_major < 3)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--arch: '%s' is older than any architecture CUDA compiles for; give one such "
                 "as sm_90 (Hopper) or sm_80",
                 value);
  return 1;
}
