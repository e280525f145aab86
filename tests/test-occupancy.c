/* test-occupancy.c: the occupancy calculator against hand-checked cases and real recordings.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ws-occupancy.h"

static WsOccupancy
compute_ok (const char *arch_name, int threads, int registers, int smem)
{
  const WsArchLimits *arch = ws_arch_limits_lookup (arch_name);
  WsOccupancyInput in = { threads, registers, smem };
  WsOccupancy occ;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (arch);
  g_assert_true (ws_occupancy_compute (arch, &in, &occ, &error));
  g_assert_no_error (error);
  return occ;
}

static void
assert_result (const WsOccupancy *occ, int active_blocks, double occupancy, WsLimiter limiter)
{
  g_assert_cmpint (occ->active_blocks, ==, active_blocks);
  g_assert_cmpfloat_with_epsilon (occ->occupancy, occupancy, 1e-9);
  g_assert_cmpstr (ws_limiter_name (occ->limiter), ==, ws_limiter_name (limiter));
}

static void
test_lookup (void)
{
  const WsArchLimits *hopper = ws_arch_limits_lookup ("sm_90");
  const char *const same[] = { "90", "9.0", "sm_90a", "SM_90", "compute_90" };
  const char *const unknown[] = { "", "sm_", "sm_91", "9", "9.", "sm_90x", "hopper", "sm_70" };
  const char *const wanted[] = { "sm_75", "sm_80",  "sm_86",  "sm_87",  "sm_89",
                                 "sm_90", "sm_100", "sm_103", "sm_120", "sm_121" };
  const WsArchLimits *const *all;
  guint n = 0;

  g_assert_nonnull (hopper);
  g_assert_cmpstr (hopper->family, ==, "Hopper");
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    g_assert_true (ws_arch_limits_lookup (same[i]) == hopper);
  for (guint i = 0; i < G_N_ELEMENTS (unknown); i++)
    g_assert_null (ws_arch_limits_lookup (unknown[i]));
  g_assert_true (ws_arch_limits_lookup ("10.3") == ws_arch_limits_lookup ("sm_103"));
  g_assert_true (ws_arch_limits_lookup ("sm_100f") == ws_arch_limits_lookup ("100"));

  all = ws_arch_limits_all (&n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (wanted));
  for (guint i = 0; i < n; i++)
    {
      const WsArchLimits *a = all[i];

      g_assert_cmpstr (a->arch, ==, wanted[i]);
      g_assert_true (ws_arch_limits_lookup (a->arch) == a);
      /* Each table must agree with itself: these are the facts a typo would break. */
      g_assert_cmpint (a->max_warps_per_sm * a->warp_size, ==, a->max_threads_per_sm);
      g_assert_cmpint (a->smem_per_block_optin + a->reserved_smem_per_block, ==, a->smem_per_sm);
      g_assert_cmpint (a->reserved_smem_per_block, ==, a->cc_major >= 8 ? 1024 : 0);
      g_assert_cmpint (a->smem_alloc_unit, ==, a->cc_major >= 8 ? 128 : 256);
      g_assert_cmpuint (a->n_carveouts, >, 0);
      g_assert_cmpuint (a->n_carveouts, <=, WS_ARCH_MAX_CARVEOUTS);
      g_assert_cmpint (a->carveouts_kib[a->n_carveouts - 1] * 1024, ==, a->smem_per_sm);
      for (guint c = 1; c < a->n_carveouts; c++)
        g_assert_cmpint (a->carveouts_kib[c - 1], <, a->carveouts_kib[c]);
      if (i > 0)
        g_assert_cmpint (all[i - 1]->cc_major * 10 + all[i - 1]->cc_minor, <,
                         a->cc_major * 10 + a->cc_minor);
    }
}

static void
test_limiter_names (void)
{
  const char *const names[] = { "warps", "blocks_per_sm", "registers", "shared_memory" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      WsLimiter l = WS_LIMITER_SHARED_MEMORY + 1;

      g_assert_true (ws_limiter_from_name (names[i], &l));
      g_assert_cmpint (l, ==, (WsLimiter) i);
      g_assert_cmpstr (ws_limiter_name (l), ==, names[i]);
      g_assert_nonnull (ws_limiter_describe (l));
    }
  g_assert_false (ws_limiter_from_name ("smem", NULL));
}

static void
test_full_occupancy (void)
{
  WsOccupancy occ = compute_ok ("sm_90", 256, 32, 0);

  /* 8 warps a block: 64 / 8 = 8 blocks, and 32 registers fit 64 warps, so a tie that goes to
   * the warps. */
  assert_result (&occ, 8, 1.0, WS_LIMITER_WARPS);
  g_assert_cmpint (occ.warps_per_block, ==, 8);
  g_assert_cmpint (occ.limit_registers, ==, 8);
  g_assert_cmpint (occ.limit_smem, ==, 228); /* only the driver's 1 KiB per block */
  g_assert_cmpint (occ.regs_per_block, ==, 8192);
  g_assert_cmpint (occ.smem_alloc_per_block, ==, 1024);
  g_assert_cmpint (occ.carveout_bytes, ==, 8 * 1024);
  g_assert_false (occ.needs_opt_in);
}

static void
test_block_cap (void)
{
  WsOccupancy occ = compute_ok ("sm_90", 32, 32, 0);

  assert_result (&occ, 32, 0.5, WS_LIMITER_BLOCKS);
  g_assert_cmpint (occ.limit_warps, ==, 64);

  /* GA10x keeps 48 warps but only 16 blocks. */
  occ = compute_ok ("sm_86", 64, 32, 0);
  assert_result (&occ, 16, 32.0 / 48.0, WS_LIMITER_BLOCKS);
}

static void
test_partial_warp (void)
{
  WsOccupancy occ = compute_ok ("sm_90", 33, 32, 0);

  /* 33 threads take two warps, so 32 blocks fill the SM's warp slots with 1056 threads. */
  assert_result (&occ, 32, 1.0, WS_LIMITER_WARPS);
  g_assert_cmpint (occ.warps_per_block, ==, 2);
  g_assert_cmpint (occ.active_warps, ==, 64);
  g_assert_cmpint (occ.active_threads, ==, 1056);

  /* 65 threads take three warps: 21 blocks leave one warp slot empty. */
  occ = compute_ok ("sm_90", 65, 32, 0);
  assert_result (&occ, 21, 63.0 / 64.0, WS_LIMITER_WARPS);
}

static void
test_registers (void)
{
  WsOccupancy occ = compute_ok ("sm_90", 256, 64, 0);

  assert_result (&occ, 4, 0.5, WS_LIMITER_REGISTERS);

  /* 33 registers are 1056 a warp, allocated as 1280: the same as 40. */
  occ = compute_ok ("sm_90", 256, 33, 0);
  assert_result (&occ, 6, 0.75, WS_LIMITER_REGISTERS);
  g_assert_cmpint (occ.regs_per_block, ==, 8 * 1280);

  /* 12 warps of 1280 registers fit in each sub-partition, 48 in the SM: 16 blocks of three
   * warps, where 65536 / 1280 = 51 warps would wrongly give 17. */
  occ = compute_ok ("sm_90", 96, 40, 0);
  assert_result (&occ, 16, 0.75, WS_LIMITER_REGISTERS);

  /* 1024 threads at 64 registers take exactly the 64 K a block may have; at 65 no block fits. */
  occ = compute_ok ("sm_90", 1024, 64, 0);
  assert_result (&occ, 1, 0.5, WS_LIMITER_REGISTERS);
  occ = compute_ok ("sm_90", 1024, 65, 0);
  assert_result (&occ, 0, 0.0, WS_LIMITER_REGISTERS);

  /* A kernel without registers is not limited by them. */
  occ = compute_ok ("sm_90", 128, 0, 0);
  g_assert_cmpint (occ.limit_registers, ==, WS_OCCUPANCY_NO_LIMIT);
}

static void
test_shared_memory (void)
{
  WsOccupancy occ = compute_ok ("sm_90", 256, 32, 48 * 1024);

  /* 49 KiB a block with the driver's reservation: 228 / 49 = 4 blocks, which the 196 KiB
   * carve-out still holds. */
  assert_result (&occ, 4, 0.5, WS_LIMITER_SHARED_MEMORY);
  g_assert_cmpint (occ.smem_alloc_per_block, ==, 49 * 1024);
  g_assert_cmpint (occ.carveout_bytes, ==, 196 * 1024);
  g_assert_false (occ.needs_opt_in);

  occ = compute_ok ("sm_80", 256, 32, 48 * 1024);
  assert_result (&occ, 3, 24.0 / 64.0, WS_LIMITER_SHARED_MEMORY);

  /* 100 + 1024 bytes round up to 1152. */
  occ = compute_ok ("sm_90", 32, 32, 100);
  g_assert_cmpint (occ.smem_alloc_per_block, ==, 1152);
  g_assert_cmpint (occ.limit_smem, ==, 228 * 1024 / 1152);

  /* Turing: no reservation, 256-byte units, 64 KiB. */
  occ = compute_ok ("sm_75", 256, 32, 32 * 1024);
  assert_result (&occ, 2, 0.5, WS_LIMITER_SHARED_MEMORY);
  occ = compute_ok ("sm_75", 256, 32, 16 * 1024);
  assert_result (&occ, 4, 1.0, WS_LIMITER_WARPS);
  g_assert_cmpint (occ.limit_smem, ==, 4);
  occ = compute_ok ("sm_75", 64, 16, 0);
  g_assert_cmpint (occ.limit_smem, ==, WS_OCCUPANCY_NO_LIMIT);
  g_assert_cmpint (occ.carveout_bytes, ==, 32 * 1024);

  /* All that a block may have, after opting in. */
  occ = compute_ok ("sm_90", 128, 32, 227 * 1024);
  assert_result (&occ, 1, 4.0 / 64.0, WS_LIMITER_SHARED_MEMORY);
  g_assert_true (occ.needs_opt_in);
}

static void
assert_refused (const char *arch_name, int threads, int registers, int smem, int code)
{
  const WsArchLimits *arch = ws_arch_limits_lookup (arch_name);
  WsOccupancyInput in = { threads, registers, smem };
  WsOccupancy occ;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) curve = NULL;

  g_assert_false (ws_occupancy_compute (arch, &in, &occ, &error));
  g_assert_error (error, WS_OCCUPANCY_ERROR, code);
  g_assert_true (g_str_has_suffix (error->message, "."));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  curve = ws_occupancy_curve_registers (arch, &in, &error);
  g_assert_null (curve);
  g_assert_error (error, WS_OCCUPANCY_ERROR, code);
}

static void
test_errors (void)
{
  assert_refused ("sm_90", 0, 32, 0, WS_OCCUPANCY_ERROR_THREADS);
  assert_refused ("sm_90", 1025, 32, 0, WS_OCCUPANCY_ERROR_THREADS);
  assert_refused ("sm_90", 256, 256, 0, WS_OCCUPANCY_ERROR_REGISTERS);
  assert_refused ("sm_90", 256, -1, 0, WS_OCCUPANCY_ERROR_REGISTERS);
  assert_refused ("sm_90", 256, 32, 227 * 1024 + 1, WS_OCCUPANCY_ERROR_SHARED_MEMORY);
  assert_refused ("sm_86", 256, 32, 100 * 1024, WS_OCCUPANCY_ERROR_SHARED_MEMORY);
  assert_refused ("sm_90", 256, 32, -1, WS_OCCUPANCY_ERROR_SHARED_MEMORY);
}

/* Every point agrees with a direct computation of @in with @field (a member of @in) set to
 * its x; x ascends, and the current value is there. */
static void
check_curve (const WsArchLimits *arch, GArray *curve, WsOccupancyInput *in, int *field, int current,
             gboolean occupancy_falls)
{
  gboolean has_current = FALSE;

  g_assert_nonnull (curve);
  for (guint i = 0; i < curve->len; i++)
    {
      const WsOccupancyPoint *p = &g_array_index (curve, WsOccupancyPoint, i);
      WsOccupancy occ;

      *field = (int) p->x;
      g_assert_true (ws_occupancy_compute (arch, in, &occ, NULL));
      g_assert_cmpint (p->active_blocks, ==, occ.active_blocks);
      g_assert_cmpfloat (p->occupancy, ==, occ.occupancy);
      has_current = has_current || p->x == current;
      if (i == 0)
        continue;
      g_assert_cmpfloat (p[-1].x, <, p->x);
      /* More of a resource per block never fits more blocks. */
      g_assert_cmpint (p[-1].active_blocks, >=, p->active_blocks);
      if (occupancy_falls)
        g_assert_cmpfloat (p[-1].occupancy, >=, p->occupancy);
    }
  g_assert_true (has_current);
}

static void
test_curves (void)
{
  const WsArchLimits *arch = ws_arch_limits_lookup ("sm_90");
  WsOccupancyInput in = { 200, 40, 6000 };
  g_autoptr (GArray) threads = ws_occupancy_curve_block_size (arch, &in, NULL);
  g_autoptr (GArray) regs = ws_occupancy_curve_registers (arch, &in, NULL);
  g_autoptr (GArray) smem = ws_occupancy_curve_smem (arch, &in, NULL);
  g_autoptr (GArray) small = NULL;
  WsOccupancyInput copy = in;

  g_assert_cmpuint (threads->len, ==, 1024 / 32 + 1);
  check_curve (arch, threads, &copy, &copy.threads_per_block, in.threads_per_block, FALSE);
  copy = in;
  g_assert_cmpuint (regs->len, ==, 255);
  check_curve (arch, regs, &copy, &copy.registers_per_thread, in.registers_per_thread, TRUE);
  copy = in;
  g_assert_cmpuint (smem->len, ==, 227 * 1024 / 128 + 2);
  check_curve (arch, smem, &copy, &copy.smem_per_block, in.smem_per_block, TRUE);
  g_assert_cmpfloat (g_array_index (smem, WsOccupancyPoint, 0).x, ==, 0);
  g_assert_cmpfloat (g_array_index (smem, WsOccupancyPoint, smem->len - 1).x, ==, 227 * 1024);
  g_assert_cmpint (g_array_index (smem, WsOccupancyPoint, smem->len - 1).active_blocks, ==, 1);

  /* Seven warps a block: 32 registers fit nine blocks, 33 are allocated as 40 and fit six. */
  g_assert_cmpint (g_array_index (regs, WsOccupancyPoint, 31).active_blocks, ==, 9);
  g_assert_cmpint (g_array_index (regs, WsOccupancyPoint, 32).active_blocks, ==, 6);

  /* A block smaller than a warp comes first. */
  in.threads_per_block = 16;
  small = ws_occupancy_curve_block_size (arch, &in, NULL);
  g_assert_cmpfloat (g_array_index (small, WsOccupancyPoint, 0).x, ==, 16);
}

/* ---- agreement with recordings made on real GPUs ------------------------------------------ */

typedef struct
{
  guint files;
  guint devices;
  guint launches;
  guint limiter_differs;
} Tally;

static void
check_device (JsonObject *o, const WsArchLimits *arch)
{
  const struct
  {
    const char *member;
    int expected;
  } limits[] = {
    { "warp_size", arch->warp_size },
    { "max_threads_per_block", arch->max_threads_per_block },
    { "max_threads_per_sm", arch->max_threads_per_sm },
    { "max_blocks_per_sm", arch->max_blocks_per_sm },
    { "regs_per_sm", arch->regs_per_sm },
    { "regs_per_block", arch->regs_per_block },
    { "smem_per_sm", arch->smem_per_sm },
    { "smem_per_block", arch->smem_per_block },
    { "smem_per_block_optin", arch->smem_per_block_optin },
    { "reserved_smem_per_block", arch->reserved_smem_per_block },
  };

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      if (!json_object_has_member (o, limits[i].member))
        continue;
      if (json_object_get_int_member (o, limits[i].member) != limits[i].expected)
        g_test_message ("%s: %s is %" G_GINT64_FORMAT " on the device, %d in the table", arch->arch,
                        limits[i].member, json_object_get_int_member (o, limits[i].member),
                        limits[i].expected);
      g_assert_cmpint (json_object_get_int_member (o, limits[i].member), ==, limits[i].expected);
    }
}

static void
check_launch (JsonObject *o, const WsArchLimits *arch, const char *where, Tally *tally)
{
  WsOccupancyInput in = {
    .threads_per_block = json_object_get_int_member (o, "threads_per_block"),
    .registers_per_thread = json_object_get_int_member (o, "registers"),
    .smem_per_block = json_object_get_int_member (o, "static_smem")
                      + json_object_get_int_member (o, "dynamic_smem"),
  };
  const char *limiter = json_object_get_string_member_with_default (o, "limiter", NULL);
  WsOccupancy occ;
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_occupancy_compute (arch, &in, &occ, &error));
  g_assert_no_error (error);
  if (occ.active_blocks != json_object_get_int_member (o, "active_blocks_per_sm"))
    g_test_message (
        "%s: %s, %d threads, %d registers, %d bytes: %d blocks, recorded %" G_GINT64_FORMAT, where,
        arch->arch, in.threads_per_block, in.registers_per_thread, in.smem_per_block,
        occ.active_blocks, json_object_get_int_member (o, "active_blocks_per_sm"));
  g_assert_cmpint (occ.active_blocks, ==, json_object_get_int_member (o, "active_blocks_per_sm"));
  if (json_object_has_member (o, "max_warps_per_sm"))
    g_assert_cmpint (occ.max_warps, ==, json_object_get_int_member (o, "max_warps_per_sm"));
  if (json_object_has_member (o, "occupancy"))
    g_assert_cmpfloat_with_epsilon (occ.occupancy, json_object_get_double_member (o, "occupancy"),
                                    1e-9);
  /* The runner names its limiter by a simpler rule; a difference is reported, not failed. */
  if (limiter != NULL && g_strcmp0 (limiter, ws_limiter_name (occ.limiter)) != 0)
    {
      tally->limiter_differs++;
      g_test_message ("%s: %d threads, %d registers, %d bytes: limiter %s, runner says %s", where,
                      in.threads_per_block, in.registers_per_thread, in.smem_per_block,
                      ws_limiter_name (occ.limiter), limiter);
    }
  tally->launches++;
}

static void
check_recording (GFile *file, Tally *tally)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFileInputStream) base = g_file_read (file, NULL, &error);
  g_autoptr (GDataInputStream) in = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  const WsArchLimits *arch = NULL;
  char *line;
  guint line_no = 0;

  g_assert_no_error (error);
  in = g_data_input_stream_new (G_INPUT_STREAM (base));
  while ((line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error)) != NULL)
    {
      g_autofree char *text = line;
      g_autofree char *where = g_strdup_printf ("%s:%u", name, ++line_no);
      JsonObject *o;
      const char *type;

      if (*g_strstrip (text) == '\0')
        continue;
      json_parser_load_from_data (parser, text, -1, &error);
      g_assert_no_error (error);
      if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;
      o = json_node_get_object (json_parser_get_root (parser));
      type = json_object_get_string_member_with_default (o, "type", "");
      if (g_str_equal (type, "device"))
        {
          const char *sm = json_object_get_string_member_with_default (o, "sm", "");

          arch = ws_arch_limits_lookup (sm);
          if (arch == NULL)
            g_test_message ("%s: no limits for the device's architecture \"%s\"", where, sm);
          g_assert_nonnull (arch);
          check_device (o, arch);
          tally->devices++;
        }
      else if (g_str_equal (type, "launch"))
        {
          g_assert_nonnull (arch);
          check_launch (o, arch, where, tally);
        }
    }
  g_assert_no_error (error);
  tally->files++;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static void
test_recordings (void)
{
  const char *dir_path = g_getenv ("WS_SAMPLES_DIR");
  g_autoptr (GFile) dir = NULL;
  g_autoptr (GFileEnumerator) children = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  Tally tally = { 0 };

  if (dir_path == NULL || !g_file_test (dir_path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("WS_SAMPLES_DIR names no directory");
      return;
    }
  dir = g_file_new_for_path (dir_path);
  children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME, G_FILE_QUERY_INFO_NONE,
                                        NULL, &error);
  g_assert_no_error (error);
  for (;;)
    {
      GFileInfo *info = NULL;

      g_assert_true (g_file_enumerator_iterate (children, &info, NULL, NULL, &error));
      g_assert_no_error (error);
      if (info == NULL)
        break;
      if (g_str_has_suffix (g_file_info_get_name (info), ".jsonl"))
        g_ptr_array_add (names, g_strdup (g_file_info_get_name (info)));
    }
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr (GFile) file = g_file_get_child (dir, g_ptr_array_index (names, i));

      check_recording (file, &tally);
    }
  if (tally.launches == 0)
    {
      g_test_skip ("no recorded launches in WS_SAMPLES_DIR");
      return;
    }
  g_assert_cmpuint (tally.devices, >, 0);
  g_test_message ("%u recordings, %u device records, %u launches agree; the runner's limiter "
                  "differs in %u",
                  tally.files, tally.devices, tally.launches, tally.limiter_differs);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/occupancy/lookup", test_lookup);
  g_test_add_func ("/occupancy/limiter-names", test_limiter_names);
  g_test_add_func ("/occupancy/full", test_full_occupancy);
  g_test_add_func ("/occupancy/block-cap", test_block_cap);
  g_test_add_func ("/occupancy/partial-warp", test_partial_warp);
  g_test_add_func ("/occupancy/registers", test_registers);
  g_test_add_func ("/occupancy/shared-memory", test_shared_memory);
  g_test_add_func ("/occupancy/errors", test_errors);
  g_test_add_func ("/occupancy/curves", test_curves);
  g_test_add_func ("/occupancy/recordings", test_recordings);

  return g_test_run ();
}
