/* ws-own-records.c: an own kernel's kernel record (the catalog entry's fields and the
 * header's facts) and its source record (the file's text, so that a recording reopens with
 * the code that ran).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-own-kernel-private.h"

#include <string.h>

#include "ws-output.h"

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
  ws_json_begin_array (j, "args");
  for (int i = 0; i < kf->n_args; i++)
    {
      const WsKfArg *a = &kf->args[i];

      ws_json_begin_object (j, NULL);
      ws_json_string (j, "name", a->name);
      ws_json_string (j, "type", ws_kernel_file_type_name (a->type));
      ws_json_bool (j, "buffer", a->is_buffer);
      if (a->is_buffer)
        {
          ws_json_string (j, "length", a->length.text);
          ws_json_string (j, "role", ws_kernel_file_role_name (a->role));
          ws_json_string (j, "init", ws_kernel_file_init_name (a->init));
          if (a->init_a.text[0])
            ws_json_string (j, a->init == WS_KF_INIT_CONSTANT ? "value" : "low", a->init_a.text);
          if (a->init_b.text[0])
            ws_json_string (j, "high", a->init_b.text);
        }
      else
        ws_json_string (j, "value", a->value.text);
      ws_json_int (j, "line", a->line);
      ws_json_end_object (j);
    }
  ws_json_end_array (j);
}

static void
params (WsJson *j, const WsKernelFile *kf)
{
  ws_json_begin_array (j, "params");
  for (int i = 0; i < kf->n_params; i++)
    {
      const WsKfParam *p = &kf->params[i];

      ws_json_begin_object (j, NULL);
      ws_json_string (j, "name", p->name);
      ws_json_begin_array (j, "values");
      for (int v = 0; v < p->n_values; v++)
        ws_json_double (j, NULL, p->values[v]);
      ws_json_end_array (j);
      ws_json_double (j, "default", p->values[0]);
      ws_json_int (j, "line", p->line);
      ws_json_end_object (j);
    }
  ws_json_end_array (j);
}

void
_ws_own_output_kernel (const OwnKernel *k)
{
  const WsKernelFile *kf = &k->kf;
  const WsKernelDesc *d = &k->desc;
  WsJson *j = ws_output_begin ("kernel");

  ws_json_string (j, "name", d->name);
  ws_json_string (j, "family", d->family);
  ws_json_string (j, "title", d->title);
  ws_json_string (j, "description", d->description);
  ws_json_string (j, "source", d->source);
  ws_json_int (j, "block_dims", d->block_rank);
  ws_json_begin_array (j, "shape_params");
  for (int i = 0; i < kf->n_sizes; i++)
    ws_json_string (j, NULL, kf->size_names[i]);
  ws_json_end_array (j);
  ws_json_begin_array (j, "default_shape");
  for (int i = 0; i < kf->n_sizes; i++)
    ws_json_uint (j, NULL, kf->size_defaults[i]);
  ws_json_end_array (j);
  uints (j, "default_block", d->default_block, 3);
  ws_json_bool (j, "block_fixed", 0);
  ws_json_null (j, "library");
  ws_json_bool (j, "streamable", 0);
  ws_json_string (j, "flops", d->flops_formula);
  ws_json_string (j, "bytes", d->bytes_formula);
  ws_json_string (j, "tolerance", d->tolerance);
  /* The header's facts. */
  ws_json_bool (j, "own", 1);
  ws_json_string (j, "entry", kf->kernel);
  ws_json_string (j, "source_hash", k->hash);
  args (j, kf);
  ws_json_begin_array (j, "grid");
  for (int i = 0; i < kf->n_grid; i++)
    ws_json_string (j, NULL, kf->grid[i].text);
  ws_json_end_array (j);
  params (j, kf);
  ws_json_begin_array (j, "restrictions");
  for (int i = 0; i < kf->n_restricts; i++)
    ws_json_string (j, NULL, kf->restricts[i].text);
  ws_json_end_array (j);
  ws_json_begin_object (j, "verify");
  ws_json_string (j, "kind", ws_kernel_file_verify_name (kf->verify));
  if (kf->verify != WS_KF_VERIFY_NONE)
    ws_json_string (j, "kernel", kf->verify_kernel);
  if (kf->verify == WS_KF_VERIFY_REFERENCE)
    uints (j, "block", k->ref_block[0] ? k->ref_block : kf->block, 3);
  ws_json_end_object (j);
  ws_json_double (j, "rtol", kf->rtol);
  ws_json_double (j, "atol", kf->atol);
  ws_json_begin_array (j, "options");
  for (int i = 0; i < kf->n_options; i++)
    ws_json_string (j, NULL, kf->options[i]);
  ws_json_end_array (j);
  ws_output_end ();
}

void
_ws_own_output_source (const OwnKernel *k)
{
  const char *base = strrchr (k->path, '/');
  WsJson *j = ws_output_begin ("source");

  ws_json_string (j, "path", k->path);
  ws_json_string (j, "name", base ? base + 1 : k->path);
  ws_json_string (j, "sha256", k->hash);
  ws_json_uint (j, "bytes", k->len);
  ws_json_string (j, "text", k->text);
  ws_output_end ();
}
