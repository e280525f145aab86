/* ws-cli-occupancy.c: `warpscope-cli occupancy`: the occupancy calculator for one block
 * configuration on an architecture, with the limit each resource sets and a hint.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "ws-cli-table.h"
#include "ws-occupancy.h"

static int
list_archs (void)
{
  guint n;
  const WsArchLimits *const *all = ws_arch_limits_all (&n);
  g_autoptr (WsCliTable) table = ws_cli_table_new ();
  g_autoptr (GString) out = g_string_new (NULL);

  ws_cli_table_add_column (table, _("arch"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("family"), WS_CLI_ALIGN_LEFT, -1);
  ws_cli_table_add_column (table, _("threads/SM"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("blocks/SM"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("registers/SM"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("shared mem/SM"), WS_CLI_ALIGN_RIGHT, -1);
  ws_cli_table_add_column (table, _("GPUs"), WS_CLI_ALIGN_LEFT, -1);
  for (guint i = 0; i < n; i++)
    {
      const WsArchLimits *a = all[i];

      ws_cli_table_add_row (table);
      ws_cli_table_set (table, 0, a->arch);
      ws_cli_table_set (table, 1, a->family);
      ws_cli_table_take (table, 2, g_strdup_printf ("%d", a->max_threads_per_sm));
      ws_cli_table_take (table, 3, g_strdup_printf ("%d", a->max_blocks_per_sm));
      ws_cli_table_take (table, 4, g_strdup_printf ("%d K", a->regs_per_sm / 1024));
      ws_cli_table_take (table, 5, ws_units_bytes_binary (a->smem_per_sm));
      ws_cli_table_set (table, 6, a->products);
    }
  ws_cli_table_append_text (table, out, 2, 0);
  ws_cli_write (stdout, out->str);
  return WS_CLI_EXIT_OK;
}

/* "49152", "48K", "48KiB", "48 KiB" → bytes; FALSE for anything else. */
static gboolean
parse_bytes (const char *text, int *bytes)
{
  char *end = NULL;
  gint64 value;

  errno = 0;
  value = g_ascii_strtoll (text, &end, 10);
  if (end == text || errno != 0 || value < 0)
    return FALSE;
  while (*end == ' ')
    end++;
  if (g_ascii_strcasecmp (end, "k") == 0 || g_ascii_strcasecmp (end, "kib") == 0
      || g_ascii_strcasecmp (end, "kb") == 0)
    value *= 1024;
  else if (*end != '\0' && g_ascii_strcasecmp (end, "b") != 0)
    return FALSE;
  if (value > G_MAXINT)
    return FALSE;
  *bytes = (int) value;
  return TRUE;
}

static char *
limit_text (int blocks, gboolean limiter)
{
  if (blocks == WS_OCCUPANCY_NO_LIMIT)
    return g_strdup (_("no limit (the block uses none)"));
  return g_strdup_printf ("%d%s", blocks, limiter ? _("   ◀ the limit") : "");
}

/* The point of a curve with the highest occupancy above the current one; of those, the one
 * nearest to `x` (for registers and shared memory, where x is above every gain: the largest
 * value that still gains). */
static const WsOccupancyPoint *
better_point (GArray *curve, const WsOccupancy *now, double x)
{
  const WsOccupancyPoint *best = NULL;

  for (guint i = 0; curve != NULL && i < curve->len; i++)
    {
      const WsOccupancyPoint *p = &g_array_index (curve, WsOccupancyPoint, i);

      if (p->occupancy <= now->occupancy + 1e-9)
        continue;
      if (best == NULL || p->occupancy > best->occupancy + 1e-9
          || (p->occupancy >= best->occupancy - 1e-9 && fabs (p->x - x) < fabs (best->x - x)))
        best = p;
    }
  return best;
}

static char *
hint (const WsArchLimits *arch, const WsOccupancyInput *in, const WsOccupancy *occ)
{
  GString *s = g_string_new (NULL);
  g_autoptr (GArray) curve = NULL;
  const WsOccupancyPoint *p;

  if (in->threads_per_block % arch->warp_size != 0)
    g_string_append_printf (s, _("%d threads is not a multiple of %d: the last warp of every "
                                 "block runs with %d threads and leaves %d lanes idle. "),
                            in->threads_per_block, arch->warp_size,
                            in->threads_per_block % arch->warp_size,
                            arch->warp_size - in->threads_per_block % arch->warp_size);
  if (occ->active_blocks == 0)
    {
      g_string_append_printf (s, _("Not one block fits on an SM: it needs %d registers, more "
                                   "than the %d an SM has. Use fewer registers per thread "
                                   "(__launch_bounds__, -maxrregcount) or fewer threads per "
                                   "block."),
                              occ->regs_per_block, arch->regs_per_sm);
      return g_string_free (s, FALSE);
    }
  if (occ->occupancy >= 1 - 1e-9)
    {
      g_string_append (s, _("Full occupancy: every warp slot of the SM is used. If the kernel "
                            "is still slow, occupancy is not why: look at how it reads memory "
                            "(coalescing) and how much work each thread does."));
      return g_string_free (s, FALSE);
    }
  switch (occ->limiter)
    {
    case WS_LIMITER_BLOCKS:
      g_string_append_printf (s, _("The blocks are too small: an SM holds at most %d blocks, "
                                   "so %d threads per block leave warp slots empty. Use at "
                                   "least %d threads per block."),
                              arch->max_blocks_per_sm, in->threads_per_block,
                              arch->max_threads_per_sm / arch->max_blocks_per_sm);
      break;
    case WS_LIMITER_REGISTERS:
      curve = ws_occupancy_curve_registers (arch, in, NULL);
      p = better_point (curve, occ, in->registers_per_thread);
      if (p != NULL)
        {
          g_autofree char *percent = ws_units_percent (p->occupancy);

          g_string_append_printf (s, _("Registers limit it: at most %d registers per thread "
                                       "would fit %d blocks (%s). Ask for it with "
                                       "__launch_bounds__(%d, %d) or -maxrregcount=%d, and "
                                       "check that nothing spills to local memory."),
                                  (int) p->x, p->active_blocks, percent, in->threads_per_block,
                                  p->active_blocks, (int) p->x);
        }
      break;
    case WS_LIMITER_SHARED_MEMORY:
      curve = ws_occupancy_curve_smem (arch, in, NULL);
      p = better_point (curve, occ, in->smem_per_block);
      if (p != NULL)
        {
          g_autofree char *bytes = ws_units_bytes_binary (p->x);
          g_autofree char *percent = ws_units_percent (p->occupancy);

          g_string_append_printf (s, _("Shared memory limits it: at most %s per block would "
                                       "fit %d blocks (%s), for example with smaller tiles."),
                                  bytes, p->active_blocks, percent);
        }
      break;
    case WS_LIMITER_WARPS:
    default:
      curve = ws_occupancy_curve_block_size (arch, in, NULL);
      p = better_point (curve, occ, in->threads_per_block);
      if (p != NULL)
        {
          g_autofree char *percent = ws_units_percent (p->occupancy);

          g_string_append_printf (s, _("%d warps per block do not divide the %d warps an SM "
                                       "holds, so part of it stays empty. Blocks of %d threads "
                                       "would reach %s."),
                                  occ->warps_per_block, arch->max_warps_per_sm, (int) p->x,
                                  percent);
        }
      break;
    }
  return g_string_free (s, FALSE);
}

int
ws_cli_occupancy (int argc, char **argv)
{
  g_autofree char *arch_name = NULL;
  g_autofree char *smem_text = NULL;
  int block = -1, regs = 32;
  gboolean list = FALSE;
  GOptionEntry entries[] = {
    { "arch", 'a', 0, G_OPTION_ARG_STRING, &arch_name,
      N_("Architecture: sm_90, 90 or 9.0 (default sm_90; --list-archs shows them)"), "ARCH" },
    { "block", 'b', 0, G_OPTION_ARG_INT, &block, N_("Threads per block"), "N" },
    { "regs", 'r', 0, G_OPTION_ARG_INT, &regs,
      N_("Registers per thread, as the compiler reports them (default 32)"), "R" },
    { "smem", 's', 0, G_OPTION_ARG_STRING, &smem_text,
      N_("Shared memory per block, static + dynamic: bytes, or 48K (default 0)"), "BYTES" },
    { "list-archs", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the known architectures"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *percent = NULL;
  g_autofree char *advice = NULL;
  g_autofree char *smem_label = NULL;
  const WsArchLimits *arch;
  WsOccupancyInput in = { 0, 0, 0 };
  WsOccupancy occ;
  gsize width = (gsize) ws_cli_terminal_width (stdout);

  context = ws_cli_context_new (
    "occupancy", NULL,
    _("Computes theoretical occupancy with no GPU: how many blocks of this configuration an "
      "SM holds at once, the share of its warp slots they fill, which resource limits them, "
      "and what would raise it."),
    _("Example: warpscope-cli occupancy --arch sm_90 --block 256 --regs 32 --smem 0\n\n"
      "Exit status: 0 computed; 2 bad arguments (an unknown architecture, a block no GPU can "
      "launch, more registers or shared memory than the architecture allows)."),
    entries);
  if (!ws_cli_parse (context, "occupancy", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc > 1)
    return ws_cli_usage_error ("occupancy", _("“%s”: give the configuration with --block, "
                                              "--regs and --smem."),
                               argv[1]);
  if (list)
    return list_archs ();
  arch = ws_arch_limits_lookup (arch_name != NULL ? arch_name : "sm_90");
  if (arch == NULL)
    return ws_cli_usage_error ("occupancy", _("“%s” is not an architecture this calculator "
                                              "knows; --list-archs shows them."),
                               arch_name);
  if (block == -1)
    return ws_cli_usage_error ("occupancy", _("how many threads per block? Give --block N."));
  in.threads_per_block = block;
  in.registers_per_thread = regs;
  if (smem_text != NULL && !parse_bytes (smem_text, &in.smem_per_block))
    return ws_cli_usage_error ("occupancy", _("--smem “%s” is not a size in bytes (49152, "
                                              "48K)."),
                               smem_text);
  if (!ws_occupancy_compute (arch, &in, &occ, &error))
    return ws_cli_usage_error ("occupancy", "%s", error->message);

  smem_label = in.smem_per_block > 0 ? ws_units_bytes_binary (in.smem_per_block)
                                     : g_strdup (_("no"));
  g_string_append_printf (out, _("%s (%s: %s): %d threads per block, %d registers per thread, "
                                 "%s shared memory\n\n"),
                          arch->arch, arch->family, arch->products, in.threads_per_block,
                          in.registers_per_thread, smem_label);
  percent = ws_units_percent (occ.occupancy);
  g_string_append_printf (out, _("  active blocks per SM   %d (%d of %d warps, %d threads)\n"),
                          occ.active_blocks, occ.active_warps, occ.max_warps,
                          occ.active_threads);
  g_string_append_printf (out, _("  occupancy              %s\n"), percent);
  g_string_append_printf (out, _("  limited by             %s (%s)\n"),
                          ws_limiter_describe (occ.limiter), ws_limiter_name (occ.limiter));
  g_string_append (out, _("\n  blocks per SM each resource allows\n"));
  {
    struct
    {
      const char *name;
      int blocks;
      WsLimiter limiter;
    } rows[] = {
      { N_("warps"), occ.limit_warps, WS_LIMITER_WARPS },
      { N_("blocks per SM"), occ.limit_blocks, WS_LIMITER_BLOCKS },
      { N_("registers"), occ.limit_registers, WS_LIMITER_REGISTERS },
      { N_("shared memory"), occ.limit_smem, WS_LIMITER_SHARED_MEMORY },
    };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      {
        g_autofree char *text = limit_text (rows[i].blocks, rows[i].limiter == occ.limiter);

        g_string_append_printf (out, "    %-20s %s\n", _(rows[i].name), text);
      }
  }
  {
    g_autofree char *smem_alloc = ws_units_bytes_binary (occ.smem_alloc_per_block);
    g_autofree char *carveout = ws_units_bytes_binary (occ.carveout_bytes);

    g_string_append_printf (out, _("\n  allocated per block    %d registers, %s of shared memory "
                                   "(with the driver's reservation)\n"),
                            occ.regs_per_block, smem_alloc);
    if (in.smem_per_block > 0)
      g_string_append_printf (out, _("  smallest carve-out     %s still holds %d blocks\n"),
                              carveout, occ.active_blocks);
    if (occ.needs_opt_in)
      g_string_append (out, _("  opt-in needed          more than 48 KiB per block: the kernel "
                              "must raise its limit with cudaFuncSetAttribute first\n"));
  }
  advice = hint (arch, &in, &occ);
  if (*advice != '\0')
    {
      g_string_append (out, _("\nHint: "));
      ws_cli_append_wrapped (out, advice, 6, 6, width > 0 ? width : 100);
      g_string_append_c (out, '\n');
    }
  ws_cli_write (stdout, out->str);
  return WS_CLI_EXIT_OK;
}
