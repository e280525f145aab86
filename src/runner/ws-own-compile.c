/* ws-own-compile.c: compiling an own kernel's variants with NVRTC (-lineinfo, -D for the
 * tunable parameters and block_size_x/y/z, the header's options) and loading them; a
 * compile record for each, its errors and warnings as error records with file, line and
 * column; and --check-source.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-own-kernel-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws-config.h"
#include "ws-output.h"
#include "ws-protocol.h"

#define MAX_OPTIONS (8 + WS_KF_MAX_PARAMS + 3 + WS_KF_MAX_OPTIONS)

typedef struct
{
  char storage[MAX_OPTIONS][160];
  const char *argv[MAX_OPTIONS];
  int n;
} Options;

static void
add_option (Options *o, const char *text)
{
  if (o->n == MAX_OPTIONS)
    return;
  snprintf (o->storage[o->n], sizeof o->storage[o->n], "%s", text);
  o->argv[o->n] = o->storage[o->n];
  o->n++;
}

static void
build_options (const OwnKernel *k, const OwnVariant *v, Options *o)
{
  char buf[160];

  o->n = 0;
  add_option (o, "-lineinfo");
  add_option (o, "-default-device");
  add_option (o, "-std=c++17");
  /* cuda_fp16.h and the like; NVRTC has no C++ standard library. */
  if (access (WS_CUDA_ROOT "/include/cuda_fp16.h", R_OK) == 0)
    add_option (o, "--include-path=" WS_CUDA_ROOT "/include");
  for (int p = 0; p < k->kf.n_params; p++)
    {
      snprintf (buf, sizeof buf, "-D%s=%s", k->kf.params[p].name, v->param_texts[p]);
      add_option (o, buf);
    }
  for (int d = 0; d < 3; d++)
    if (v->macros[d] > 0)
      {
        snprintf (buf, sizeof buf, "-Dblock_size_%c=%u", "xyz"[d], v->macros[d]);
        add_option (o, buf);
      }
  for (int i = 0; i < k->kf.n_options; i++)
    add_option (o, k->kf.options[i]);
}

static void
params_object (WsJson *j, const OwnKernel *k, const OwnVariant *v)
{
  ws_json_begin_object (j, WS_KEY_PARAMS);
  for (int p = 0; p < k->kf.n_params; p++)
    ws_json_double (j, k->kf.params[p].name, v->params[p]);
  ws_json_end_object (j);
}

static void
output_compile (const OwnKernel *k, const OwnVariant *v, const char *entry, const Options *o,
                const WsNvrtcResult *r, int errors, int warnings)
{
  WsJson *j = ws_output_begin (WS_RECORD_TYPE_COMPILE);

  ws_json_string (j, WS_KEY_KERNEL, k->desc.name);
  ws_json_string (j, WS_KEY_ENTRY, entry);
  ws_json_bool (j, WS_KEY_REFERENCE, v->reference);
  ws_json_bool (j, WS_KEY_OK, r->ok);
  ws_json_string (j, WS_KEY_LOWERED, r->ok ? r->lowered[0] : NULL);
  params_object (j, k, v);
  ws_json_begin_array (j, WS_KEY_BLOCK_SIZE);
  for (int d = 0; d < 3; d++)
    ws_json_uint (j, NULL, v->macros[d]);
  ws_json_end_array (j);
  ws_json_string (j, WS_KEY_ARCH, r->arch[0] ? r->arch : NULL);
  ws_json_bool (j, WS_KEY_PTX, r->is_ptx);
  ws_json_string (j, WS_KEY_NVRTC, ws_nvrtc_version_string ());
  ws_json_begin_array (j, WS_KEY_OPTIONS);
  for (int i = 0; i < o->n; i++)
    ws_json_string (j, NULL, o->argv[i]);
  ws_json_end_array (j);
  ws_json_bool (j, WS_KEY_CACHED, r->cached);
  ws_json_double (j, WS_KEY_MS, r->ms);
  ws_json_string (j, WS_KEY_KEY, r->key[0] ? r->key : NULL);
  ws_json_uint (j, WS_KEY_IMAGE_BYTES, r->image_len);
  ws_json_int (j, WS_KEY_ERRORS, errors);
  ws_json_int (j, WS_KEY_WARNINGS, warnings);
  ws_json_string (j, WS_KEY_LOG, r->log);
  ws_output_end ();
}

/* Warnings already written (each once, not once per variant). */
static struct
{
  int line;
  char message[120];
} seen[64];
static int n_seen;

static int
seen_before (int line, const char *message)
{
  for (int i = 0; i < n_seen; i++)
    if (seen[i].line == line && strncmp (seen[i].message, message, sizeof seen[i].message - 1) == 0)
      return 1;
  if (n_seen < (int) (sizeof seen / sizeof *seen))
    {
      seen[n_seen].line = line;
      snprintf (seen[n_seen].message, sizeof seen[n_seen].message, "%s", message);
      n_seen++;
    }
  return 0;
}

/* "TILE = 16, block_size_x = 32": for messages about one variant. */
static void
describe_variant (const OwnKernel *k, const OwnVariant *v, char *buf, size_t len)
{
  size_t o = 0;

  buf[0] = '\0';
  for (int p = 0; p < k->kf.n_params; p++)
    o += (size_t) snprintf (buf + o, o < len ? len - o : 0, "%s%s = %s", o ? ", " : "",
                            k->kf.params[p].name, v->param_texts[p]);
  for (int d = 0; d < 3; d++)
    if (v->macros[d])
      o += (size_t) snprintf (buf + o, o < len ? len - o : 0, "%sblock_size_%c = %u",
                              o ? ", " : "", "xyz"[d], v->macros[d]);
}

static void
output_diags (const OwnKernel *k, const OwnVariant *v, const WsNvrtcResult *r, int *errors,
              int *warnings)
{
  char what[200], message[900];

  describe_variant (k, v, what, sizeof what);
  *errors = *warnings = 0;
  for (int i = 0; i < r->n_diags; i++)
    {
      const WsCompileDiag *d = &r->diags[i];
      int error = strcmp (d->severity, "error") == 0;

      *errors += error;
      *warnings += !error;
      if (d->name_lookup)
        {
          int line = v->reference ? k->kf.verify_line : k->kf.kernel_line;

          snprintf (message, sizeof message, "%s '%s' is not a __global__ function of this file "
                    "(a template needs its instance named, as in %s<16>): %s",
                    v->reference ? "the reference" : "the kernel",
                    v->reference ? k->kf.verify_kernel : k->kf.kernel,
                    v->reference ? k->kf.verify_kernel : k->kf.kernel, d->message);
          ws_output_error_at (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_HEADER_ERROR, message, NULL,
                              k->path, line, 1);
          continue;
        }
      if (!error && seen_before (d->line, d->message))
        continue;
      if (d->line == 0 && what[0] != '\0')
        snprintf (message, sizeof message, "%s (compiled with %s)", d->message, what);
      else
        snprintf (message, sizeof message, "%s", d->message);
      ws_output_error_at (0, error ? WS_ERROR_SEVERITY_ERROR : WS_ERROR_SEVERITY_WARNING,
                          error ? WS_ERROR_COMPILE_ERROR : WS_ERROR_COMPILE_WARNING, message,
                          NULL, k->path, d->line, d->column);
    }
}

/* Compiles v (and loads it when `load`); 0 after its errors are written. */
static int
compile_variant (OwnKernel *k, OwnVariant *v, int cc_major, int cc_minor, int load,
                 int *exit_code)
{
  const char *entry = v->reference ? k->kf.verify_kernel : k->kf.kernel;
  WsNvrtcResult r;
  Options o;
  int errors, warnings, ok;
  cudaError_t e;
  char message[1024];

  build_options (k, v, &o);
  ok = ws_nvrtc_compile (k->path, k->text, k->len, o.argv, o.n, &entry, 1, cc_major, cc_minor,
                         &r);
  output_diags (k, v, &r, &errors, &warnings);
  output_compile (k, v, entry, &o, &r, errors, warnings);
  if (!ok)
    {
      if (errors == 0 || r.code != WS_ERROR_COMPILE_ERROR)
        ws_output_error (0, WS_ERROR_SEVERITY_ERROR,
                         r.code != WS_ERROR_NONE ? r.code : WS_ERROR_COMPILE_ERROR, r.error,
                         NULL);
      *exit_code = r.code == WS_ERROR_NVRTC_UNAVAILABLE ? 3 : 2;
      ws_nvrtc_result_clear (&r);
      return 0;
    }
  snprintf (v->lowered, sizeof v->lowered, "%s", r.lowered[0]);
  if (load)
    {
      e = cudaLibraryLoadData (&v->library, r.image, NULL, NULL, 0, NULL, NULL, 0);
      if (e == cudaSuccess)
        e = cudaLibraryGetKernel (&v->kernel, v->library, v->lowered);
      if (e != cudaSuccess)
        {
          char detail[256];

          snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (e), cudaGetErrorString (e));
          snprintf (message, sizeof message, "The GPU could not load %s as compiled for %s by "
                    "NVRTC %s%s: update the driver, or report this with the detail below",
                    entry, r.arch, ws_nvrtc_version_string (),
                    r.is_ptx ? " (PTX, which the driver compiles)" : "");
          ws_output_error (0, WS_ERROR_SEVERITY_ERROR,
                           e == cudaErrorUnsupportedPtxVersion ? WS_ERROR_DRIVER_TOO_OLD
                                                               : WS_ERROR_NO_KERNEL_IMAGE,
                           message, detail);
          cudaGetLastError ();
          ws_nvrtc_result_clear (&r);
          *exit_code = 3;
          return 0;
        }
    }
  ws_nvrtc_result_clear (&r);
  return 1;
}

static OwnVariant *
make_reference (OwnKernel *k)
{
  OwnVariant *v = calloc (1, sizeof *v);

  if (v == NULL)
    return NULL;
  v->reference = 1;
  for (int p = 0; p < k->kf.n_params; p++)
    {
      v->params[p] = k->kf.params[p].values[0];
      v->param_texts[p] = k->kf.params[p].texts[0];
    }
  for (int d = 0; d < 3; d++)
    v->macros[d] = ws_kernel_file_uses_block_macro (k->text, k->len, d) ? k->ref_block[d] : 0;
  return v;
}

int
_ws_own_compile_all (OwnKernel *k, const WsOptions *o, const WsRunnerDevice *device,
                     int *exit_code)
{
  (void) o;
  for (int i = 0; i < k->n_variants; i++)
    if (!compile_variant (k, k->variants[i], device->cc_major, device->cc_minor, 1, exit_code))
      return 0;
  if (k->kf.verify == WS_KF_VERIFY_REFERENCE)
    {
      if (k->ref == NULL && (k->ref = make_reference (k)) == NULL)
        {
          *exit_code = 5;
          return 0;
        }
      if (!compile_variant (k, k->ref, device->cc_major, device->cc_minor, 1, exit_code))
        return 0;
    }
  return 1;
}

/* ---- --check-source ---------------------------------------------------------------------- */

/* The architecture to compile for: --arch, the GPU's, or the newest this build has. */
static const char *
check_arch (const WsOptions *o, const WsDriverInfo *driver, int *major, int *minor)
{
  int count = 0, newest = 0;
  const char *p = WS_CUDA_ARCHS;

  if (o->arch_major > 0)
    {
      *major = o->arch_major, *minor = o->arch_minor;
      return "option";
    }
  if (driver->libcuda_found && cudaGetDeviceCount (&count) == cudaSuccess && count > 0
      && cudaDeviceGetAttribute (major, cudaDevAttrComputeCapabilityMajor, o->device) == cudaSuccess
      && cudaDeviceGetAttribute (minor, cudaDevAttrComputeCapabilityMinor, o->device) == cudaSuccess)
    return "device";
  cudaGetLastError ();
  while (*p)
    {
      int a = atoi (p);

      newest = a > newest ? a : newest;
      p += strcspn (p, ",");
      p += *p == ',';
    }
  *major = newest / 10, *minor = newest % 10;
  return "build";
}

int
ws_own_check_source (const WsOptions *opts, const WsDriverInfo *driver)
{
  WsOptions o = *opts;
  OwnKernel *k;
  int major = 0, minor = 0, exit_code = 0, combos = 1;
  const char *from;
  char why[512];

  o.n_sizes = o.n_blocks = 0;
  if (ws_own_load (&o) != 0)
    return 2;
  k = _ws_own;
  _ws_own_output_kernel (k);
  _ws_own_output_source (k);
  if (!ws_nvrtc_available (why, sizeof why))
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_NVRTC_UNAVAILABLE, why, NULL);
      return 3;
    }
  from = check_arch (opts, driver, &major, &minor);
  if (strcmp (from, "build") == 0)
    {
      char message[256];

      snprintf (message, sizeof message, "no GPU here: compiled for sm_%d%d, the newest "
                "architecture this build has (--arch sm_XY picks another)", major, minor);
      ws_output_error (0, WS_ERROR_SEVERITY_WARNING, WS_ERROR_NO_DEVICE, message, NULL);
    }
  /* Every value of every parameter, at the header's block. */
  for (int p = 0; p < k->kf.n_params; p++)
    combos *= k->kf.params[p].n_values;
  for (int c = 0; c < combos && c < 64; c++)
    {
      int combo[WS_KF_MAX_PARAMS], rest = c;
      OwnVariant *v;

      for (int p = k->kf.n_params - 1; p >= 0; p--)
        {
          combo[p] = rest % k->kf.params[p].n_values;
          rest /= k->kf.params[p].n_values;
        }
      v = calloc (1, sizeof *v);
      if (v == NULL)
        return 5;
      for (int p = 0; p < k->kf.n_params; p++)
        {
          v->params[p] = k->kf.params[p].values[combo[p]];
          v->param_texts[p] = k->kf.params[p].texts[combo[p]];
        }
      for (int d = 0; d < 3; d++)
        v->macros[d] = ws_kernel_file_uses_block_macro (k->text, k->len, d) ? k->kf.block[d] : 0;
      if (!compile_variant (k, v, major, minor, 0, &exit_code))
        {
          free (v);
          return exit_code;
        }
      free (v);
    }
  if (k->kf.verify == WS_KF_VERIFY_REFERENCE)
    {
      if ((k->ref = make_reference (k)) == NULL)
        return 5;
      if (!compile_variant (k, k->ref, major, minor, 0, &exit_code))
        return exit_code;
    }
  return 0;
}
