/* ws-own-records.c: an own kernel's kernel record (the catalog entry's fields and the
 * header's facts) and its source record (the file's text, so that a recording reopens with
 * the code that ran).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-own-kernel-private.h"

#include <string.h>

#include "ws-output.h"
#include "ws-protocol.h"

static void
uints (WsJson *j, const char *key, const unsigned *v, int n)
{
  ws_json_begin_array (j, key);
  for (int i = 0; i < n; i++)
    ws_json_uint (j, NULL, v[i]);
  ws_json_end_array (j);
}

static void
args (WsJson *j, const WsKernelFile *kf)
{
  ws_json_begin_array (j, WS_KEY_ARGS);
  for (int i = 0; i < kf->n_args; i++)
    {
      const WsKfArg *a = &kf->args[i];

      ws_json_begin_object (j, NULL);
      ws_json_string (j, WS_KEY_NAME, a->name);
      ws_json_string (j, WS_KEY_TYPE, ws_kernel_file_type_name (a->type));
      ws_json_bool (j, WS_KEY_BUFFER, a->is_buffer);
      if (a->is_buffer)
        {
          ws_json_string (j, WS_KEY_LENGTH, a->length.text);
          ws_json_string (j, WS_KEY_ROLE, ws_kernel_file_role_name (a->role));
          ws_json_string (j, WS_KEY_INIT, ws_kernel_file_init_name (a->init));
          if (a->init_a.text[0])
            ws_json_string (j, a->init == WS_KF_INIT_CONSTANT ? "value" : "low", a->init_a.text);
          if (a->init_b.text[0])
            ws_json_string (j, WS_KEY_HIGH, a->init_b.text);
        }
      else
        ws_json_string (j, WS_KEY_VALUE, a->value.text);
      ws_json_int (j, WS_KEY_LINE, a->line);
      ws_json_end_object (j);
    }
  ws_json_end_array (j);
}

static void
params (WsJson *j, const WsKernelFile *kf)
{
  ws_json_begin_array (j, WS_KEY_PARAMS);
  for (int i = 0; i < kf->n_params; i++)
    {
      const WsKfParam *p = &kf->params[i];

      ws_json_begin_object (j, NULL);
      ws_json_string (j, WS_KEY_NAME, p->name);
      ws_json_begin_array (j, WS_KEY_VALUES);
      for (int v = 0; v < p->n_values; v++)
        ws_json_double (j, NULL, p->values[v]);
      ws_json_end_array (j);
      ws_json_double (j, WS_KEY_DEFAULT, p->values[0]);
      ws_json_int (j, WS_KEY_LINE, p->line);
      ws_json_end_object (j);
    }
  ws_json_end_array (j);
}

void
_ws_own_output_kernel (const OwnKernel *k)
{
  const WsKernelFile *kf = &k->kf;
  const WsKernelDesc *d = &k->desc;
  WsJson *j = ws_output_begin (WS_RECORD_TYPE_KERNEL);

  ws_json_string (j, WS_KEY_NAME, d->name);
  ws_json_string (j, WS_KEY_FAMILY, d->family);
  ws_json_string (j, WS_KEY_TITLE, d->title);
  ws_json_string (j, WS_KEY_DESCRIPTION, d->description);
  ws_json_string (j, WS_KEY_SOURCE, d->source);
  ws_json_int (j, WS_KEY_BLOCK_DIMS, d->block_rank);
  ws_json_begin_array (j, WS_KEY_SHAPE_PARAMS);
  for (int i = 0; i < kf->n_sizes; i++)
    ws_json_string (j, NULL, kf->size_names[i]);
  ws_json_end_array (j);
  ws_json_begin_array (j, WS_KEY_DEFAULT_SHAPE);
  for (int i = 0; i < kf->n_sizes; i++)
    ws_json_uint (j, NULL, kf->size_defaults[i]);
  ws_json_end_array (j);
  uints (j, "default_block", d->default_block, 3);
  ws_json_bool (j, WS_KEY_BLOCK_FIXED, 0);
  ws_json_null (j, WS_KEY_LIBRARY);
  ws_json_bool (j, WS_KEY_STREAMABLE, 0);
  ws_json_string (j, WS_KEY_FLOPS, d->flops_formula);
  ws_json_string (j, WS_KEY_BYTES, d->bytes_formula);
  ws_json_string (j, WS_KEY_TOLERANCE, d->tolerance);
  /* The header's facts. */
  ws_json_bool (j, WS_KEY_OWN, 1);
  ws_json_string (j, WS_KEY_ENTRY, kf->kernel);
  ws_json_string (j, WS_KEY_SOURCE_HASH, k->hash);
  args (j, kf);
  ws_json_begin_array (j, WS_KEY_GRID);
  for (int i = 0; i < kf->n_grid; i++)
    ws_json_string (j, NULL, kf->grid[i].text);
  ws_json_end_array (j);
  params (j, kf);
  ws_json_begin_array (j, WS_KEY_RESTRICTIONS);
  for (int i = 0; i < kf->n_restricts; i++)
    ws_json_string (j, NULL, kf->restricts[i].text);
  ws_json_end_array (j);
  ws_json_begin_object (j, WS_KEY_VERIFY);
  ws_json_string (j, WS_KEY_KIND, ws_kernel_file_verify_name (kf->verify));
  if (kf->verify != WS_KF_VERIFY_NONE)
    ws_json_string (j, WS_KEY_KERNEL, kf->verify_kernel);
  if (kf->verify == WS_KF_VERIFY_REFERENCE)
    uints (j, "block", k->ref_block[0] ? k->ref_block : kf->block, 3);
  ws_json_end_object (j);
  ws_json_double (j, WS_KEY_RTOL, kf->rtol);
  ws_json_double (j, WS_KEY_ATOL, kf->atol);
  ws_json_begin_array (j, WS_KEY_OPTIONS);
  for (int i = 0; i < kf->n_options; i++)
    ws_json_string (j, NULL, kf->options[i]);
  ws_json_end_array (j);
  ws_output_end ();
}

void
_ws_own_output_source (const OwnKernel *k)
{
  const char *base = strrchr (k->path, '/');
  WsJson *j = ws_output_begin (WS_RECORD_TYPE_SOURCE);

  ws_json_string (j, WS_KEY_PATH, k->path);
  ws_json_string (j, WS_KEY_NAME, base ? base + 1 : k->path);
  ws_json_string (j, WS_KEY_SHA256, k->hash);
  ws_json_uint (j, WS_KEY_BYTES, k->len);
  ws_json_string (j, WS_KEY_TEXT, k->text);
  ws_output_end ();
}
