/* ws-plan-own.c: a plan for an own kernel (docs/own-kernels.md): the kernel file the runner
 * reads, its header's size names and block rank in place of a catalog entry, and the values
 * chosen for each tunable parameter, which become --param NAME=V,… in the runner's argv.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-plan-private.h"

#include <glib/gi18n-lib.h>

#include "ws-input.h"

WsKernelSource *
ws_plan_get_source (WsPlan *self)
{
  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  return self->source;
}

gboolean
ws_plan_is_own (WsPlan *self)
{
  g_return_val_if_fail (WS_IS_PLAN (self), FALSE);
  return self->source != NULL;
}

static int
find_param (WsKernelSource *source, const char *name)
{
  for (guint i = 0; source != NULL && name != NULL && i < ws_kernel_source_get_n_params (source);
       i++)
    if (g_str_equal (ws_kernel_source_get_param_name (source, i), name))
      return (int) i;
  return -1;
}

/* The values of `text` that the header lists for parameter `index`, in the header's order;
 * its default when none is. */
static char *
allowed_values (WsKernelSource *source, guint index, const char *text)
{
  g_auto (GStrv) listed = ws_kernel_source_dup_param_values (source, index);
  g_auto (GStrv) asked = g_strsplit (text ? text : "", ",", -1);
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; listed[i] != NULL; i++)
    for (guint j = 0; asked[j] != NULL; j++)
      if (g_str_equal (g_strstrip (asked[j]), listed[i]))
        {
          g_string_append_printf (s, "%s%s", s->len ? "," : "", listed[i]);
          break;
        }
  if (s->len == 0 && listed[0] != NULL)
    g_string_append (s, listed[0]);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
size_text (WsKernelSource *source)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < ws_kernel_source_get_n_sizes (source); i++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? "×" : "",
                            ws_kernel_source_get_size_default (source, i));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
block_text (WsKernelSource *source)
{
  guint b[3];
  guint rank = ws_kernel_source_get_block (source, b);

  return rank >= 3   ? g_strdup_printf ("%u×%u×%u", b[0], b[1], b[2])
         : rank == 2 ? g_strdup_printf ("%u×%u", b[0], b[1])
                     : g_strdup_printf ("%u", b[0]);
}

void
ws_plan_set_source (WsPlan *self, WsKernelSource *source)
{
  g_autoptr (WsKernelSource) old = NULL;
  g_autoptr (GPtrArray) params = NULL;
  gboolean same_kernel;

  g_return_if_fail (WS_IS_PLAN (self));
  g_return_if_fail (source == NULL || WS_IS_KERNEL_SOURCE (source));
  if (source == self->source)
    return;
  old = g_steal_pointer (&self->source);
  same_kernel = old != NULL && source != NULL
                && g_strcmp0 (ws_kernel_source_get_entry (old), ws_kernel_source_get_entry (source))
                     == 0;
  self->source = source ? g_object_ref (source) : NULL;
  params = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; source != NULL && i < ws_kernel_source_get_n_params (source); i++)
    {
      int before = find_param (old, ws_kernel_source_get_param_name (source, i));
      const char *kept = same_kernel && before >= 0 && (guint) before < self->params->len
                           ? g_ptr_array_index (self->params, before)
                           : NULL;

      g_ptr_array_add (params, allowed_values (source, i, kept));
    }
  g_clear_pointer (&self->params, g_ptr_array_unref);
  self->params = g_steal_pointer (&params);
  g_object_freeze_notify (G_OBJECT (self));
  if (source != NULL && ws_kernel_source_is_valid (source) && !same_kernel)
    {
      g_autofree char *size = size_text (source);
      g_autofree char *block = block_text (source);

      gboolean grid = ws_kernel_source_get_n_sizes (source) > 1;

      _ws_plan_set_size_and_block (self, size, block);
      /* As the built-ins' sweeps: elements by tens, matrices and grids by doubling edges. */
      _ws_plan_set_sweep (self, grid ? "256" : "1000", grid ? "4096" : "100000000",
                          grid ? 2 : 10, block);
    }
  if (source == NULL)
    _ws_plan_builtin_defaults (self);
  _ws_plan_notify_own (self);
  g_object_thaw_notify (G_OBJECT (self));
  _ws_plan_changed (self);
}

const char *
ws_plan_get_param (WsPlan *self, const char *name)
{
  int i;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  i = find_param (self->source, name);
  return i >= 0 && (guint) i < self->params->len ? g_ptr_array_index (self->params, i) : NULL;
}

void
ws_plan_set_param (WsPlan *self, const char *name, const char *values)
{
  int i;
  g_autofree char *allowed = NULL;

  g_return_if_fail (WS_IS_PLAN (self));
  i = find_param (self->source, name);
  if (i < 0 || (guint) i >= self->params->len)
    return;
  allowed = allowed_values (self->source, (guint) i, values);
  if (g_strcmp0 (allowed, g_ptr_array_index (self->params, i)) == 0)
    return;
  g_free (g_ptr_array_index (self->params, i));
  g_ptr_array_index (self->params, i) = g_steal_pointer (&allowed);
  _ws_plan_notify_own (self);
  _ws_plan_changed (self);
}

guint
_ws_plan_own_count_params (WsPlan *self)
{
  guint n = 1;

  for (guint i = 0; self->params != NULL && i < self->params->len; i++)
    {
      g_auto (GStrv) values = g_strsplit (g_ptr_array_index (self->params, i), ",", -1);

      n *= MAX (g_strv_length (values), 1);
    }
  return n;
}

/* One to as many numbers as the header has size names, or one edge for all of them, as the
 * runner takes --sizes. */
gboolean
_ws_plan_own_read_size (WsPlan *self, const char *text, guint64 dims[3], char **runner_text,
                        GError **error)
{
  g_autofree char *flat = g_strdup (text ? text : "");
  g_auto (GStrv) parts = NULL;
  guint n_names = MAX (ws_kernel_source_get_n_sizes (self->source), 1);
  guint n;
  g_autoptr (GString) s = g_string_new (NULL);

  g_strdelimit (flat, "xX*", ' ');
  {
    /* "×" is two bytes: replace it before splitting on spaces. */
    g_autoptr (GString) t = g_string_new (flat);

    g_string_replace (t, "×", " ", 0);
    parts = g_strsplit_set (t->str, " ", -1);
  }
  n = 0;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *why = NULL;

      if (*parts[i] == '\0')
        continue;
      if (n == 3 || !ws_input_parse_count (parts[i], &dims[n], &why))
        {
          g_set_error_literal (error, WS_PLAN_ERROR, WS_PLAN_ERROR_SIZE,
                               why ? why : _("Give one size for each of the kernel's size names."));
          g_free (why);
          return FALSE;
        }
      g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, n ? "x" : "", dims[n]);
      n++;
    }
  if (n != 1 && n != n_names)
    {
      g_autoptr (GString) names = g_string_new (NULL);

      for (guint i = 0; i < n_names; i++)
        g_string_append_printf (names, "%s%s", i ? "×" : "",
                                ws_kernel_source_get_size_name (self->source, i));
      g_set_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_SIZE,
                   _("%s takes its size as %s, or one number for all of them."),
                   _ws_plan_kernel_name (self), names->str);
      return FALSE;
    }
  for (guint i = n; i < 3; i++)
    dims[i] = dims[0];
  if (runner_text)
    *runner_text = g_strdup (s->str);
  return TRUE;
}

/* --source FILE and a --param for each parameter: all its chosen values for a sweep, the
 * first for one run. */
void
_ws_plan_own_add_args (WsPlan *self, WsPlanMode mode, GStrvBuilder *b)
{
  g_strv_builder_add_many (b, "--source", ws_kernel_source_get_path (self->source), NULL);
  for (guint i = 0; i < self->params->len; i++)
    {
      const char *values = g_ptr_array_index (self->params, i);
      g_autofree char *first = g_strndup (values, strcspn (values, ","));
      g_autofree char *arg
        = g_strdup_printf ("%s=%s", ws_kernel_source_get_param_name (self->source, i),
                           mode == WS_PLAN_SWEEP ? values : first);

      g_strv_builder_add_many (b, "--param", arg, NULL);
    }
}

char *
_ws_plan_own_run_summary (WsPlan *self)
{
  guint64 dims[3];
  guint b[3];
  g_autoptr (GString) sizes = g_string_new (NULL);
  g_autofree char *block = NULL;

  if (!ws_kernel_source_is_valid (self->source)
      || !_ws_plan_own_read_size (self, self->size, dims, NULL, NULL)
      || !_ws_plan_read_block (self, self->block, b, NULL, NULL))
    return NULL;
  for (guint i = 0; i < ws_kernel_source_get_n_sizes (self->source); i++)
    g_string_append_printf (sizes, "%s%s = %" G_GUINT64_FORMAT, i ? ", " : "",
                            ws_kernel_source_get_size_name (self->source, i), dims[i]);
  block = ws_plan_get_block_dims (self) >= 2 ? g_strdup_printf ("%u×%u", b[0], b[1])
                                             : g_strdup_printf ("%u", b[0]);
  /* Translators: "matmul_tiled at m = 1024, n = 1024, k = 1024 in blocks of 16×16 threads." */
  return g_strdup_printf (_("%s at %s in blocks of %s threads."), _ws_plan_kernel_name (self),
                          sizes->str, block);
}

GStrv
ws_plan_build_check_argv (WsPlan *self, const char *runner, const char *memcheck,
                          GError **error)
{
  g_autoptr (GStrvBuilder) b = NULL;
  g_auto (GStrv) run = NULL;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  g_return_val_if_fail (runner != NULL, NULL);
  if (self->source == NULL)
    {
      g_set_error_literal (error, WS_PLAN_ERROR, WS_PLAN_ERROR_NO_KERNEL,
                           _("Open or write a kernel of your own first."));
      return NULL;
    }
  b = g_strv_builder_new ();
  if (memcheck == NULL)
    {
      g_strv_builder_add_many (b, runner, "--check-source", ws_kernel_source_get_path (self->source),
                               NULL);
      return g_strv_builder_end (b);
    }
  run = ws_plan_build_argv (self, WS_PLAN_RUN, runner, error);
  if (run == NULL)
    return NULL;
  g_strv_builder_addv (b, (const char **) run);
  g_strv_builder_add_many (b, "--memcheck", memcheck, NULL);
  return g_strv_builder_end (b);
}

void
_ws_plan_own_finalize (WsPlan *self)
{
  g_clear_object (&self->source);
  g_clear_pointer (&self->params, g_ptr_array_unref);
}
