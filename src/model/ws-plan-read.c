/* ws-plan-read.c: reading a plan's values as the runner takes them, against the kernel's
 * catalog entry and the device's limits, with the reason for people when they cannot run;
 * the argv, the summaries and the sweep's time.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-plan-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#include "ws-format.h"
#include "ws-units.h"
#include "ws-input.h"

/* ---- the kernel's catalog entry --------------------------------------------------------- */

WsKernelEntry *
_ws_plan_entry (WsPlan *self)
{
  guint n = self->catalog ? g_list_model_get_n_items (self->catalog) : 0;

  for (guint i = 0; self->kernel != NULL && i < n; i++)
    {
      g_autoptr (WsKernelEntry) k = g_list_model_get_item (self->catalog, i);

      if (g_strcmp0 (ws_kernel_entry_get_name (k), self->kernel) == 0)
        return k; /* borrowed: the catalog holds it */
    }
  return NULL;
}

const char *
_ws_plan_kernel_name (WsPlan *self)
{
  if (self->source != NULL)
    {
      const char *entry = ws_kernel_source_get_entry (self->source);

      return entry ? entry : ws_kernel_source_get_path (self->source);
    }
  return self->kernel;
}

int
ws_plan_get_block_dims (WsPlan *self)
{
  WsKernelEntry *k;
  guint block[3];

  g_return_val_if_fail (WS_IS_PLAN (self), 1);
  if (self->source != NULL)
    return (int) MAX (ws_kernel_source_get_block (self->source, block), 1);
  k = _ws_plan_entry (self);
  return k ? ws_kernel_entry_get_info (k)->block_dims : 1;
}

int
ws_plan_get_size_rank (WsPlan *self)
{
  WsKernelEntry *k;

  g_return_val_if_fail (WS_IS_PLAN (self), 1);
  if (self->source != NULL)
    return (int) MAX (ws_kernel_source_get_n_sizes (self->source), 1);
  k = _ws_plan_entry (self);
  return k && ws_kernel_entry_get_info (k)->shape_rank == 3 ? 3 : 1;
}

const char *
ws_plan_get_kernel_description (WsPlan *self)
{
  WsKernelEntry *k;

  g_return_val_if_fail (WS_IS_PLAN (self), "");
  if (self->source != NULL)
    return "";
  k = _ws_plan_entry (self);
  return k ? ws_kernel_entry_get_description (k) : "";
}

guint
ws_plan_get_n_kernels (WsPlan *self)
{
  g_return_val_if_fail (WS_IS_PLAN (self), 0);
  return self->catalog ? g_list_model_get_n_items (self->catalog) : 0;
}

/* The catalog's entry at `index`, borrowed. */
static WsKernelEntry *
entry_at (WsPlan *self, guint index)
{
  g_autoptr (WsKernelEntry) k = g_list_model_get_item (self->catalog, index);

  return k;
}

const char *
ws_plan_get_kernel_name (WsPlan *self, guint index)
{
  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  g_return_val_if_fail (index < ws_plan_get_n_kernels (self), NULL);
  return ws_kernel_entry_get_name (entry_at (self, index));
}

const char *
ws_plan_get_kernel_title (WsPlan *self, guint index)
{
  const char *title;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  g_return_val_if_fail (index < ws_plan_get_n_kernels (self), NULL);
  title = ws_kernel_entry_get_title (entry_at (self, index));
  return *title ? title : "?";
}

/* ---- reading the values ----------------------------------------------------------------- */

static gboolean
fail (GError **error, WsPlanError code, char *why)
{
  g_set_error_literal (error, WS_PLAN_ERROR, code, why);
  g_free (why);
  return FALSE;
}

gboolean
_ws_plan_read_size (WsPlan *self, const char *text, guint64 dims[3], char **runner_text, GError **error)
{
  char *why = NULL;
  int rank;

  if (self->source != NULL)
    return _ws_plan_own_read_size (self, text, dims, runner_text, error);
  if (!ws_input_parse_size (text ? text : "", dims, &rank, &why))
    return fail (error, WS_PLAN_ERROR_SIZE, why);
  if (rank == 3 && _ws_plan_entry (self) != NULL && ws_plan_get_size_rank (self) == 1)
    return fail (error, WS_PLAN_ERROR_SIZE,
                 g_strdup_printf (_("%s takes one size, the number of elements."), self->kernel));
  if (runner_text)
    *runner_text = rank == 3 ? g_strdup_printf ("%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT
                                                "x%" G_GUINT64_FORMAT,
                                                dims[0], dims[1], dims[2])
                             : g_strdup_printf ("%" G_GUINT64_FORMAT, dims[0]);
  return TRUE;
}

gboolean
_ws_plan_read_block (WsPlan *self, const char *text, guint dims[3], char **runner_text, GError **error)
{
  const WsDeviceInfo *d = self->device ? ws_device_get_info (self->device) : NULL;
  int block_dims = ws_plan_get_block_dims (self);
  char *why = NULL;
  int rank;

  if (!ws_input_parse_block (text ? text : "", dims, &rank, &why))
    return fail (error, WS_PLAN_ERROR_BLOCK, why);
  gboolean known = _ws_plan_entry (self) != NULL || self->source != NULL;

  if (known && block_dims == 1 && rank > 1 && (dims[1] > 1 || dims[2] > 1))
    return fail (error, WS_PLAN_ERROR_BLOCK,
                 g_strdup_printf (_("%s is a 1D kernel: give one number of threads, such as 256."),
                                  _ws_plan_kernel_name (self)));
  if (known && block_dims == 2 && rank == 1 && dims[0] > 1)
    return fail (error, WS_PLAN_ERROR_BLOCK,
                 g_strdup_printf (_("%s is a 2D kernel: give the block as W×H, such as 16×16."),
                                  _ws_plan_kernel_name (self)));
  if (d != NULL)
    {
      guint threads = dims[0] * dims[1] * dims[2];

      for (int i = 0; i < 3; i++)
        if (d->max_block_dim[i] > 0 && dims[i] > (guint) d->max_block_dim[i])
          return fail (error, WS_PLAN_ERROR_BLOCK,
                       g_strdup_printf (_("The %s allows at most %d threads in dimension %c."),
                                        d->name, d->max_block_dim[i], "xyz"[i]));
      if (d->max_threads_per_block > 0 && threads > (guint) d->max_threads_per_block)
        return fail (error, WS_PLAN_ERROR_BLOCK,
                     g_strdup_printf (_("The %s allows at most %d threads per block."), d->name,
                                      d->max_threads_per_block));
    }
  if (runner_text)
    *runner_text = g_strdup_printf ("%ux%ux%u", dims[0], dims[1], dims[2]);
  return TRUE;
}

/* The sweep's sizes as the runner takes them ("1000:100000000:x10"), and how many. */
static char *
sweep_sizes (WsPlan *self, guint *count, GError **error)
{
  guint64 from[3], to[3];

  if (!_ws_plan_read_size (self, self->sweep_from, from, NULL, error)
      || !_ws_plan_read_size (self, self->sweep_to, to, NULL, error))
    return NULL;
  if (to[0] < from[0])
    {
      fail (error, WS_PLAN_ERROR_SWEEP,
            g_strdup (_("The sweep goes down: make “From size” the smaller one.")));
      return NULL;
    }
  *count = 0;
  for (double v = (double) from[0]; v <= (double) to[0] * (1 + 1e-9); v *= self->sweep_factor)
    (*count)++;
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":x%d", from[0], to[0],
                          self->sweep_factor);
}

/* The sweep's blocks as the runner takes them ("128x1x1,256x1x1"), and how many. */
static char *
sweep_blocks (WsPlan *self, guint *count, GError **error)
{
  g_auto (GStrv) items = g_strsplit (self->sweep_blocks ? self->sweep_blocks : "", ",", -1);
  g_autoptr (GString) s = g_string_new (NULL);

  *count = 0;
  for (guint i = 0; items[i] != NULL; i++)
    {
      guint dims[3];
      g_autofree char *text = NULL;

      if (*g_strstrip (items[i]) == '\0')
        continue;
      if (!_ws_plan_read_block (self, items[i], dims, &text, error))
        return NULL;
      if (s->len)
        g_string_append_c (s, ',');
      g_string_append (s, text);
      (*count)++;
    }
  if (*count == 0)
    {
      fail (error, WS_PLAN_ERROR_SWEEP,
            g_strdup (_("List at least one block for the sweep, such as 128,256.")));
      return NULL;
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The --sizes and --blocks arguments of a mode, both or neither. */
/* The plan's transfer as the runner takes it: pinned, or pageable for anything else. */
static const char *
runner_transfer (WsPlan *self)
{
  return ws_transfer_to_string (ws_transfer_from_string (self->transfer) == WS_TRANSFER_PINNED
                                  ? WS_TRANSFER_PINNED
                                  : WS_TRANSFER_PAGEABLE);
}

static gboolean
runner_sizes_and_blocks (WsPlan *self, WsPlanMode mode, char **sizes, char **blocks,
                         guint *n_sizes, guint *n_blocks, GError **error)
{
  guint64 dims[3];
  guint bdims[3];

  *n_sizes = *n_blocks = 1;
  if (mode == WS_PLAN_SWEEP)
    {
      *sizes = sweep_sizes (self, n_sizes, error);
      *blocks = *sizes ? sweep_blocks (self, n_blocks, error) : NULL;
    }
  else
    {
      *blocks = NULL;
      if (_ws_plan_read_size (self, self->size, dims, sizes, error))
        _ws_plan_read_block (self, self->block, bdims, blocks, error);
    }
  if (*sizes != NULL && *blocks != NULL)
    return TRUE;
  g_clear_pointer (sizes, g_free);
  g_clear_pointer (blocks, g_free);
  return FALSE;
}

gboolean
ws_plan_validate (WsPlan *self, WsPlanMode mode, GError **error)
{
  g_autofree char *sizes = NULL, *blocks = NULL;
  guint n_sizes, n_blocks;

  g_return_val_if_fail (WS_IS_PLAN (self), FALSE);
  if (self->source != NULL && !ws_kernel_source_is_valid (self->source))
    {
      WsSourceProblem *p = g_ptr_array_index (ws_kernel_source_get_problems (self->source), 0);

      g_set_error (error, WS_PLAN_ERROR, WS_PLAN_ERROR_REFUSED,
                   _("The kernel's header has an error at line %u: %s"), p->line, p->message);
      return FALSE;
    }
  if (!runner_sizes_and_blocks (self, mode, &sizes, &blocks, &n_sizes, &n_blocks, error))
    return FALSE;
  if (self->source != NULL)
    return TRUE;
  if (_ws_plan_entry (self) == NULL)
    {
      g_set_error_literal (error, WS_PLAN_ERROR, WS_PLAN_ERROR_NO_KERNEL, _("Choose a kernel."));
      return FALSE;
    }
  return TRUE;
}

/* The counters' groups, when asked for (docs/counters.md). */
static void
add_counters (WsPlan *self, GStrvBuilder *b)
{
  if (self->counters != NULL && *self->counters != '\0' && !g_str_equal (self->counters, "none"))
    g_strv_builder_add_many (b, "--counters", self->counters, NULL);
}

GStrv
ws_plan_build_argv (WsPlan *self, WsPlanMode mode, const char *runner, GError **error)
{
  g_autoptr (GStrvBuilder) b = NULL;
  g_autofree char *sizes = NULL, *blocks = NULL;
  g_autofree char *reps = NULL;
  guint n_sizes, n_blocks;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  g_return_val_if_fail (runner != NULL, NULL);
  if (!ws_plan_validate (self, mode, error))
    return NULL;
  runner_sizes_and_blocks (self, mode, &sizes, &blocks, &n_sizes, &n_blocks, NULL);
  reps = g_strdup_printf ("%d", self->reps);
  b = g_strv_builder_new ();
  if (self->source != NULL)
    {
      /* Own kernels have no CPU baseline: the runner refuses --cpu for them. */
      g_strv_builder_add_many (b, runner, "--sizes", sizes, "--blocks", blocks, "--transfer",
                               runner_transfer (self), "--reps", reps, NULL);
      add_counters (self, b);
      _ws_plan_own_add_args (self, mode, b);
      return g_strv_builder_end (b);
    }
  g_strv_builder_add_many (b, runner, "--kernel", self->kernel, "--sizes", sizes, "--blocks",
                           blocks, "--transfer", runner_transfer (self), "--reps", reps, "--cpu",
                           self->cpu_one && self->cpu_all ? "1,all"
                           : self->cpu_one                ? "1"
                           : self->cpu_all                ? "all"
                                                          : "none",
                           NULL);
  add_counters (self, b);
  return g_strv_builder_end (b);
}

/* ---- summaries --------------------------------------------------------------------------- */

char *
ws_plan_dup_run_summary (WsPlan *self)
{
  guint64 dims[3];
  guint b[3];
  guint threads;
  g_autofree char *n = NULL;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  if (self->source != NULL)
    return _ws_plan_own_run_summary (self);
  if (!_ws_plan_read_size (self, self->size, dims, NULL, NULL) || !_ws_plan_read_block (self, self->block, b, NULL, NULL))
    return NULL;
  threads = b[0] * b[1] * b[2];
  if (ws_plan_get_size_rank (self) == 1)
    {
      g_autofree char *grid = ws_units_grouped ((dims[0] + threads - 1) / threads);

      n = ws_units_grouped (dims[0]);
      return g_strdup_printf (_("%s elements in a grid of %s blocks of %u threads."), n, grid,
                              threads);
    }
  return g_strdup_printf (_("C is %" PRIu64 "×%" PRIu64 " (k = %" PRIu64 "): a grid of %" PRIu64
                            "×%" PRIu64 " blocks of %u×%u threads."),
                          dims[0], dims[1], dims[2], (dims[1] + b[0] - 1) / b[0],
                          (dims[0] + b[1] - 1) / b[1], b[0], b[1]);
}

gboolean
ws_plan_count_sweep (WsPlan *self, guint *n_sizes, guint *n_blocks)
{
  g_autofree char *sizes = NULL, *blocks = NULL;

  g_return_val_if_fail (WS_IS_PLAN (self), FALSE);
  if (self->source != NULL && !ws_kernel_source_is_valid (self->source))
    return FALSE;
  return runner_sizes_and_blocks (self, WS_PLAN_SWEEP, &sizes, &blocks, n_sizes, n_blocks, NULL);
}

/* The mean time of this kernel's completed runs, or 0 when there is none. */
static double
mean_run_ns (WsPlan *self, WsSession *history)
{
  GListModel *runs = ws_session_get_runs (history);
  double total_ns = 0;
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      const WsTiming *t = ws_run_get_timing (run);
      const WsRunConfig *c = ws_run_get_config (run);

      if (t == NULL || g_strcmp0 (c->kernel, _ws_plan_kernel_name (self)) != 0)
        continue;
      /* Warm-up and the traced, cross-check and end-to-end phases, plus the CPU baselines. */
      total_ns += (c->warmup + 2.0 * c->reps) * t->e2e.median + 2.0 * c->reps * t->kernel.median
                  + (t->cpu_one.stats.n + 1) * t->cpu_one.stats.median
                  + (t->cpu_all.stats.n + 1) * t->cpu_all.stats.median;
      n++;
    }
  return n > 0 ? total_ns / n : 0;
}

gboolean
ws_plan_estimate_sweep (WsPlan *self, WsSession *history, double *seconds)
{
  guint n_sizes, n_blocks;
  double mean;

  g_return_val_if_fail (WS_IS_PLAN (self), FALSE);
  if (history == NULL || !ws_plan_count_sweep (self, &n_sizes, &n_blocks))
    return FALSE;
  mean = mean_run_ns (self, history);
  if (!(mean > 0))
    return FALSE;
  /* Half a second per configuration for starting it, beside what the runs took. */
  *seconds = ceil (n_sizes * n_blocks * _ws_plan_own_count_params (self) * (mean / 1e9 + 0.5));
  return TRUE;
}

char *
ws_plan_dup_sweep_summary (WsPlan *self, WsSession *history)
{
  guint n_sizes, n_blocks, configs;
  double seconds;
  g_autofree char *estimate = NULL, *sizes_text = NULL, *blocks_text = NULL, *configs_text = NULL;

  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  if (!ws_plan_count_sweep (self, &n_sizes, &n_blocks))
    return NULL;
  configs = n_sizes * n_blocks * _ws_plan_own_count_params (self);
  if (history == NULL)
    estimate = g_strdup (_("the time appears after the first run"));
  else if (!ws_plan_estimate_sweep (self, history, &seconds))
    estimate = g_strdup (_("the time appears after the first run of this kernel"));
  else
    estimate = g_strdup_printf (_("about %.0f s, judging by the runs so far"), seconds);
  sizes_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u size", "%u sizes", n_sizes),
                                n_sizes);
  blocks_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u block", "%u blocks", n_blocks),
                                 n_blocks);
  configs_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u configuration",
                                               "%u configurations", configs),
                                  configs);
  if (_ws_plan_own_count_params (self) > 1)
    {
      guint n = _ws_plan_own_count_params (self);
      g_autofree char *params_text
        = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u parameter value",
                                        "%u parameter values", n),
                           n);

      /* Translators: "2 sizes × 3 blocks × 3 parameter values = 18 configurations, less those
       * the header's restrictions rule out; about 12 s." */
      return g_strdup_printf (_("%s × %s × %s = %s, less those the header's restrictions rule "
                                "out; %s."),
                              sizes_text, blocks_text, params_text, configs_text, estimate);
    }
  /* Translators: "5 sizes × 2 blocks = 10 configurations; about 12 s." */
  return g_strdup_printf (_("%s × %s = %s; %s."), sizes_text, blocks_text, configs_text, estimate);
}

