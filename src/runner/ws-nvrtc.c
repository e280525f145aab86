/* ws-nvrtc.c: NVRTC through dlopen, and the compile cache.
 *
 * A cache entry is one file, <key>.cubin in the cache folder, written whole under another
 * name and renamed into place:
 *   warpscope-nvrtc 1\n  arch sm_90\n  ptx 0\n  names 2\n <lowered>\n <lowered>\n
 *   log <bytes>\n <log>  image <bytes>\n <cubin>
 * An entry that does not read back exactly so is compiled again and replaced. Failed
 * compiles are not cached: their log is what the person needs, and it is cheap to redo.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-nvrtc.h"

#include <dlfcn.h>
#include <errno.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ws-config.h"
#include "ws-sha256.h"

/* Only the types come from nvrtc.h; every call goes through these pointers. */
static struct
{
  int tried, loaded;
  char why[400];
  char version[16];
  const char *(*GetErrorString) (nvrtcResult);
  nvrtcResult (*Version) (int *, int *);
  nvrtcResult (*GetNumSupportedArchs) (int *);
  nvrtcResult (*GetSupportedArchs) (int *);
  nvrtcResult (*CreateProgram) (nvrtcProgram *, const char *, const char *, int,
                                const char *const *, const char *const *);
  nvrtcResult (*DestroyProgram) (nvrtcProgram *);
  nvrtcResult (*CompileProgram) (nvrtcProgram, int, const char *const *);
  nvrtcResult (*AddNameExpression) (nvrtcProgram, const char *);
  nvrtcResult (*GetLoweredName) (nvrtcProgram, const char *, const char **);
  nvrtcResult (*GetProgramLogSize) (nvrtcProgram, size_t *);
  nvrtcResult (*GetProgramLog) (nvrtcProgram, char *);
  nvrtcResult (*GetCUBINSize) (nvrtcProgram, size_t *);
  nvrtcResult (*GetCUBIN) (nvrtcProgram, char *);
  nvrtcResult (*GetPTXSize) (nvrtcProgram, size_t *);
  nvrtcResult (*GetPTX) (nvrtcProgram, char *);
} api;

#define LOAD(lib, field, symbol) ((*(void **) &api.field = dlsym (lib, symbol)) != NULL)

static int
load (void)
{
  const char *override = getenv ("WARPSCOPE_LIBNVRTC");
  const char *candidates[] = { "libnvrtc.so." WS_CUDA_MAJOR_STRING,
                               WS_CUDA_LIBDIR "/libnvrtc.so." WS_CUDA_MAJOR_STRING,
                               "libnvrtc.so" };
  void *lib = NULL;
  int major = 0, minor = 0;

  if (api.tried)
    return api.loaded;
  api.tried = 1;
  if (override != NULL && *override != '\0')
    lib = dlopen (override, RTLD_NOW | RTLD_LOCAL);
  for (size_t i = 0; lib == NULL && (override == NULL || *override == '\0')
                     && i < sizeof candidates / sizeof *candidates;
       i++)
    lib = dlopen (candidates[i], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    {
      snprintf (api.why, sizeof api.why,
                "NVRTC (libnvrtc.so." WS_CUDA_MAJOR_STRING ") could not be loaded%s%s, so own "
                "kernels cannot be compiled. Install the CUDA toolkit's NVRTC (cuda-nvrtc) or "
                "put its folder in LD_LIBRARY_PATH",
                override && *override ? " from WARPSCOPE_LIBNVRTC=" : "",
                override && *override ? override : "");
      return 0;
    }
  if (!(LOAD (lib, GetErrorString, "nvrtcGetErrorString") && LOAD (lib, Version, "nvrtcVersion")
        && LOAD (lib, GetNumSupportedArchs, "nvrtcGetNumSupportedArchs")
        && LOAD (lib, GetSupportedArchs, "nvrtcGetSupportedArchs")
        && LOAD (lib, CreateProgram, "nvrtcCreateProgram")
        && LOAD (lib, DestroyProgram, "nvrtcDestroyProgram")
        && LOAD (lib, CompileProgram, "nvrtcCompileProgram")
        && LOAD (lib, AddNameExpression, "nvrtcAddNameExpression")
        && LOAD (lib, GetLoweredName, "nvrtcGetLoweredName")
        && LOAD (lib, GetProgramLogSize, "nvrtcGetProgramLogSize")
        && LOAD (lib, GetProgramLog, "nvrtcGetProgramLog")
        && LOAD (lib, GetCUBINSize, "nvrtcGetCUBINSize") && LOAD (lib, GetCUBIN, "nvrtcGetCUBIN")
        && LOAD (lib, GetPTXSize, "nvrtcGetPTXSize") && LOAD (lib, GetPTX, "nvrtcGetPTX")))
    {
      snprintf (api.why, sizeof api.why,
                "The NVRTC library found lacks functions the runner needs (it may be older "
                "than CUDA 11.3), so own kernels cannot be compiled");
      return 0;
    }
  api.Version (&major, &minor);
  snprintf (api.version, sizeof api.version, "%d.%d", major, minor);
  api.loaded = 1;
  return 1;
}

int
ws_nvrtc_available (char *why, size_t len)
{
  if (load ())
    return 1;
  snprintf (why, len, "%s", api.why);
  return 0;
}

const char *
ws_nvrtc_version_string (void)
{
  return load () ? api.version : "";
}

void
ws_nvrtc_result_clear (WsNvrtcResult *res)
{
  free (res->log);
  free (res->image);
  memset (res, 0, sizeof *res);
}

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

/* ---- the architecture ------------------------------------------------------------------ */

/* sm_XY when NVRTC knows the GPU; else PTX of the newest architecture it knows below it,
 * which the driver compiles at load. 0 when NVRTC knows none at or below it. */
static int
pick_arch (int cc_major, int cc_minor, WsNvrtcResult *res)
{
  int n = 0, archs[128], want = cc_major * 10 + cc_minor, best = 0;

  if (api.GetNumSupportedArchs (&n) != NVRTC_SUCCESS || n <= 0 || n > 128
      || api.GetSupportedArchs (archs) != NVRTC_SUCCESS)
    {
      snprintf (res->arch, sizeof res->arch, "sm_%d", want);
      return 1;
    }
  for (int i = 0; i < n; i++)
    {
      if (archs[i] == want)
        {
          snprintf (res->arch, sizeof res->arch, "sm_%d", want);
          return 1;
        }
      if (archs[i] < want && archs[i] > best)
        best = archs[i];
    }
  if (best == 0)
    {
      snprintf (res->error, sizeof res->error,
                "NVRTC %s compiles for sm_%d and newer; this GPU is sm_%d", api.version,
                archs[0], want);
      return 0;
    }
  snprintf (res->arch, sizeof res->arch, "compute_%d", best);
  res->is_ptx = 1;
  return 1;
}

/* ---- the cache --------------------------------------------------------------------------- */

const char *
ws_nvrtc_cache_dir (void)
{
  static char dir[1024];
  const char *env = getenv ("WARPSCOPE_NVRTC_CACHE"), *xdg = getenv ("XDG_CACHE_HOME");
  const char *home = getenv ("HOME");

  if (env != NULL && strcmp (env, "none") == 0)
    return "";
  if (env != NULL && *env != '\0')
    snprintf (dir, sizeof dir, "%s", env);
  else if (xdg != NULL && xdg[0] == '/')
    snprintf (dir, sizeof dir, "%s/warpscope/nvrtc", xdg);
  else if (home != NULL && home[0] == '/')
    snprintf (dir, sizeof dir, "%s/.cache/warpscope/nvrtc", home);
  else
    return "";
  return dir;
}

static int
make_dirs (const char *path)
{
  char buf[1024];

  snprintf (buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (buf, 0700) != 0 && errno != EEXIST)
          return 0;
        *p = '/';
      }
  return mkdir (buf, 0700) == 0 || errno == EEXIST;
}

static void
compute_key (const char *program, const char *source, size_t len, const char *const *options,
             int n_options, const char *const *names, int n_names, WsNvrtcResult *res)
{
  WsSha256 s;

  ws_sha256_init (&s);
  ws_sha256_update (&s, "warpscope-nvrtc 1", 18);
  ws_sha256_update (&s, api.version, strlen (api.version) + 1);
  ws_sha256_update (&s, res->arch, strlen (res->arch) + 1);
  ws_sha256_update (&s, program, strlen (program) + 1);
  for (int i = 0; i < n_options; i++)
    ws_sha256_update (&s, options[i], strlen (options[i]) + 1);
  ws_sha256_update (&s, "|", 1);
  for (int i = 0; i < n_names; i++)
    ws_sha256_update (&s, names[i], strlen (names[i]) + 1);
  ws_sha256_update (&s, "|", 1);
  ws_sha256_update (&s, source, len);
  ws_sha256_hex (&s, res->key);
}

static char *
read_counted (FILE *f, const char *word, size_t *n_out, size_t max)
{
  char head[64], want[32];
  unsigned long long n;
  char *buf;

  snprintf (want, sizeof want, "%s %%llu", word);
  if (fgets (head, sizeof head, f) == NULL || sscanf (head, want, &n) != 1 || n > max)
    return NULL;
  buf = malloc ((size_t) n + 1);
  if (buf == NULL || fread (buf, 1, (size_t) n, f) != (size_t) n)
    {
      free (buf);
      return NULL;
    }
  buf[n] = '\0';
  *n_out = (size_t) n;
  return buf;
}

static int
cache_read (const char *path, int n_names, WsNvrtcResult *res)
{
  FILE *f = fopen (path, "rb");
  char line[300], arch[32];
  int ptx = -1, names = -1, ok = 0;
  size_t n;

  if (f == NULL)
    return 0;
  if (fgets (line, sizeof line, f) == NULL || strcmp (line, "warpscope-nvrtc 1\n") != 0
      || fgets (line, sizeof line, f) == NULL || sscanf (line, "arch %23s", arch) != 1
      || strcmp (arch, res->arch) != 0 || fgets (line, sizeof line, f) == NULL
      || sscanf (line, "ptx %d", &ptx) != 1 || ptx != res->is_ptx
      || fgets (line, sizeof line, f) == NULL || sscanf (line, "names %d", &names) != 1
      || names != n_names)
    goto out;
  for (int i = 0; i < n_names; i++)
    {
      if (fgets (line, sizeof line, f) == NULL || strlen (line) < 2
          || line[strlen (line) - 1] != '\n')
        goto out;
      line[strlen (line) - 1] = '\0';
      snprintf (res->lowered[i], sizeof res->lowered[i], "%s", line);
    }
  if ((res->log = read_counted (f, "log", &n, 1 << 24)) == NULL
      || (res->image = read_counted (f, "image", &res->image_len, (size_t) 1 << 30)) == NULL
      || res->image_len == 0 || fgetc (f) != EOF)
    goto out;
  ok = 1;
out:
  fclose (f);
  if (!ok)
    {
      free (res->log);
      free (res->image);
      res->log = NULL;
      res->image = NULL;
      res->image_len = 0;
    }
  return ok;
}

/* Best effort: a cache that cannot be written only means compiling again next time. */
static void
cache_write (const char *dir, const char *path, int n_names, const WsNvrtcResult *res)
{
  char tmp[1200];
  FILE *f;
  int ok;

  if (!make_dirs (dir))
    return;
  snprintf (tmp, sizeof tmp, "%s.%ld.tmp", path, (long) getpid ());
  if ((f = fopen (tmp, "wb")) == NULL)
    return;
  fprintf (f, "warpscope-nvrtc 1\narch %s\nptx %d\nnames %d\n", res->arch, res->is_ptx, n_names);
  for (int i = 0; i < n_names; i++)
    fprintf (f, "%s\n", res->lowered[i]);
  fprintf (f, "log %zu\n", strlen (res->log));
  fwrite (res->log, 1, strlen (res->log), f);
  fprintf (f, "image %zu\n", res->image_len);
  fwrite (res->image, 1, res->image_len, f);
  ok = !ferror (f);
  ok = fclose (f) == 0 && ok;
  if (!ok || rename (tmp, path) != 0)
    unlink (tmp);
}

/* ---- compiling --------------------------------------------------------------------------- */

static int
fail_nvrtc (WsNvrtcResult *res, const char *what, nvrtcResult r)
{
  res->code = WS_ERROR_INTERNAL;
  snprintf (res->error, sizeof res->error, "NVRTC failed while %s: %s", what,
            api.GetErrorString (r));
  return 0;
}

static int
compile (const char *program, const char *source, size_t len, const char *const *options,
         int n_options, const char *const *names, int n_names, WsNvrtcResult *res)
{
  const char *argv[80];
  char arch_option[48];
  nvrtcProgram prog = NULL;
  nvrtcResult r;
  size_t n = 0;
  char *text;
  int argc = 0, ok = 0;

  /* NVRTC reads a NUL-terminated string. */
  if ((text = malloc (len + 1)) == NULL)
    return fail_nvrtc (res, "copying the source", NVRTC_ERROR_OUT_OF_MEMORY);
  memcpy (text, source, len);
  text[len] = '\0';
  snprintf (arch_option, sizeof arch_option, "--gpu-architecture=%s", res->arch);
  argv[argc++] = arch_option;
  for (int i = 0; i < n_options && argc < (int) (sizeof argv / sizeof *argv); i++)
    argv[argc++] = options[i];
  if ((r = api.CreateProgram (&prog, text, program, 0, NULL, NULL)) != NVRTC_SUCCESS)
    {
      free (text);
      return fail_nvrtc (res, "creating the program", r);
    }
  for (int i = 0; i < n_names; i++)
    if ((r = api.AddNameExpression (prog, names[i])) != NVRTC_SUCCESS)
      {
        fail_nvrtc (res, "adding the kernel's name", r);
        goto out;
      }
  r = api.CompileProgram (prog, argc, argv);
  if (api.GetProgramLogSize (prog, &n) == NVRTC_SUCCESS && (res->log = malloc (n + 1)) != NULL)
    {
      if (api.GetProgramLog (prog, res->log) != NVRTC_SUCCESS)
        n = 0;
      res->log[n] = '\0';
    }
  if (r != NVRTC_SUCCESS)
    {
      res->code = WS_ERROR_COMPILE_ERROR;
      snprintf (res->error, sizeof res->error, "NVRTC could not compile %s for %s (%s)", program,
                res->arch, api.GetErrorString (r));
      goto out;
    }
  for (int i = 0; i < n_names; i++)
    {
      const char *lowered = NULL;

      if ((r = api.GetLoweredName (prog, names[i], &lowered)) != NVRTC_SUCCESS || lowered == NULL)
        {
          fail_nvrtc (res, "looking up the kernel's name", r);
          goto out;
        }
      snprintf (res->lowered[i], sizeof res->lowered[i], "%s", lowered);
    }
  r = res->is_ptx ? api.GetPTXSize (prog, &res->image_len) : api.GetCUBINSize (prog, &res->image_len);
  if (r != NVRTC_SUCCESS || res->image_len == 0 || (res->image = malloc (res->image_len)) == NULL)
    {
      fail_nvrtc (res, "reading the compiled code", r == NVRTC_SUCCESS ? NVRTC_ERROR_OUT_OF_MEMORY : r);
      goto out;
    }
  r = res->is_ptx ? api.GetPTX (prog, res->image) : api.GetCUBIN (prog, res->image);
  if (r != NVRTC_SUCCESS)
    {
      fail_nvrtc (res, "reading the compiled code", r);
      goto out;
    }
  ok = 1;
out:
  api.DestroyProgram (&prog);
  free (text);
  return ok;
}

int
ws_nvrtc_compile (const char *program, const char *source, size_t len,
                  const char *const *options, int n_options, const char *const *names,
                  int n_names, int cc_major, int cc_minor, WsNvrtcResult *res)
{
  const char *dir;
  char path[1200] = "";
  double t0 = now_ms ();

  memset (res, 0, sizeof *res);
  if (n_names > WS_NVRTC_MAX_NAMES)
    n_names = WS_NVRTC_MAX_NAMES;
  if (!load ())
    {
      res->code = WS_ERROR_NVRTC_UNAVAILABLE;
      snprintf (res->error, sizeof res->error, "%s", api.why);
      return 0;
    }
  if (!pick_arch (cc_major, cc_minor, res))
    {
      res->code = WS_ERROR_NO_KERNEL_IMAGE;
      return 0;
    }
  compute_key (program, source, len, options, n_options, names, n_names, res);
  dir = ws_nvrtc_cache_dir ();
  if (*dir != '\0')
    {
      snprintf (path, sizeof path, "%s/%s.%s", dir, res->key, res->is_ptx ? "ptx" : "cubin");
      if (cache_read (path, n_names, res))
        {
          res->ok = res->cached = 1;
          res->ms = now_ms () - t0;
          res->total_diags = ws_nvrtc_parse_log (res->log, program, res->diags, WS_NVRTC_MAX_DIAGS);
          res->n_diags = res->total_diags < WS_NVRTC_MAX_DIAGS ? res->total_diags : WS_NVRTC_MAX_DIAGS;
          return 1;
        }
    }
  res->ok = compile (program, source, len, options, n_options, names, n_names, res);
  res->ms = now_ms () - t0;
  if (res->log == NULL && (res->log = calloc (1, 1)) == NULL)
    res->ok = 0;
  if (res->log != NULL)
    {
      res->total_diags = ws_nvrtc_parse_log (res->log, program, res->diags, WS_NVRTC_MAX_DIAGS);
      res->n_diags = res->total_diags < WS_NVRTC_MAX_DIAGS ? res->total_diags : WS_NVRTC_MAX_DIAGS;
    }
  if (res->ok && path[0] != '\0')
    cache_write (dir, path, n_names, res);
  return res->ok;
}
