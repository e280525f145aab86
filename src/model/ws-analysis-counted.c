/* ws-analysis-counted.c: the rules that read what the GPU's counters measured of a launch
 * (docs/counters.md), written once for a sweep's run and a traced kernel (whose counters are
 * not read yet): achieved occupancy against the theoretical, coalescing, shared memory's bank
 * conflicts, divergence, and where the warps' stalled time goes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"

#include <math.h>

static double
counted (const WsLaunchFacts *k, const char *key)
{
  return ws_counters_get (k->counters, key);
}

/* Achieved occupancy well below the theoretical (Nsight Compute's 10 points): the warps the
 * configuration allows did not stay resident, and why, from what else is known of the
 * launch. */
static void
check_achieved (const WsLaunchFacts *k, GPtrArray *out)
{
  double theoretical = k->occupancy.occupancy, gap;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  gboolean explained = FALSE;
  WsFinding *f;

  if (!k->has_achieved || !k->has_occupancy || !(theoretical > 0))
    return;
  gap = theoretical - k->achieved_occupancy;
  if (gap < _ws_threshold (WS_T_ACHIEVED_GAP) - 1e-9)
    return;
  f = _ws_launch_finding_new (k, WS_FINDING_ACHIEVED_OCCUPANCY,
                   gap >= 2 * _ws_threshold (WS_T_ACHIEVED_GAP) ? WS_SEVERITY_MEDIUM
                                                                : WS_SEVERITY_LOW,
                   gap, _ws_threshold (WS_T_ACHIEVED_GAP));
  _ws_fmt_percent (x1, k->achieved_occupancy);
  _ws_fmt_percent (x2, theoretical);
  _ws_finding_title (f, _("Achieved occupancy %s, below the theoretical %s"), x1, x2);
  _ws_finding_numbers (f, _("The GPU's counters found %s of the SMs' warp slots in use on "
                         "average while they worked; this configuration allows %s."),
                       x1, x2);
  _ws_finding_cause (f, _("Theoretical occupancy is a ceiling: how many warps may be resident. "
                       "They stay resident only while blocks keep arriving and running."));
  if (k->device != NULL && k->device->sm_count > 0 && k->occupancy.active_blocks > 0
      && k->blocks > 0)
    {
      double waves = (double) k->blocks / ((double) k->occupancy.active_blocks
                                           * k->device->sm_count);

      if (waves < 1)
        {
          _ws_finding_cause (f, _("The grid fills %s of one wave: there are not enough blocks "
                               "to fill every SM."),
                             _ws_fmt_percent (x1, waves));
          explained = TRUE;
        }
      else if (waves < 8 && waves - floor (waves) > 0)
        {
          _ws_finding_cause (f, _("The grid makes %.2f waves: during the partial last one most "
                               "SMs run out of blocks."),
                             waves);
          explained = TRUE;
        }
    }
  if (isfinite (k->stall_barrier) && isfinite (k->stall_total) && k->stall_total > 0
      && k->stall_barrier / k->stall_total >= 0.2)
    {
      _ws_finding_cause (f, _("Warps wait at barriers (__syncthreads) for %s of their stalled "
                           "time: a block's warps that finish early wait for its slowest."),
                         _ws_fmt_percent (x1, k->stall_barrier / k->stall_total));
      explained = TRUE;
    }
  if (!explained)
    _ws_finding_cause (f, _("With enough waves and no barriers to wait at, the usual cause is "
                         "imbalance: some blocks or warps take longer than others, and their "
                         "SMs sit partly empty while they finish."));
  _ws_finding_fix (f, _("Give the grid more blocks (more, smaller blocks, or more work per "
                     "launch), balance the work between blocks, and read the stall counters "
                     "(the stalls group) for what the resident warps wait on."));
  _ws_launch_finding_add (k, f, out);
}

/* Global loads or stores that touch more 32-byte sectors per warp request than a warp of
 * consecutive 4-byte elements needs (4): the accesses are strided or scattered. */
static void
check_coalescing (const WsLaunchFacts *k, GPtrArray *out)
{
  static const struct
  {
    const char *sectors, *requests;
    gboolean load;
  } ops[] = { { "global_load_sectors", "global_load_requests", TRUE },
              { "global_store_sectors", "global_store_requests", FALSE } };
  const double ideal = 4, limit = _ws_threshold (WS_T_UNCOALESCED);
  double worst = 0;
  int which = -1;

  for (int i = 0; i < 2; i++)
    {
      double s = counted (k, ops[i].sectors), r = counted (k, ops[i].requests);

      if (isfinite (s) && isfinite (r) && r > 0 && s / r / ideal > worst)
        {
          worst = s / r / ideal;
          which = i;
        }
    }
  if (which < 0 || worst < limit)
    return;
  {
    WsFinding *f = _ws_launch_finding_new (k, WS_FINDING_UNCOALESCED,
                                           worst >= 2 * limit ? WS_SEVERITY_MEDIUM
                                                              : WS_SEVERITY_LOW,
                                           worst, limit);
    double per = worst * ideal;

    if (ops[which].load)
      {
        _ws_finding_title (f, _("Uncoalesced loads: %.1f sectors per warp request, where 4 "
                             "would do"), per);
        _ws_finding_numbers (f, _("A warp's global load touched %.1f 32-byte sectors on "
                               "average; 32 threads reading consecutive 4-byte elements touch "
                               "4."),
                             per);
      }
    else
      {
        _ws_finding_title (f, _("Uncoalesced stores: %.1f sectors per warp request, where 4 "
                             "would do"), per);
        _ws_finding_numbers (f, _("A warp's global store touched %.1f 32-byte sectors on "
                               "average; 32 threads writing consecutive 4-byte elements touch "
                               "4."),
                             per);
      }
    _ws_finding_cause (f, _("Memory moves in 32-byte sectors. When neighbouring threads access "
                         "addresses far apart (a column of a row-major matrix, a stride), each "
                         "thread pulls in a sector of its own and most of each sector is "
                         "wasted."));
    _ws_finding_fix (f, _("Let consecutive threads access consecutive addresses: swap the loop "
                       "or index order, transpose through shared memory (load a tile "
                       "coalesced, read it in the order you need), or store the data in the "
                       "order it is read."));
    _ws_launch_finding_add (k, f, out);
  }
}

/* Shared-memory accesses that took extra passes because threads of a warp hit the same bank. */
static void
check_bank_conflicts (const WsLaunchFacts *k, GPtrArray *out)
{
  double conflicts = counted (k, "shared_load_bank_conflicts")
                     + counted (k, "shared_store_bank_conflicts");
  double wavefronts = counted (k, "shared_load_wavefronts")
                      + counted (k, "shared_store_wavefronts");
  double share, limit = _ws_threshold (WS_T_BANK_CONFLICTS);
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  WsFinding *f;

  if (!isfinite (conflicts) || !isfinite (wavefronts) || wavefronts <= 0)
    return;
  share = conflicts / wavefronts;
  if (share < limit)
    return;
  f = _ws_launch_finding_new (k, WS_FINDING_BANK_CONFLICTS,
                              share >= 2 * limit ? WS_SEVERITY_MEDIUM : WS_SEVERITY_LOW, share,
                              limit);
  _ws_finding_title (f, _("Shared-memory bank conflicts: %s of its passes"),
                     _ws_fmt_percent (x1, share));
  _ws_finding_numbers (f, _("Shared memory took %s passes (wavefronts); %s of them were extra "
                         "passes from bank conflicts."),
                       _ws_fmt_count (x2, wavefronts), _ws_fmt_count (x3, conflicts));
  _ws_finding_cause (f, _("Shared memory has 32 banks, 4 bytes wide. Threads of a warp that hit "
                       "the same bank at different addresses are served one after another: a "
                       "32×32 tile read by column puts all 32 threads on one bank."));
  _ws_finding_fix (f, _("Pad the shared array by one element per row (tile[32][33]), so that a "
                     "column falls on 32 different banks, or change the order in which the "
                     "threads access it."));
  _ws_launch_finding_add (k, f, out);
}

/* Warps whose threads took different branches: fewer than 32 threads active per instruction. */
static void
check_divergence (const WsLaunchFacts *k, GPtrArray *out)
{
  double threads = counted (k, "threads_per_instruction"), limit = _ws_threshold (WS_T_SIMT);
  char x1[WS_FMT_LEN];
  WsFinding *f;

  if (!isfinite (threads) || threads <= 0 || threads / 32 >= limit)
    return;
  f = _ws_launch_finding_new (k, WS_FINDING_DIVERGENT,
                              threads < 16 ? WS_SEVERITY_MEDIUM : WS_SEVERITY_LOW,
                              threads / 32, limit);
  _ws_finding_title (f, _("Divergent warps: %.1f of 32 threads active per instruction"), threads);
  _ws_finding_numbers (f, _("The warps executed their instructions with %.1f threads active on "
                         "average: a SIMT efficiency of %s."),
                       threads, _ws_fmt_percent (x1, threads / 32));
  _ws_finding_cause (f, _("A warp's 32 threads execute one instruction at a time. Where they "
                       "take different sides of a branch, the warp runs each side in turn with "
                       "the other threads idle."));
  _ws_finding_fix (f, _("Make the threads of a warp take the same branch: decide by the warp "
                     "(threadIdx.x / 32) rather than by the thread, sort or group the data so "
                     "that neighbours do the same work, or replace the branch with arithmetic."));
  _ws_launch_finding_add (k, f, out);
}

/* Where the warps' stalled time goes: the largest reason, when it is most of it. */
static const struct
{
  const char *key;
  const char *words;    /* what the warps wait for */
  const char *fix;      /* what helps */
} stalls[] = {
  { "stall_long_scoreboard", N_("global or local memory (long scoreboard)"),
    N_("Have more loads in flight (more warps, or several independent loads per thread), reuse "
       "data from shared memory or registers, and read less (coalesced, fewer bytes).") },
  { "stall_barrier", N_("the other warps of their block at __syncthreads (barrier)"),
    N_("Synchronize less often, balance the work between the warps of a block, or use smaller "
       "blocks so that fewer warps wait for the slowest.") },
  { "stall_mio_throttle", N_("the shared-memory and special-function queue (MIO throttle)"),
    N_("Issue fewer shared-memory instructions: wider accesses (float4), fewer bank conflicts, "
       "values kept in registers.") },
  { "stall_lg_throttle", N_("the local and global memory queue (LG throttle)"),
    N_("Issue fewer, wider global accesses (float4), and keep per-thread arrays out of local "
       "memory.") },
  { "stall_math_pipe_throttle", N_("a busy math unit (math pipe throttle)"),
    N_("The kernel is compute-bound on one unit: spread the work over other instructions, or "
       "use a cheaper one (FMA, lower precision where it is enough).") },
  { "stall_short_scoreboard", N_("shared memory or a special function (short scoreboard)"),
    N_("Fewer bank conflicts, fewer special functions (sin, exp, division), values kept in "
       "registers.") },
  { "stall_wait", N_("a fixed wait after an instruction (wait)"),
    N_("More warps per SM (occupancy) or more independent instructions per thread hide it.") },
  { "stall_not_selected", N_("their turn: they were ready, another warp was picked (not selected)"),
    N_("Nothing is wrong: the SM has more ready warps than it can issue.") },
  { "stall_membar", N_("a memory fence (membar)"),
    N_("Fence less often, or use a narrower fence (__threadfence_block).") },
  { "stall_branch_resolving", N_("a branch to resolve"),
    N_("Fewer branches in the inner loop: unroll, or compute instead of branching.") },
  { "stall_no_instruction", N_("instructions (the instruction cache)"),
    N_("Smaller kernels or less unrolling, so that the loop fits the instruction cache.") },
  { "stall_imc_miss", N_("the constant cache (IMC miss)"),
    N_("Threads of a warp should read the same constant, or read it from global memory.") },
  { "stall_tex_throttle", N_("the texture queue (tex throttle)"),
    N_("Fewer texture or read-only cache accesses per instruction.") },
  { "stall_dispatch_stall", N_("the dispatcher (dispatch stall)"), N_("Rare: nothing to change.") },
  { "stall_drain", N_("their writes to drain at exit (drain)"), N_("Rare: nothing to change.") },
  { "stall_sleeping", N_("sleep (sleeping)"), N_("Fewer __nanosleep calls.") },
  { "stall_selected", N_("nothing: issuing (selected)"), N_("Nothing to change.") },
};

static void
check_stalls (const WsLaunchFacts *k, GPtrArray *out)
{
  double total = counted (k, "stall_total"), best = 0, sum = 0;
  int top = -1;
  char x1[WS_FMT_LEN];
  WsFinding *f;

  for (guint i = 0; i < G_N_ELEMENTS (stalls); i++)
    {
      double v = counted (k, stalls[i].key);

      if (!isfinite (v))
        continue;
      sum += v;
      if (v > best)
        {
          best = v;
          top = (int) i;
        }
    }
  /* The reasons' sum is the total, less the cycles the counters leave unclassified. */
  if (!isfinite (total) || total <= 0)
    total = sum;
  if (top < 0 || total <= 0 || best / total < _ws_threshold (WS_T_STALL_TOP))
    return;
  f = _ws_launch_finding_new (k, WS_FINDING_STALLS, WS_SEVERITY_INFO, best / total,
                              _ws_threshold (WS_T_STALL_TOP));
  _ws_fmt_percent (x1, best / total);
  _ws_finding_title (f, _("Warps wait on %s %s of their stalled time"), _(stalls[top].words), x1);
  _ws_finding_numbers (f, _("A warp spends %.1f cycles per instruction it issues; %s of them "
                         "waiting on %s."),
                       total, x1, _(stalls[top].words));
  _ws_finding_cause (f, _("A warp that cannot issue its next instruction stalls; the SM hides "
                       "the stall with other warps only while it has some ready."));
  _ws_finding_fix (f, "%s", _(stalls[top].fix));
  _ws_launch_finding_add (k, f, out);
}

void
_ws_check_counted (const WsLaunchFacts *k, GPtrArray *out)
{
  check_achieved (k, out);
  if (k->counters == NULL)
    return;
  check_coalescing (k, out);
  check_bank_conflicts (k, out);
  check_divergence (k, out);
  check_stalls (k, out);
}
