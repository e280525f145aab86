/* ws-runner-memcheck.c: --memcheck TOOL. The runner starts itself under compute-sanitizer for one
 * configuration of the own kernel (the first size, block and parameter values asked for),
 * with one repetition, no warm-up, no tracing (CUPTI and the sanitizer cannot both instrument
 * a process) and no CPU baseline, and reads the sanitizer's report into one `memcheck` record
 * per kind and place of error, then a `memcheck_summary`. The checked run's own records are
 * not kept (its timings under the sanitizer mean nothing), except its errors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* memmem */

#include "ws-runner-memcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ws-config.h"
#include "ws-output.h"
#include "ws-protocol.h"
#include "ws-own-kernel-private.h"
#include "ws-sanitizer-report.h"

extern char **environ;

#define MAX_FINDINGS 64

/* compute-sanitizer: $WARPSCOPE_COMPUTE_SANITIZER, on PATH, in /usr/local/cuda/bin, or in the
 * toolkit this runner was built with. */
static int
find_sanitizer (char *path, size_t len)
{
  const char *env = getenv ("WARPSCOPE_COMPUTE_SANITIZER"), *p = getenv ("PATH");
  const char *dirs[] = { "/usr/local/cuda/bin", WS_CUDA_ROOT "/bin" };

  if (env != NULL && *env != '\0')
    {
      snprintf (path, len, "%s", env);
      return access (path, X_OK) == 0;
    }
  while (p != NULL && *p != '\0')
    {
      size_t n = strcspn (p, ":");

      snprintf (path, len, "%.*s/compute-sanitizer", (int) n, p);
      if (n > 0 && access (path, X_OK) == 0)
        return 1;
      p += n + (p[n] == ':');
    }
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    {
      snprintf (path, len, "%s/compute-sanitizer", dirs[i]);
      if (access (path, X_OK) == 0)
        return 1;
    }
  return 0;
}

static char *
read_all (const char *path)
{
  FILE *f = fopen (path, "rb");
  size_t cap = 1 << 16, n = 0, got;
  char *buf;

  if (f == NULL)
    return NULL;
  buf = malloc (cap + 1);
  while (buf != NULL && (got = fread (buf + n, 1, cap - n, f)) > 0)
    {
      n += got;
      if (n == cap && cap < ((size_t) 64 << 20))
        {
          char *grown = realloc (buf, 2 * cap + 1);

          if (grown == NULL)
            break;
          buf = grown;
          cap *= 2;
        }
      else if (n == cap)
        break;
    }
  fclose (f);
  if (buf != NULL)
    buf[n] = '\0';
  return buf;
}

typedef struct
{
  char *argv[64];
  char storage[48][1100];
  int n, used;
} Argv;

static void
arg (Argv *a, const char *s)
{
  if (a->n < 63 && a->used < 48)
    {
      snprintf (a->storage[a->used], sizeof a->storage[a->used], "%s", s);
      a->argv[a->n++] = a->storage[a->used++];
      a->argv[a->n] = NULL;
    }
}

static void
build_argv (const WsOptions *o, const char *sanitizer, const char *self, const char *log,
            Argv *a)
{
  const OwnKernel *k = _ws_own;
  char buf[1100];

  a->n = a->used = 0;
  arg (a, sanitizer);
  arg (a, "--tool");
  arg (a, o->memcheck);
  arg (a, "--print-limit");
  arg (a, "100");
  arg (a, "--show-backtrace");
  arg (a, "no");
  arg (a, "--log-file");
  arg (a, log);
  arg (a, self);
  arg (a, "--source");
  arg (a, o->source);
  if (o->n_sizes > 0)
    {
      arg (a, "--sizes");
      arg (a, o->sizes[0].text);
    }
  if (o->n_blocks > 0)
    {
      snprintf (buf, sizeof buf, "%ux%ux%u", o->blocks[0].dims[0], o->blocks[0].dims[1],
                o->blocks[0].dims[2]);
      arg (a, "--blocks");
      arg (a, buf);
    }
  for (int p = 0; p < k->kf.n_params; p++)
    {
      snprintf (buf, sizeof buf, "%s=%s", k->kf.params[p].name, _ws_own_first_value (p));
      arg (a, "--param");
      arg (a, buf);
    }
  snprintf (buf, sizeof buf, "%d", o->device);
  arg (a, "--device");
  arg (a, buf);
  if (o->seed)
    {
      snprintf (buf, sizeof buf, "%llu", (unsigned long long) o->seed);
      arg (a, "--seed");
      arg (a, buf);
    }
  arg (a, "--reps");
  arg (a, "1");
  arg (a, "--warmup");
  arg (a, "0");
  arg (a, "--no-trace");
  arg (a, "--transfer");
  arg (a, ws_transfer_to_string (o->transfers[0].kind == WS_TRANSFER_PINNED ? WS_TRANSFER_PINNED
                                                                           : WS_TRANSFER_PAGEABLE));
}

static void
uint3_array (WsJson *j, const char *key, const unsigned v[3])
{
  ws_json_begin_array (j, key);
  for (int i = 0; i < 3; i++)
    ws_json_uint (j, NULL, v[i]);
  ws_json_end_array (j);
}

static void
output_finding (const char *tool, const WsSanitizerFinding *f)
{
  WsJson *j = ws_output_begin (WS_RECORD_TYPE_MEMCHECK);

  ws_json_string (j, WS_KEY_TOOL, tool);
  ws_json_string (j, WS_KEY_KIND, f->kind);
  ws_json_string (j, WS_KEY_MESSAGE, f->message);
  ws_json_string (j, WS_KEY_FILE, f->file[0] ? f->file : NULL);
  ws_json_int (j, WS_KEY_LINE, f->line);
  ws_json_string (j, WS_KEY_KERNEL, f->kernel[0] ? f->kernel : NULL);
  ws_json_string (j, WS_KEY_ACCESS, f->access[0] ? f->access : NULL);
  ws_json_string (j, WS_KEY_SPACE, f->space[0] ? f->space : NULL);
  ws_json_int (j, WS_KEY_SIZE, f->size);
  if (f->has_thread)
    {
      uint3_array (j, "thread", f->thread);
      uint3_array (j, "block", f->block);
    }
  ws_json_string (j, WS_KEY_ADDRESS, f->address[0] ? f->address : NULL);
  ws_json_string (j, WS_KEY_DETAIL, f->detail[0] ? f->detail : NULL);
  ws_json_int (j, WS_KEY_COUNT, f->count);
  ws_output_end ();
  if (f->line > 0)
    fprintf (stderr, "%s:%d: %s: %s%s%s\n", f->file, f->line, tool, f->message,
             f->has_thread ? " (first by a thread of block " : "", f->has_thread ? "…)" : "");
}

/* Whether the line [p, p + n) is a record of `type`, as the runner writes it (type first). */
static int
is_record (const char *p, size_t n, const char *type)
{
  char start[64];
  int l = snprintf (start, sizeof start, "{\"type\":\"%s\"", type);

  return n >= (size_t) l && strncmp (p, start, (size_t) l) == 0;
}

/* Forwards the checked run's records that this recording keeps: with `device`, its device
 * record (the GPU the check ran on, which names it in the recording as a sweep's does);
 * else its error records (not its kernel_fault when the sanitizer explains it: the sanitizer
 * stops a kernel at its first bad access). */
static void
forward_records (const char *out, int device, int findings)
{
  const char *p = out;

  while (p != NULL && *p)
    {
      const char *nl = strchr (p, '\n');
      size_t n = nl ? (size_t) (nl - p) : strlen (p);
      int keep = device ? is_record (p, n, "device") : is_record (p, n, "error");

      if (keep && !device)
        keep = !(findings > 0 && memmem (p, n, "\"code\":\"kernel_fault\"", 21) != NULL)
               && memmem (p, n, "\"code\":\"header_error\"", 21) == NULL;

      if (keep)
        {
          fwrite (p, 1, n, stdout);
          fputc ('\n', stdout);
        }
      p = nl ? nl + 1 : NULL;
    }
  fflush (stdout);
}

/* Runs argv with stdout into `out_path`; its exit status, or -1 when it could not start. A
 * progress record every 10 s keeps whoever reads the stream from thinking the runner hangs. */
static int
run_child (Argv *a, const char *out_path)
{
  posix_spawn_file_actions_t fa;
  pid_t pid;
  int status = 0, rc;
  time_t last = time (NULL);

  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_addopen (&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen (&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  rc = posix_spawn (&pid, a->argv[0], &fa, NULL, a->argv, environ);
  posix_spawn_file_actions_destroy (&fa);
  if (rc != 0)
    return -1;
  for (;;)
    {
      pid_t w = waitpid (pid, &status, WNOHANG);

      if (w == pid)
        break;
      if (w < 0 && errno != EINTR)
        return -1;
      if (time (NULL) - last >= 10)
        {
          last = time (NULL);
          ws_output_progress (0, 1);
        }
      usleep (50000);
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + (WIFSIGNALED (status) ? WTERMSIG (status) : 0);
}

int
ws_runner_memcheck_run (const WsOptions *o, const char *argv0)
{
  char sanitizer[1024], self[1024], dir[] = "/tmp/warpscope-memcheck-XXXXXX", log[1100],
    out[1100], message[1400];
  WsSanitizerFinding *findings = NULL;
  WsSanitizerSummary summary = { -1, 0 };
  char *report = NULL, *child_out = NULL;
  Argv *a = NULL;
  int n = 0, status, exit_code;
  ssize_t len;

  (void) argv0;
  _ws_own_output_kernel (_ws_own);
  _ws_own_output_source (_ws_own);
  if (!find_sanitizer (sanitizer, sizeof sanitizer))
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_SANITIZER_UNAVAILABLE,
                       "compute-sanitizer is not installed (looked in PATH and "
                       "/usr/local/cuda/bin): it comes with the CUDA toolkit (the "
                       "cuda-sanitizer package), and WARPSCOPE_COMPUTE_SANITIZER can name it",
                       NULL);
      return 3;
    }
  len = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0 || mkdtemp (dir) == NULL || (a = calloc (1, sizeof *a)) == NULL
      || (findings = calloc (MAX_FINDINGS, sizeof *findings)) == NULL)
    {
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL,
                       "Could not prepare the memory check (no /proc, no room in /tmp or no "
                       "memory).", strerror (errno));
      free (a);
      return 5;
    }
  self[len] = '\0';
  snprintf (log, sizeof log, "%s/report.txt", dir);
  snprintf (out, sizeof out, "%s/run.jsonl", dir);
  build_argv (o, sanitizer, self, log, a);
  /* No hold kernel in the cross-check: under the sanitizer the host cannot outrun it. */
  setenv ("WARPSCOPE_CROSS_CHECK", "stream", 1);
  setenv ("WARPSCOPE_CALIBRATE", "0", 1);
  fprintf (stderr, "warpscope-runner: checking one configuration under %s --tool %s\n",
           sanitizer, o->memcheck);
  status = run_child (a, out);
  report = read_all (log);
  child_out = read_all (out);
  unlink (log);
  unlink (out);
  rmdir (dir);
  if (status < 0 || report == NULL)
    {
      snprintf (message, sizeof message, "%s could not run the kernel (%s): no report came "
                "back", sanitizer, status < 0 ? strerror (errno) : "no report file");
      ws_output_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_SANITIZER_FAILED, message, NULL);
      exit_code = 5;
      goto out;
    }
  forward_records (child_out, 1, 0);
  n = ws_sanitizer_parse (report, findings, MAX_FINDINGS, &summary);
  for (int i = 0; i < n && i < MAX_FINDINGS; i++)
    output_finding (o->memcheck, &findings[i]);
  forward_records (child_out, 0, n);
  {
    WsJson *j = ws_output_begin (WS_RECORD_TYPE_MEMCHECK_SUMMARY);

    ws_json_string (j, WS_KEY_TOOL, o->memcheck);
    ws_json_string (j, WS_KEY_SANITIZER, sanitizer);
    ws_json_int (j, WS_KEY_FINDINGS, n);
    ws_json_int (j, WS_KEY_REPORTS, summary.reports);
    if (summary.errors >= 0)
      ws_json_int (j, WS_KEY_ERRORS, summary.errors);
    else
      ws_json_null (j, WS_KEY_ERRORS);
    ws_json_int (j, WS_KEY_EXIT_STATUS, status);
    ws_json_string (j, WS_KEY_SIZE, o->n_sizes ? o->sizes[0].text : NULL);
    /* The report as the sanitizer wrote it, for whoever wants more than the findings; a
     * record stays far below the 1 MiB a reader takes. */
    if (strlen (report) > 200000)
      strcpy (report + 199000, "\n… (cut)\n");
    ws_json_string (j, WS_KEY_REPORT, report);
    ws_output_end ();
  }
  exit_code = n > 0 ? 1 : status;
  if (n == 0 && status == 0)
    fprintf (stderr, "warpscope-runner: %s found nothing\n", o->memcheck);
out:
  free (report);
  free (child_out);
  free (findings);
  free (a);
  return exit_code;
}
