/* test-session-typed.c: the typed records a session hands out (hello, devices, catalog
 * entries, error records), read by the model's one parser and checked against json-glib's
 * reading of the same lines; and sessions written and read back, equal record for record.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-hello-private.h"
#include "ws-session-private.h"
#include "ws-trace.h"
#include "test-session-util.h"

static WsSession *
feed (const char *const *lines)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_true (ws_session_feed_line (session, lines[i], -1, &error));
      g_assert_no_error (error);
    }
  return session;
}

/* The lines of a file of one type, as json-glib reads them (JsonObject). */
static GPtrArray *
objects_of_type (const char *path, const char *type)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *objects = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *o;

      if (lines[i][0] == '\0' || !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      o = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member_with_default (o, "type", ""), type) == 0)
        g_ptr_array_add (objects, json_object_ref (o));
    }
  return objects;
}

/* json-glib's string, NULL for absent and null. */
static const char *
string_of (JsonObject *o, const char *key)
{
  JsonNode *node = json_object_get_member (o, key);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
             && json_node_get_value_type (node) == G_TYPE_STRING
           ? json_node_get_string (node)
           : NULL;
}

static gint64
int_of (JsonObject *o, const char *key)
{
  JsonNode *node = json_object_get_member (o, key);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_int (node) : 0;
}

static double
double_of (JsonObject *o, const char *key)
{
  JsonNode *node = json_object_get_member (o, key);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_double (node) : 0;
}

static gboolean
bool_of (JsonObject *o, const char *key)
{
  return json_object_get_boolean_member_with_default (o, key, FALSE);
}

static void
assert_strings (JsonObject *o, const char *key, const char *const *typed)
{
  JsonArray *array;

  /* Absent (a traced program's hello has no argv): an empty vector, never NULL. */
  if (!json_object_has_member (o, key))
    {
      g_assert_nonnull (typed);
      g_assert_cmpuint (g_strv_length ((char **) typed), ==, 0);
      return;
    }
  array = json_object_get_array_member (o, key);
  g_assert_cmpuint (g_strv_length ((char **) typed), ==, json_array_get_length (array));
  for (guint i = 0; typed[i] != NULL; i++)
    g_assert_cmpstr (typed[i], ==, json_array_get_string_element (array, i));
}

/* ---- what a session reads ---------------------------------------------------------------- */

static void
check_hello (WsSession *session, JsonObject *o)
{
  const WsHello *h = ws_session_get_hello (session);

  g_assert_nonnull (h);
  g_assert_cmpint (h->protocol, ==, int_of (o, "protocol"));
  g_assert_cmpstr (h->runner, ==, string_of (o, "runner"));
  g_assert_cmpstr (h->build, ==, string_of (o, "build"));
  g_assert_cmpstr (h->gpu_archs, ==, string_of (o, "gpu_archs"));
  g_assert_cmpstr (h->time, ==, string_of (o, "time"));
  g_assert_cmpstr (h->host, ==, string_of (o, "host"));
  g_assert_cmpint (h->driver_found, ==, bool_of (o, "driver_found"));
  g_assert_cmpint (h->driver_version, ==, int_of (o, "driver_version"));
  g_assert_cmpstr (h->driver_cuda, ==, string_of (o, "driver_cuda"));
  g_assert_cmpint (h->runtime_version, ==, int_of (o, "runtime_version"));
  g_assert_cmpstr (h->runtime_cuda, ==, string_of (o, "runtime_cuda"));
  g_assert_cmpint (h->cupti_version, ==, int_of (o, "cupti_version"));
  assert_strings (o, "argv", h->argv);
  g_assert_false (h->replay);
  /* Every sample was recorded on an H200 with a driver: a runner's session, a traced
   * program's, or the runner's --trace over runs of a program. */
  g_assert_true (h->driver_found);
  if (g_strcmp0 (string_of (o, "source"), "trace") != 0)
    {
      g_assert_false (h->trace);
      g_assert_cmpuint (g_strv_length ((char **) h->command), ==, 0);
      g_assert_cmpint (h->protocol, ==, WS_PROTOCOL_RUNNER);
      /* A memory check runs under compute-sanitizer, which takes the place of CUPTI. */
      if (g_strv_contains (h->argv, "--memcheck"))
        g_assert_cmpint (h->cupti_version, ==, 0);
      else
        g_assert_cmpint (h->cupti_version, >, 0);
      return;
    }
  g_assert_true (h->trace);
  g_assert_cmpint (h->protocol, ==, WS_PROTOCOL_TRACE);
  if (!json_object_has_member (o, "pid"))
    {
      /* The runner's hello of --trace: the programs' processes say the rest. */
      g_assert_nonnull (h->runner);
      g_assert_cmpuint (g_strv_length ((char **) h->command), ==, 0);
      return;
    }
  g_assert_cmpint (h->cupti_version, >, 0);
  g_assert_cmpstr (h->inject, ==, string_of (o, "inject"));
  g_assert_cmpint (h->pid, ==, int_of (o, "pid"));
  g_assert_cmpint (h->ppid, ==, int_of (o, "ppid"));
  g_assert_cmpstr (h->program, ==, string_of (o, "program"));
  assert_strings (o, "command", h->command);
  g_assert_cmpuint (g_strv_length ((char **) h->command), >, 0);
  g_assert_cmpstr (h->cwd, ==, string_of (o, "cwd"));
  g_assert_cmpint (h->cupti_built, ==, int_of (o, "cupti_built"));
  g_assert_cmpstr (h->cuda_visible_devices, ==, string_of (o, "cuda_visible_devices"));
  g_assert_cmpint (h->clock_origin_ns, ==, int_of (o, "clock_origin_ns"));
  g_assert_cmpint (h->monotonic_origin_ns, ==, int_of (o, "monotonic_origin_ns"));
  g_assert_cmpint (h->process_start, ==, int_of (o, "process_start"));
  g_assert_cmpstr (h->api, ==, string_of (o, "api"));
  g_assert_cmpint (h->buffer_bytes, ==, int_of (o, "buffer_bytes"));
  g_assert_cmpint (h->flush_ms, ==, int_of (o, "flush_ms"));
}

static void
check_device (WsDevice *device, JsonObject *o)
{
  const WsDeviceInfo *d = ws_device_get_info (device);
  JsonArray *block = json_object_get_array_member (o, "max_block_dim");

  g_assert_cmpint (d->index, ==, int_of (o, "index"));
  g_assert_cmpstr (d->name, ==, string_of (o, "name"));
  g_assert_cmpstr (d->uuid, ==, string_of (o, "uuid"));
  g_assert_cmpstr (d->pci_bus_id, ==, string_of (o, "pci_bus_id"));
  g_assert_cmpstr (d->sm, ==, string_of (o, "sm"));
  g_assert_cmpstr (d->compute_capability, ==, string_of (o, "compute_capability"));
  g_assert_cmpint (d->sm_count, ==, int_of (o, "sm_count"));
  g_assert_cmpint (d->warp_size, ==, int_of (o, "warp_size"));
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (d->max_block_dim[i], ==, json_array_get_int_element (block, i));
  g_assert_cmpint (d->max_grid_dim[0], ==,
                   json_array_get_int_element (json_object_get_array_member (o, "max_grid_dim"), 0));
  g_assert_cmpint (d->max_threads_per_sm, ==, int_of (o, "max_threads_per_sm"));
  g_assert_cmpint (d->regs_per_sm, ==, int_of (o, "regs_per_sm"));
  g_assert_cmpint (d->smem_per_block_optin, ==, int_of (o, "smem_per_block_optin"));
  g_assert_cmpint (d->l2_bytes, ==, int_of (o, "l2_bytes"));
  g_assert_cmpint (d->memory_bytes, ==, int_of (o, "memory_bytes"));
  g_assert_cmpint (d->memory_free_bytes, ==, int_of (o, "memory_free_bytes"));
  g_assert_cmpint (d->ecc, ==, bool_of (o, "ecc"));
  g_assert_cmpint (d->calibration_bytes, ==, int_of (o, "calibration_bytes"));
  g_assert_cmpfloat (d->fp32_peak_gflops, ==, double_of (o, "fp32_peak_gflops"));
  g_assert_cmpfloat (d->bandwidth_measured_gbs, ==, double_of (o, "bandwidth_measured_gbs"));
  g_assert_cmpfloat (d->h2d_pinned_gbs, ==, double_of (o, "h2d_pinned_gbs"));
  g_assert_cmpfloat (d->d2h_pageable_gbs, ==, double_of (o, "d2h_pageable_gbs"));
}

static void
check_kernel (WsKernelEntry *entry, JsonObject *o)
{
  const WsKernelInfo *k = ws_kernel_entry_get_info (entry);
  JsonNode *block = json_object_get_member (o, "default_block");
  JsonArray *shape = json_object_get_array_member (o, "default_shape");

  g_assert_cmpstr (k->name, ==, string_of (o, "name"));
  g_assert_cmpstr (k->family, ==, string_of (o, "family"));
  g_assert_cmpstr (k->title, ==, string_of (o, "title"));
  g_assert_cmpstr (k->description, ==, string_of (o, "description"));
  g_assert_cmpstr (k->source, ==, string_of (o, "source"));
  g_assert_cmpstr (k->library, ==, string_of (o, "library"));
  g_assert_cmpstr (k->flops, ==, string_of (o, "flops"));
  g_assert_cmpstr (k->bytes, ==, string_of (o, "bytes"));
  g_assert_cmpstr (k->tolerance, ==, string_of (o, "tolerance"));
  g_assert_cmpint (k->block_dims, ==, int_of (o, "block_dims"));
  assert_strings (o, "shape_params", k->shape_params);
  g_assert_cmpint (k->shape_rank, ==, json_array_get_length (shape));
  for (int i = 0; i < k->shape_rank; i++)
    g_assert_cmpint (k->default_shape[i], ==, json_array_get_int_element (shape, i));
  g_assert_cmpint (k->has_default_block, ==, !JSON_NODE_HOLDS_NULL (block));
  for (guint i = 0; k->has_default_block && i < 3; i++)
    g_assert_cmpint (k->default_block[i], ==,
                     json_array_get_int_element (json_node_get_array (block), i));
  g_assert_cmpint (k->block_fixed, ==, bool_of (o, "block_fixed"));
  g_assert_cmpint (k->streamable, ==, bool_of (o, "streamable"));
  /* The tests read English: the title as the runner wrote it. */
  g_assert_cmpstr (ws_kernel_entry_get_title (entry), ==, k->title);
  g_assert_true (ws_kernel_entry_is_default_block (entry, k->default_block)
                 == k->has_default_block);
}

/* A trace lists each GPU once (by UUID), as its processes saw it first, or as the runner
 * measured it (a device record without a pid) when it did. */
static void
check_trace_devices (WsSession *session, GPtrArray *devices)
{
  GListModel *list = ws_session_get_devices (session);
  g_autoptr (GHashTable) uuids = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint d = 0; d < devices->len; d++)
    g_hash_table_add (uuids, (gpointer) string_of (g_ptr_array_index (devices, d), "uuid"));
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, g_hash_table_size (uuids));
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (WsDevice) device = g_list_model_get_item (list, i);
      JsonObject *first = NULL, *measured = NULL;

      for (guint d = 0; d < devices->len; d++)
        {
          JsonObject *o = g_ptr_array_index (devices, d);

          if (g_strcmp0 (string_of (o, "uuid"), ws_device_get_info (device)->uuid) != 0)
            continue;
          if (first == NULL)
            first = o;
          if (!json_object_has_member (o, "pid"))
            measured = o;
        }
      g_assert_nonnull (first);
      check_device (device, measured != NULL ? measured : first);
    }
}

/* Every field of every hello, device and catalog entry of the recordings, as json-glib reads
 * the same line. */
static void
test_samples_typed (void)
{
  g_autoptr (GPtrArray) paths = ws_test_list_samples ();
  guint kernels_seen = 0;

  if (paths->len == 0)
    {
      g_test_skip ("no recordings in resources/samples");
      return;
    }
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr (WsSession) session = ws_test_load_file (path);
      g_autoptr (GPtrArray) hellos = objects_of_type (path, "hello");
      g_autoptr (GPtrArray) devices = objects_of_type (path, "device");
      g_autoptr (GPtrArray) kernels = objects_of_type (path, "kernel");
      GListModel *entries = ws_session_get_kernels (session);

      g_test_message ("%s", path);
      check_hello (session, g_ptr_array_index (hellos, 0));
      if (ws_session_get_trace (session) != NULL)
        check_trace_devices (session, devices);
      else
        {
          g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==,
                            devices->len);
          for (guint d = 0; d < devices->len; d++)
            {
              g_autoptr (WsDevice) device
                = g_list_model_get_item (ws_session_get_devices (session), d);

              check_device (device, g_ptr_array_index (devices, d));
            }
        }
      g_assert_cmpuint (g_list_model_get_n_items (entries), ==, kernels->len);
      for (guint k = 0; k < kernels->len; k++)
        {
          g_autoptr (WsKernelEntry) entry = g_list_model_get_item (entries, k);

          check_kernel (entry, g_ptr_array_index (kernels, k));
          g_assert_true (ws_session_find_kernel (session, ws_kernel_entry_get_name (entry))
                         == entry);
          kernels_seen++;
        }
    }
  g_assert_cmpuint (kernels_seen, >, 0);
}

/* The catalog's rules as the plan and the charts read them, for the kinds of kernel there
 * are: a 1D one, a 2D one with a W×H block, a transpose (rows × cols), a library's. */
static void
test_kernel_entries (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "matmul-ladder-h200.jsonl", NULL);
  g_autofree char *transposes = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                                  "transpose-ladder-h200.jsonl", NULL);
  g_autoptr (WsSession) session = ws_test_load_file (path);
  g_autoptr (WsSession) transpose = ws_test_load_file (transposes);
  WsKernelEntry *cublas = ws_session_find_kernel (session, "matmul_cublas");
  WsKernelEntry *tiled = ws_session_find_kernel (session, "matmul_tiled");
  WsKernelEntry *naive = ws_session_find_kernel (transpose, "transpose_naive");
  const guint b16[3] = { 16, 16, 1 }, b32[3] = { 32, 32, 1 };

  g_assert_nonnull (cublas);
  g_assert_cmpstr (ws_kernel_entry_get_info (cublas)->library, ==, "cuBLAS");
  g_assert_false (ws_kernel_entry_get_info (cublas)->has_default_block);
  g_assert_true (ws_kernel_entry_get_info (cublas)->block_fixed);
  g_assert_false (ws_kernel_entry_is_default_block (cublas, b16));
  g_assert_nonnull (tiled);
  g_assert_cmpint (ws_kernel_entry_get_info (tiled)->block_dims, ==, 2);
  g_assert_cmpint (ws_kernel_entry_get_info (tiled)->shape_rank, ==, 3);
  g_assert_true (ws_kernel_entry_is_default_block (tiled, b16));
  g_assert_false (ws_kernel_entry_is_default_block (tiled, b32));
  g_assert_nonnull (naive);
  g_assert_cmpint (ws_kernel_entry_get_info (naive)->shape_rank, ==, 2);
  g_assert_cmpstr (ws_kernel_entry_get_info (naive)->shape_params[1], ==, "cols");
  g_assert_null (ws_session_find_kernel (session, "no_such_kernel"));
  g_assert_null (ws_session_find_kernel (session, NULL));
  {
    g_autofree char *name = NULL, *title = NULL;

    g_object_get (tiled, "name", &name, "title", &title, NULL);
    g_assert_cmpstr (name, ==, "matmul_tiled");
    g_assert_cmpstr (title, ==, ws_kernel_entry_get_info (tiled)->title);
  }
}

/* A kernel given twice is listed twice and found as its last record; one without a name is
 * kept for writing back but names nothing. */
static void
test_kernel_repeated (void)
{
  const char *const lines[] = {
    "{\"type\":\"hello\",\"protocol\":1}",
    "{\"type\":\"kernel\",\"name\":\"k\",\"title\":\"first\",\"block_dims\":1}",
    "{\"type\":\"kernel\",\"title\":\"nameless\"}",
    "{\"type\":\"kernel\",\"name\":\"k\",\"title\":\"second\",\"default_block\":[64,1,1]}",
    NULL,
  };
  g_autoptr (WsSession) session = feed (lines);
  WsKernelEntry *k = ws_session_find_kernel (session, "k");

  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_kernels (session)), ==, 2);
  g_assert_cmpstr (ws_kernel_entry_get_info (k)->title, ==, "second");
  g_assert_cmpint (ws_kernel_entry_get_info (k)->default_block[0], ==, 64);
  /* Absent fields read as not known. */
  g_assert_cmpint (ws_kernel_entry_get_info (k)->block_dims, ==, 1);
  g_assert_cmpuint (g_strv_length ((char **) ws_kernel_entry_get_info (k)->shape_params), ==, 0);
  g_assert_cmpint (ws_kernel_entry_get_info (k)->default_shape[0], ==, 0);
  g_assert_null (ws_kernel_entry_get_info (k)->source);
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
}

/* A device's host copy spreads, which the samples predate. */
static void
test_device_spread (void)
{
  const char *const lines[] = {
    "{\"type\":\"hello\",\"protocol\":1}",
    "{\"type\":\"device\",\"index\":1,\"name\":\"G\",\"h2d_pageable_gbs\":9.5,"
    "\"h2d_pageable_spread\":{\"min\":7,\"median\":9,\"max\":12,\"n\":32,\"bytes\":33554432,"
    "\"mean\":9.5,\"cpus\":16,\"buffers\":4},\"h2d_pinned_spread\":null,"
    "\"d2h_pinned_spread\":{\"median\":0,\"n\":7}}",
    NULL,
  };
  g_autoptr (WsSession) session = feed (lines);
  const WsDeviceInfo *d = ws_device_get_info (ws_session_get_device (session));

  g_assert_cmpint (d->index, ==, 1);
  g_assert_cmpfloat (d->h2d_pageable.min, ==, 7);
  g_assert_cmpfloat (d->h2d_pageable.median, ==, 9);
  g_assert_cmpfloat (d->h2d_pageable.max, ==, 12);
  g_assert_cmpint (d->h2d_pageable.n, ==, 32);
  g_assert_cmpint (d->h2d_pageable.bytes, ==, 33554432);
  g_assert_cmpfloat (d->h2d_pageable.mean, ==, 9.5);
  g_assert_cmpint (d->h2d_pageable.cpus, ==, 16);
  g_assert_cmpint (d->h2d_pageable.buffers, ==, 4);
  g_assert_cmpint (d->h2d_pinned.n, ==, 0);
  /* No median, no samples. */
  g_assert_cmpint (d->d2h_pinned.n, ==, 0);
  /* Defaults where the record says nothing. */
  g_assert_cmpint (d->warp_size, ==, 32);
  g_assert_null (d->uuid);
}

/* Error records: the code and severity as the protocol's enumerations, the code as written
 * for people, and a code of a later version kept by name. */
static void
test_errors (void)
{
  const char *const lines[] = {
    "{\"type\":\"hello\",\"protocol\":1}",
    "{\"type\":\"error\",\"run\":null,\"severity\":\"warning\",\"code\":\"cupti_unavailable\","
    "\"message\":\"m\"}",
    "{\"type\":\"error\",\"severity\":\"error\",\"code\":\"gpu_on_fire\",\"message\":\"hot\"}",
    "{\"type\":\"error\",\"message\":\"no code\"}",
    "{\"type\":\"run\",\"id\":1,\"kernel\":\"vector_add\"}",
    "{\"type\":\"error\",\"run\":1,\"severity\":\"warning\",\"code\":\"trace_incomplete\"}",
    "{\"type\":\"run\",\"id\":2,\"kernel\":\"vector_add\"}",
    "{\"type\":\"error\",\"run\":2,\"severity\":\"error\",\"code\":\"invalid_block\","
    "\"detail\":\"cudaErrorInvalidConfiguration\"}",
    NULL,
  };
  g_autoptr (WsSession) session = feed (lines);
  GPtrArray *errors = ws_session_get_errors (session);
  WsRunnerError *e;

  g_assert_cmpuint (errors->len, ==, 3);
  e = g_ptr_array_index (errors, 0);
  g_assert_cmpint (e->run, ==, 0);
  g_assert_cmpint (e->severity, ==, WS_ERROR_SEVERITY_WARNING);
  g_assert_cmpint (e->code, ==, WS_ERROR_CUPTI_UNAVAILABLE);
  g_assert_cmpstr (e->code_name, ==, "cupti_unavailable");
  e = g_ptr_array_index (errors, 1);
  g_assert_cmpint (e->severity, ==, WS_ERROR_SEVERITY_ERROR);
  g_assert_cmpint (e->code, ==, WS_ERROR_UNKNOWN);
  g_assert_cmpstr (e->code_name, ==, "gpu_on_fire");
  e = g_ptr_array_index (errors, 2);
  g_assert_cmpint (e->severity, ==, WS_ERROR_SEVERITY_ERROR);
  g_assert_cmpint (e->code, ==, WS_ERROR_UNKNOWN);
  g_assert_cmpstr (e->code_name, ==, "unknown");
  g_assert_cmpstr (e->message, ==, "no code");
  g_assert_null (e->detail);
  /* A warning leaves its run running; an error refuses it. */
  g_assert_cmpint (ws_run_get_state (ws_session_find_run (session, 1)), ==, WS_RUN_STATE_RUNNING);
  g_assert_cmpint (ws_run_get_state (ws_session_find_run (session, 2)), ==, WS_RUN_STATE_REFUSED);
  e = g_ptr_array_index (ws_run_get_errors (ws_session_find_run (session, 2)), 0);
  g_assert_cmpint (e->code, ==, WS_ERROR_INVALID_BLOCK);
  g_assert_cmpstr (e->detail, ==, "cudaErrorInvalidConfiguration");
}

/* A traced program's hello (protocol 2), field by field. */
static void
test_trace_hello (void)
{
  const char line[]
    = "{\"type\":\"hello\",\"t\":0,\"pid\":4242,\"protocol\":2,\"source\":\"trace\","
      "\"inject\":\"0.1.0\",\"build\":\"release\",\"time\":\"2026-12-01T09:00:00Z\","
      "\"host\":\"gpu-box\",\"ppid\":4000,\"program\":\"/usr/bin/python3.12\","
      "\"command\":[\"python3\",\"vector_add.py\"],\"cwd\":\"/home/s\",\"driver_found\":true,"
      "\"driver_version\":13000,\"driver_cuda\":\"13.0\",\"cupti_version\":130001,"
      "\"cupti_built\":130000,\"cuda_visible_devices\":null,\"clock_origin_ns\":1700000000000,"
      "\"monotonic_origin_ns\":123456789,\"process_start\":-850000000,\"api\":\"launch\","
      "\"buffer_bytes\":16777216,\"flush_ms\":500}";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecord) record = ws_record_parse (line, strlen (line), NULL, &error);
  g_autoptr (WsHello) h = NULL;
  g_autofree char *date = NULL;

  g_assert_no_error (error);
  h = _ws_hello_new_from_record (record);
  g_assert_cmpint (h->protocol, ==, WS_PROTOCOL_TRACE);
  g_assert_true (h->trace);
  g_assert_null (h->runner);
  g_assert_cmpstr (h->inject, ==, "0.1.0");
  g_assert_cmpint (h->pid, ==, 4242);
  g_assert_cmpint (h->ppid, ==, 4000);
  g_assert_cmpstr (h->program, ==, "/usr/bin/python3.12");
  g_assert_cmpuint (g_strv_length ((char **) h->command), ==, 2);
  g_assert_cmpstr (h->command[1], ==, "vector_add.py");
  g_assert_cmpuint (g_strv_length ((char **) h->argv), ==, 0);
  g_assert_cmpstr (h->cwd, ==, "/home/s");
  g_assert_cmpint (h->cupti_built, ==, 130000);
  g_assert_null (h->cuda_visible_devices);
  g_assert_cmpint (h->clock_origin_ns, ==, G_GINT64_CONSTANT (1700000000000));
  g_assert_cmpint (h->monotonic_origin_ns, ==, 123456789);
  g_assert_cmpint (h->process_start, ==, -850000000);
  g_assert_cmpstr (h->api, ==, "launch");
  g_assert_cmpint (h->buffer_bytes, ==, 16777216);
  g_assert_cmpint (h->flush_ms, ==, 500);
  date = ws_hello_dup_date (h);
  g_assert_cmpstr (date, ==, "2026-12-01");
  /* Shared by reference, as a boxed type. */
  g_assert_true (ws_hello_ref (h) == h);
  ws_hello_unref (h);
  g_assert_true (G_TYPE_IS_BOXED (WS_TYPE_HELLO));
}

/* A replay's mark, read into the hello. */
static void
test_replay_hello (void)
{
  const char *const lines[] = {
    "{\"type\":\"hello\",\"protocol\":1,\"runner\":\"0.1.0\","
    "\"replay\":{\"file\":\"s.jsonl\",\"speed\":4}}",
    NULL,
  };
  g_autoptr (WsSession) session = feed (lines);
  const WsHello *h = ws_session_get_hello (session);

  g_assert_true (h->replay);
  g_assert_cmpstr (h->replay_file, ==, "s.jsonl");
  g_assert_cmpfloat (h->replay_speed, ==, 4);
  g_assert_cmpint (ws_session_get_source (session), ==, WS_SESSION_SOURCE_REPLAY);
}

/* ---- written and read back ------------------------------------------------------------- */

static WsSession *
read_string (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_RECORDING);

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  ws_session_end (session);
  return session;
}

static void
assert_same_stats (const WsStats *a, const WsStats *b)
{
  g_assert_cmpfloat (a->median, ==, b->median);
  g_assert_cmpfloat (a->min, ==, b->min);
  g_assert_cmpfloat (a->max, ==, b->max);
  g_assert_cmpint (a->n, ==, b->n);
}

static void
assert_same_run (WsRun *a, WsRun *b)
{
  const WsRunConfig *x = ws_run_get_config (a), *y = ws_run_get_config (b);
  guint na, nb;
  const WsSpan *aa = ws_run_get_activities (a, &na);
  const WsSpan *ab = ws_run_get_activities (b, &nb);

  g_assert_cmpint (x->id, ==, y->id);
  g_assert_cmpstr (x->kernel, ==, y->kernel);
  g_assert_cmpstr (x->size_text, ==, y->size_text);
  g_assert_cmpmem (x->shape, sizeof x->shape, y->shape, sizeof y->shape);
  g_assert_cmpmem (x->block, sizeof x->block, y->block, sizeof y->block);
  g_assert_cmpint (x->has_block, ==, y->has_block);
  g_assert_cmpfloat (x->flops, ==, y->flops);
  g_assert_cmpint (x->seed, ==, y->seed);
  g_assert_cmpint (ws_run_get_state (a), ==, ws_run_get_state (b));
  g_assert_true ((ws_run_get_launch (a) == NULL) == (ws_run_get_launch (b) == NULL));
  if (ws_run_get_launch (a) != NULL)
    {
      g_assert_cmpfloat (ws_run_get_launch (a)->occupancy, ==, ws_run_get_launch (b)->occupancy);
      g_assert_cmpint (ws_run_get_launch (a)->registers, ==, ws_run_get_launch (b)->registers);
    }
  assert_same_stats (&ws_run_get_timing (a)->kernel, &ws_run_get_timing (b)->kernel);
  assert_same_stats (&ws_run_get_timing (a)->e2e, &ws_run_get_timing (b)->e2e);
  assert_same_stats (&ws_run_get_timing (a)->cpu_all.stats, &ws_run_get_timing (b)->cpu_all.stats);
  g_assert_cmpfloat (ws_run_get_verify (a)->max_rel_err, ==, ws_run_get_verify (b)->max_rel_err);
  /* Activities to the byte: the readers zero them whole, and names are interned. */
  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpmem (aa, na * sizeof *aa, ab, nb * sizeof *ab);
}

/* Every sample written, read back and written again: the same typed records, the same
 * bytes. */
static void
test_write_read_back (void)
{
  g_autoptr (GPtrArray) paths = ws_test_list_samples ();

  if (paths->len == 0)
    {
      g_test_skip ("no recordings in resources/samples");
      return;
    }
  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr (WsSession) a = ws_test_load_file (g_ptr_array_index (paths, i));
      g_autofree char *first = ws_test_write_to_string (a);
      g_autoptr (WsSession) b = read_string (first);
      g_autofree char *second = ws_test_write_to_string (b);
      GListModel *runs_a = ws_session_get_runs (a), *runs_b = ws_session_get_runs (b);

      g_assert_cmpstr (first, ==, second);
      g_assert_cmpuint (ws_session_get_problems (b)->len, ==, 0);
      g_assert_cmpstr (ws_session_get_hello (a)->time, ==, ws_session_get_hello (b)->time);
      g_assert_cmpstr (ws_session_get_hello (a)->runner, ==, ws_session_get_hello (b)->runner);
      g_assert_cmpint (ws_session_get_hello (a)->cupti_version, ==,
                       ws_session_get_hello (b)->cupti_version);
      /* A memory check has no device record; what it found, and the source, come back. */
      if (ws_session_get_device (a) == NULL)
        g_assert_null (ws_session_get_device (b));
      else
        g_assert_cmpfloat (
          ws_device_get_info (ws_session_get_device (a))->bandwidth_measured_gbs, ==,
          ws_device_get_info (ws_session_get_device (b))->bandwidth_measured_gbs);
      g_assert_cmpuint (ws_session_get_memcheck_findings (a)->len, ==,
                        ws_session_get_memcheck_findings (b)->len);
      g_assert_cmpstr (ws_session_get_source_text (a, NULL, NULL), ==,
                       ws_session_get_source_text (b, NULL, NULL));
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_kernels (a)), ==,
                        g_list_model_get_n_items (ws_session_get_kernels (b)));
      g_assert_cmpuint (g_list_model_get_n_items (runs_a), ==, g_list_model_get_n_items (runs_b));
      for (guint r = 0; r < g_list_model_get_n_items (runs_a); r++)
        {
          g_autoptr (WsRun) x = g_list_model_get_item (runs_a, r);
          g_autoptr (WsRun) y = g_list_model_get_item (runs_b, r);

          assert_same_run (x, y);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-typed/samples", test_samples_typed);
  g_test_add_func ("/session-typed/kernel-entries", test_kernel_entries);
  g_test_add_func ("/session-typed/kernel-repeated", test_kernel_repeated);
  g_test_add_func ("/session-typed/device-spread", test_device_spread);
  g_test_add_func ("/session-typed/errors", test_errors);
  g_test_add_func ("/session-typed/trace-hello", test_trace_hello);
  g_test_add_func ("/session-typed/replay-hello", test_replay_hello);
  g_test_add_func ("/session-typed/write-read-back", test_write_read_back);
  return g_test_run ();
}
