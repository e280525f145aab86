/* ws-blas.c: finding and loading a BLAS for the matmul family's CPU baseline, and calling its
 * SGEMM whatever its symbol names and integer width.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A CPU baseline is only honest if it is what a reader would compare with: for a matrix
 * product that is an optimized BLAS (numpy's `A @ B` calls OpenBLAS). The library is loaded
 * with dlopen, as cuBLAS and CUPTI are, so the runner builds and runs without one.
 */
#define _GNU_SOURCE
#include "ws-blas.h"

#include <dirent.h>
#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* CBLAS's enums, as every implementation numbers them. */
enum
{
  ROW_MAJOR = 101,
  NO_TRANS = 111,
};

typedef void (*Sgemm32) (int, int, int, int32_t, int32_t, int32_t, float, const float *,
                         int32_t, const float *, int32_t, float, float *, int32_t);
typedef void (*Sgemm64) (int, int, int, int64_t, int64_t, int64_t, float, const float *,
                         int64_t, const float *, int64_t, float, float *, int64_t);

typedef enum
{
  VENDOR_GENERIC,
  VENDOR_OPENBLAS,
  VENDOR_BLIS,
  VENDOR_MKL,
  VENDOR_FLEXIBLAS,
} Vendor;

struct WsBlas
{
  WsBlasInfo info;
  Vendor vendor;
  void *sgemm;
  void *set_threads; /* void (int), or void (dim_t) for BLIS */
  void *get_threads; /* int (void), or dim_t (void) for BLIS */
};

/* The symbol decorations that builds use: plain; numpy's and SciPy's bundled OpenBLAS
 * (scipy_ prefix, 64_ suffix for its 64-bit integer build); OpenBLAS built with
 * INTERFACE64 and SYMBOLSUFFIX=64_; MKL's _64 ILP64 entry points. */
static const struct
{
  const char *prefix, *suffix;
  int int64;
} decorations[] = {
  { "", "", 0 },
  { "scipy_", "64_", 1 },
  { "scipy_", "", 0 },
  { "", "64_", 1 },
  { "", "_64", 1 },
};

static void *
sym (void *lib, const char *prefix, const char *name, const char *suffix)
{
  char full[128];

  snprintf (full, sizeof full, "%s%s%s", prefix, name, suffix);
  return dlsym (lib, full);
}

/* Copies what fits, always terminated. */
static void
copy (char *dst, size_t len, const char *src)
{
  size_t n = src != NULL ? strlen (src) : 0;

  if (n >= len)
    n = len - 1;
  memcpy (dst, src != NULL ? src : "", n);
  dst[n] = '\0';
}

/* The first word that starts with a digit after `after` in `text`: "0.3.21". */
static void
version_after (const char *text, const char *after, char *out, size_t len)
{
  const char *p = strstr (text, after);
  size_t n = 0;

  out[0] = '\0';
  if (p == NULL)
    return;
  p += strlen (after);
  while (*p == ' ')
    p++;
  while (p[n] != '\0' && p[n] != ' ' && p[n] != ',' && p[n] != ')')
    n++;
  if (n > 0 && p[0] >= '0' && p[0] <= '9')
    snprintf (out, len, "%.*s", (int) n, p);
}

static void
identify (WsBlas *b, void *lib, const char *prefix, const char *suffix)
{
  WsBlasInfo *i = &b->info;
  const char *(*text) (void);

  if ((text = (const char *(*) (void)) sym (lib, prefix, "openblas_get_config", suffix)) != NULL)
    {
      b->vendor = VENDOR_OPENBLAS;
      copy (i->name, sizeof i->name, "OpenBLAS");
      copy (i->config, sizeof i->config, text ());
      version_after (i->config, "OpenBLAS", i->version, sizeof i->version);
      b->set_threads = sym (lib, prefix, "openblas_set_num_threads", suffix);
      b->get_threads = sym (lib, prefix, "openblas_get_num_threads", suffix);
      /* An OpenBLAS built with INTERFACE64 says so in its configuration. */
      if (strstr (i->config, "USE64BITINT") != NULL)
        i->int64 = 1;
    }
  else if ((text = (const char *(*) (void)) dlsym (lib, "bli_info_get_version_str")) != NULL)
    {
      int64_t (*blas_int) (void) = (int64_t (*) (void)) dlsym (lib, "bli_info_get_blas_int_type_size");
      int (*arch_id) (void) = (int (*) (void)) dlsym (lib, "bli_arch_query_id");
      const char *(*arch_name) (int) = (const char *(*) (int)) dlsym (lib, "bli_arch_string");

      b->vendor = VENDOR_BLIS;
      copy (i->name, sizeof i->name, "BLIS");
      copy (i->version, sizeof i->version, text ());
      snprintf (i->config, sizeof i->config, "BLIS %s%s%s", i->version,
                arch_id && arch_name ? " " : "", arch_id && arch_name ? arch_name (arch_id ()) : "");
      b->set_threads = dlsym (lib, "bli_thread_set_num_threads");
      b->get_threads = dlsym (lib, "bli_thread_get_num_threads");
      /* gint_t, 64 bits in every build we know; the low half is enough to tell. */
      if (blas_int != NULL && (int32_t) blas_int () == 64)
        i->int64 = 1;
    }
  else if (dlsym (lib, "MKL_Get_Version_String") != NULL)
    {
      void (*version) (char *, int) = (void (*) (char *, int)) dlsym (lib, "MKL_Get_Version_String");
      char buf[256] = "";

      b->vendor = VENDOR_MKL;
      copy (i->name, sizeof i->name, "MKL");
      version (buf, (int) sizeof buf);
      buf[sizeof buf - 1] = '\0';
      copy (i->config, sizeof i->config, buf);
      version_after (buf, "Version", i->version, sizeof i->version);
      b->set_threads = dlsym (lib, "MKL_Set_Num_Threads");
      b->get_threads = dlsym (lib, "MKL_Get_Max_Threads");
    }
  else if (dlsym (lib, "flexiblas_get_version") != NULL)
    {
      void (*version) (int *, int *, int *)
        = (void (*) (int *, int *, int *)) dlsym (lib, "flexiblas_get_version");
      int (*backend) (char *, size_t) = (int (*) (char *, size_t)) dlsym (lib, "flexiblas_current_backend");
      int major = 0, minor = 0, patch = 0;
      char name[128] = "";

      b->vendor = VENDOR_FLEXIBLAS;
      copy (i->name, sizeof i->name, "FlexiBLAS");
      version (&major, &minor, &patch);
      snprintf (i->version, sizeof i->version, "%d.%d.%d", major, minor, patch);
      if (backend != NULL)
        backend (name, sizeof name);
      name[sizeof name - 1] = '\0';
      snprintf (i->config, sizeof i->config, "FlexiBLAS %s%s%s", i->version,
                name[0] ? ", backend " : "", name);
      b->set_threads = dlsym (lib, "flexiblas_set_num_threads");
      b->get_threads = dlsym (lib, "flexiblas_get_num_threads");
    }
  else
    {
      const char *base = strrchr (i->path, '/');

      b->vendor = VENDOR_GENERIC;
      copy (i->name, sizeof i->name, "BLAS");
      copy (i->config, sizeof i->config, base != NULL ? base + 1 : i->path);
    }
  i->threads_settable = b->set_threads != NULL;
}

static void
call_sgemm (WsBlas *b, const float *A, const float *B, float *C, uint64_t m, uint64_t n,
            uint64_t k)
{
  if (b->info.int64)
    ((Sgemm64) b->sgemm) (ROW_MAJOR, NO_TRANS, NO_TRANS, (int64_t) m, (int64_t) n, (int64_t) k,
                          1.0f, A, (int64_t) k, B, (int64_t) n, 0.0f, C, (int64_t) n);
  else
    ((Sgemm32) b->sgemm) (ROW_MAJOR, NO_TRANS, NO_TRANS, (int32_t) m, (int32_t) n, (int32_t) k,
                          1.0f, A, (int32_t) k, B, (int32_t) n, 0.0f, C, (int32_t) n);
}

/* A 3×4 by 4×5 product of small whole numbers, exact in float32: a library called with
 * integers of the wrong width, or one that ignores the row-major order, gets it wrong. */
static int
product_is_right (WsBlas *b)
{
  float A[12], B[20], C[15], want[15];

  for (int i = 0; i < 12; i++)
    A[i] = (float) (i % 7 - 3);
  for (int i = 0; i < 20; i++)
    B[i] = (float) (i % 5 - 2 + i / 10);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 5; c++)
      {
        want[r * 5 + c] = 0;
        for (int p = 0; p < 4; p++)
          want[r * 5 + c] += A[r * 4 + p] * B[p * 5 + c];
        C[r * 5 + c] = -1234.0f;
      }
  call_sgemm (b, A, B, C, 3, 5, 4);
  return memcmp (C, want, sizeof C) == 0;
}

/* Loads `path` and makes a WsBlas of it, or says why not. */
static WsBlas *
try_library (const char *path, char *why, size_t why_len)
{
  void *lib = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  WsBlas *b;
  Dl_info where;
  char real[PATH_MAX];

  if (lib == NULL)
    {
      const char *e = dlerror ();

      snprintf (why, why_len, "%s", e != NULL ? e : path);
      return NULL;
    }
  b = calloc (1, sizeof *b);
  if (b == NULL)
    return NULL;
  for (size_t d = 0; d < sizeof decorations / sizeof *decorations && b->sgemm == NULL; d++)
    if ((b->sgemm = sym (lib, decorations[d].prefix, "cblas_sgemm", decorations[d].suffix)) != NULL)
      {
        snprintf (b->info.symbol, sizeof b->info.symbol, "%scblas_sgemm%s", decorations[d].prefix,
                  decorations[d].suffix);
        b->info.int64 = decorations[d].int64;
        if (dladdr (b->sgemm, &where) != 0 && where.dli_fname != NULL
            && realpath (where.dli_fname, real) != NULL)
          copy (b->info.path, sizeof b->info.path, real);
        else
          copy (b->info.path, sizeof b->info.path, path);
        identify (b, lib, decorations[d].prefix, decorations[d].suffix);
      }
  if (b->sgemm == NULL)
    {
      snprintf (why, why_len, "%s has no cblas_sgemm", path);
      free (b);
      return NULL;
    }
  if (!product_is_right (b))
    {
      snprintf (why, why_len,
                "%.300s computed a small test product wrongly (with %d-bit integers), so it is "
                "not used",
                b->info.path, b->info.int64 ? 64 : 32);
      free (b);
      return NULL;
    }
  return b;
}

/* "0.3.9" against "0.3.26", number by number: >0 when `a` is the newer, a version with more
 * numbers ("0.3.26.1") newer than its start. What follows the numbers (".dev") is not read;
 * a version that does not say ("") is the oldest. */
static int
compare_versions (const char *a, const char *b)
{
  for (;;)
    {
      char *ea, *eb;
      long x = a[0] >= '0' && a[0] <= '9' ? strtol (a, &ea, 10) : -1;
      long y = b[0] >= '0' && b[0] <= '9' ? strtol (b, &eb, 10) : -1;

      if (x != y)
        return x < y ? -1 : 1;
      if (x < 0)
        return 0;
      a = ea + (*ea == '.');
      b = eb + (*eb == '.');
    }
}

/* Of several usable libraries, the one kept: an OpenBLAS is kept over any other, and of two
 * OpenBLAS builds the newer one, since OpenBLAS picks its kernels by the CPU's model and an
 * older build runs older kernels on a CPU it does not know (numpy's bundled 0.3.34 was 10–20%
 * faster than Ubuntu 24.04's 0.3.26 on a Sapphire Rapids host). Otherwise the first found.
 * Frees the one not kept. */
static WsBlas *
keep_better (WsBlas *kept, WsBlas *found)
{
  int better;

  if (kept == NULL || found == NULL)
    return kept != NULL ? kept : found;
  better = found->vendor == VENDOR_OPENBLAS
           && (kept->vendor != VENDOR_OPENBLAS
               || compare_versions (found->info.version, kept->info.version) > 0);
  free (better ? kept : found);
  return better ? found : kept;
}

/* ---- a folder: an unpacked package, numpy.libs ------------------------------------------ */

#define MAX_FOUND 64

typedef struct
{
  char *paths[MAX_FOUND];
  int rank[MAX_FOUND];
  int n;
} Found;

/* BLAS libraries in order of preference, then the Fortran runtime they may need. */
static const char *const blas_prefixes[] = {
  "libscipy_openblas", "libopenblas", "libblis", "libmkl_rt", "libflexiblas", "libcblas",
  "libblas",
};
static const char *const runtime_prefixes[] = { "libquadmath", "libgfortran" };
#define N_BLAS_PREFIXES (int) (sizeof blas_prefixes / sizeof *blas_prefixes)

static int
rank_of (const char *base)
{
  if (strstr (base, ".so") == NULL)
    return -1;
  for (int i = 0; i < N_BLAS_PREFIXES; i++)
    if (strncmp (base, blas_prefixes[i], strlen (blas_prefixes[i])) == 0)
      return i;
  for (int i = 0; i < 2; i++)
    if (strncmp (base, runtime_prefixes[i], strlen (runtime_prefixes[i])) == 0)
      return N_BLAS_PREFIXES + i;
  return -1;
}

static void
walk (const char *dir, int depth, Found *found)
{
  DIR *d;
  struct dirent *e;

  if (depth > 8 || (d = opendir (dir)) == NULL)
    return;
  while ((e = readdir (d)) != NULL && found->n < MAX_FOUND)
    {
      char path[PATH_MAX];
      struct stat st;
      int rank;

      if (e->d_name[0] == '.')
        continue;
      if (snprintf (path, sizeof path, "%s/%s", dir, e->d_name) >= (int) sizeof path
          || lstat (path, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        walk (path, depth + 1, found);
      else if ((rank = rank_of (e->d_name)) >= 0 && stat (path, &st) == 0 && S_ISREG (st.st_mode))
        {
          found->paths[found->n] = strdup (path);
          found->rank[found->n] = rank;
          found->n += found->paths[found->n] != NULL;
        }
    }
  closedir (d);
}

static int
compare_found (const Found *f, int a, int b)
{
  if (f->rank[a] != f->rank[b])
    return f->rank[a] - f->rank[b];
  if (strlen (f->paths[a]) != strlen (f->paths[b]))
    return (int) strlen (f->paths[a]) - (int) strlen (f->paths[b]);
  return strcmp (f->paths[a], f->paths[b]);
}

static void
sort_found (Found *found)
{
  /* By preference, the order of readdir being arbitrary. */
  for (int i = 1; i < found->n; i++)
    for (int j = i; j > 0 && compare_found (found, j, j - 1) < 0; j--)
      {
        char *p = found->paths[j];
        int r = found->rank[j];

        found->paths[j] = found->paths[j - 1], found->rank[j] = found->rank[j - 1];
        found->paths[j - 1] = p, found->rank[j - 1] = r;
      }
}

/* The Fortran runtime first, from the folder too: a library's NEEDED entries are then met by
 * what is already loaded, without LD_LIBRARY_PATH. Returns how many were loaded. */
static int
load_runtime (const Found *found)
{
  int loaded = 0;

  for (int r = N_BLAS_PREFIXES; r < N_BLAS_PREFIXES + 2; r++)
    for (int i = 0; i < found->n; i++)
      if (found->rank[i] == r && dlopen (found->paths[i], RTLD_NOW | RTLD_GLOBAL) != NULL)
        {
          loaded++;
          break;
        }
  return loaded;
}

static int
preload_runtime (const char *dir)
{
  Found found = { .n = 0 };
  int loaded;

  walk (dir, 7, &found); /* the folder and the one below it */
  sort_found (&found);
  loaded = load_runtime (&found);
  for (int i = 0; i < found.n; i++)
    free (found.paths[i]);
  return loaded;
}

static WsBlas *
open_folder (const char *dir, char *why, size_t why_len)
{
  Found found = { .n = 0 };
  WsBlas *b = NULL;
  char last[400] = "";
  int tried = 0;

  walk (dir, 0, &found);
  sort_found (&found);
  load_runtime (&found);
  /* Every OpenBLAS there (ranks 0 and 1) to keep the newest; then the first other that works. */
  for (int i = 0; i < found.n && (b == NULL || found.rank[i] < 2); i++)
    if (found.rank[i] < N_BLAS_PREFIXES)
      {
        tried++;
        b = keep_better (b, try_library (found.paths[i], last, sizeof last));
      }
  if (b == NULL)
    snprintf (why, why_len, "%s holds no usable BLAS library%s%s", dir,
              tried ? "; the last one tried: " : " (looked for libopenblas, libblis, libmkl_rt, "
                                                 "libflexiblas, libcblas and libblas)",
              tried ? last : "");
  for (int i = 0; i < found.n; i++)
    free (found.paths[i]);
  return b;
}

/* ---- the usual names -------------------------------------------------------------------- */

#if defined(__x86_64__)
#define MULTIARCH "/usr/lib/x86_64-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "/usr/lib/aarch64-linux-gnu"
#else
#define MULTIARCH "/usr/lib"
#endif

/* OpenBLAS first: what numpy uses; every OpenBLAS found is tried and the newest kept
 * (keep_better), numpy's own bundled one included where a Python's numpy.libs is found. */
static const char *const numpy_libs[] = {
  "$VIRTUAL_ENV/lib/python3*/site-packages/numpy.libs/libscipy_openblas*.so*",
  "$CONDA_PREFIX/lib/python3*/site-packages/numpy.libs/libscipy_openblas*.so*",
  "$HOME/.local/lib/python3*/site-packages/numpy.libs/libscipy_openblas*.so*",
  "/usr/local/lib/python3*/dist-packages/numpy.libs/libscipy_openblas*.so*",
  "/usr/local/lib/python3*/site-packages/numpy.libs/libscipy_openblas*.so*",
};

/* Tries `path`, and again once the Fortran runtime beside it is loaded (numpy.libs holds its
 * own, which the library may not say where to find). */
static WsBlas *
try_beside (const char *path, char *why, size_t why_len)
{
  WsBlas *b = try_library (path, why, why_len);

  if (b == NULL && strchr (path, '/') != NULL)
    {
      char dir[PATH_MAX];

      snprintf (dir, sizeof dir, "%s", path);
      *strrchr (dir, '/') = '\0';
      if (preload_runtime (dir[0] ? dir : "/") > 0)
        b = try_library (path, why, why_len);
    }
  return b;
}

/* numpy's bundled OpenBLAS where a Python environment this process can see holds one. */
static WsBlas *
open_numpy_libs (WsBlas *kept)
{
  for (size_t p = 0; p < sizeof numpy_libs / sizeof *numpy_libs; p++)
    {
      const char *var = numpy_libs[p][0] == '$' ? numpy_libs[p] + 1 : NULL;
      const char *rest = var != NULL ? strchr (var, '/') : numpy_libs[p];
      char name[32], pattern[PATH_MAX], why[400];
      const char *root = "";
      glob_t g;

      if (var != NULL)
        {
          snprintf (name, sizeof name, "%.*s", (int) (rest - var), var);
          if ((root = getenv (name)) == NULL || *root == '\0')
            continue;
        }
      snprintf (pattern, sizeof pattern, "%s%s", root, rest);
      if (glob (pattern, 0, NULL, &g) != 0)
        continue;
      for (size_t i = 0; i < g.gl_pathc; i++)
        kept = keep_better (kept, try_beside (g.gl_pathv[i], why, sizeof why));
      globfree (&g);
    }
  return kept;
}

/* OpenBLAS first: what numpy uses. Debian keeps its variants in folders of their own, which
 * libblas.so.3 and libopenblas.so.0 point into by its alternatives. */
static const char *const usual[] = {
  "libopenblas.so.0",
  MULTIARCH "/openblas-pthread/libopenblas.so.0",
  MULTIARCH "/openblas-openmp/libopenblas.so.0",
  "libopenblas.so",
  "libblis.so.4",
  MULTIARCH "/blis-pthread/libblis.so.4",
  MULTIARCH "/blis-openmp/libblis.so.4",
  "libblis.so",
  "libmkl_rt.so.2",
  "libmkl_rt.so",
  "libflexiblas.so.3",
  "libflexiblas.so",
  "libcblas.so.3",
  "libblas.so.3",
  "libblas.so",
};

/* OpenBLAS picks its kernels by the CPU's family and model, and a build older than the CPU
 * falls back to its oldest ones: Debian 12's OpenBLAS 0.3.21 runs SSE3 code ("Prescott") on
 * an Emerald Rapids Xeon, five times slower than its AVX-512 code there, where numpy's newer
 * OpenBLAS knows the model. So, unless OPENBLAS_CORETYPE is set already, it is set from what
 * the CPU can do, before any OpenBLAS is loaded: SkylakeX's kernels need AVX-512 (F, BW, DQ,
 * VL), Haswell's AVX2 and FMA. The library's configuration, recorded with the baseline, says
 * which kernels ran. */
static void
choose_openblas_kernels (void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init ();
  if (getenv ("OPENBLAS_CORETYPE") != NULL)
    return;
  if (__builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
      && __builtin_cpu_supports ("avx512dq") && __builtin_cpu_supports ("avx512vl"))
    setenv ("OPENBLAS_CORETYPE", "SkylakeX", 0);
  else if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    setenv ("OPENBLAS_CORETYPE", "Haswell", 0);
#endif
}

WsBlas *
ws_blas_open (const char *spec, char *why, size_t why_len)
{
  struct stat st;
  char last[400] = "";
  WsBlas *b = NULL;

  choose_openblas_kernels ();
  if (spec != NULL && strcmp (spec, "none") == 0)
    {
      snprintf (why, why_len, "WARPSCOPE_BLAS=none: no BLAS is used");
      return NULL;
    }
  if (spec != NULL && *spec != '\0')
    {
      if (stat (spec, &st) == 0 && S_ISDIR (st.st_mode))
        return open_folder (spec, why, why_len);
      b = try_beside (spec, last, sizeof last);
      if (b == NULL)
        snprintf (why, why_len, "WARPSCOPE_BLAS=%s could not be used: %s", spec, last);
      return b;
    }
  for (size_t i = 0; i < sizeof usual / sizeof *usual; i++)
    {
      char attempt[400];
      WsBlas *found;

      /* After the OpenBLAS names, numpy's; after them, the first that works. */
      if (i > 0 && strstr (usual[i - 1], "openblas") != NULL
          && strstr (usual[i], "openblas") == NULL)
        b = open_numpy_libs (b);
      if (b != NULL && strstr (usual[i], "openblas") == NULL)
        break;
      found = try_library (usual[i], attempt, sizeof attempt);
      b = keep_better (b, found);
      /* Keep the most telling reason: a library that is there but unusable, rather than the
       * last name that is simply absent. */
      if (found == NULL && (last[0] == '\0' || strstr (attempt, "No such file") == NULL))
        snprintf (last, sizeof last, "%s", attempt);
    }
  if (b == NULL)
    snprintf (why, why_len,
              "no BLAS library was found (looked for OpenBLAS, BLIS, MKL, FlexiBLAS and "
              "libblas; %s); install one, such as Debian's libopenblas0-pthread, or name one "
              "with WARPSCOPE_BLAS",
              last);
  return b;
}

void
ws_blas_free (WsBlas *blas)
{
  free (blas);
}

const WsBlasInfo *
ws_blas_get_info (const WsBlas *blas)
{
  return &blas->info;
}

int
ws_blas_set_threads (WsBlas *b, int threads)
{
  int64_t got = 0;

  if (b->set_threads != NULL)
    {
      if (b->vendor == VENDOR_BLIS)
        ((void (*) (int64_t)) b->set_threads) (threads);
      else
        ((void (*) (int)) b->set_threads) (threads);
    }
  if (b->get_threads == NULL)
    return 0;
  if (b->vendor == VENDOR_BLIS)
    got = (int32_t) ((int64_t (*) (void)) b->get_threads) ();
  else
    got = ((int (*) (void)) b->get_threads) ();
  return got > 0 && got < 1 << 20 ? (int) got : 0;
}

void
ws_blas_sgemm (WsBlas *b, const float *A, const float *B, float *C, uint64_t m, uint64_t n,
               uint64_t k)
{
  if (m == 0 || n == 0)
    return;
  if (k == 0)
    {
      memset (C, 0, m * n * sizeof (float));
      return;
    }
  call_sgemm (b, A, B, C, m, n, k);
}

void
ws_blas_label (const WsBlas *b, char *buf, size_t len)
{
  const WsBlasInfo *i = &b->info;

  if (b->vendor == VENDOR_GENERIC)
    snprintf (buf, len, "BLAS (%s)", i->config);
  else if (i->version[0] != '\0')
    snprintf (buf, len, "%s %s", i->name, i->version);
  else
    snprintf (buf, len, "%s", i->name);
}

WsBlas *
ws_blas_default (const char **why)
{
  static int tried;
  static WsBlas *blas;
  static char reason[600];

  if (!tried)
    {
      tried = 1;
      blas = ws_blas_open (getenv ("WARPSCOPE_BLAS"), reason, sizeof reason);
    }
  if (why != NULL)
    *why = blas != NULL ? NULL : reason;
  return blas;
}
