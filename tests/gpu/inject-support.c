/* inject-support.c: running a program under libwarpscope-inject, reading its trace back and
 * describing it when a test fails.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "inject-support.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *
read_all (const char *path)
{
  FILE *f = fopen (path, "rb");
  char *s;
  long n;

  if (f == NULL)
    return strdup ("");
  fseek (f, 0, SEEK_END);
  n = ftell (f);
  fseek (f, 0, SEEK_SET);
  s = malloc ((size_t) n + 1);
  n = (long) fread (s, 1, (size_t) n, f);
  s[n] = '\0';
  fclose (f);
  return s;
}

static void
read_trace (Trace *t, const char *path)
{
  FILE *f = fopen (path, "r");
  char *line = NULL;
  size_t cap = 0;

  if (f == NULL)
    return;
  while (getline (&line, &cap, f) > 0)
    {
      JValue *v = j_parse (line);

      if (v == NULL || v->type != J_OBJECT)
        {
          if (t->bad_lines++ < 5)
            printf ("# %s: not a JSON object: %.300s\n", t->name, line);
          j_free (v);
          continue;
        }
      t->records = realloc (t->records, (t->len + 1) * sizeof *t->records);
      t->records[t->len++] = v;
    }
  free (line);
  fclose (f);
}

static pid_t
spawn (const char *lib, const char *const *argv, const char *const *env, const char *trace,
       const char *log)
{
  pid_t pid = fork ();

  if (pid != 0)
    return pid;
  {
    int fd = open (log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    dup2 (fd, 1);
    dup2 (fd, 2);
    close (fd);
  }
  unsetenv ("CUDA_INJECTION64_PATH");
  unsetenv ("NVTX_INJECTION64_PATH");
  unsetenv ("WARPSCOPE_TRACE_FD");
  unsetenv ("WARPSCOPE_TRACE_FILE");
  if (lib != NULL)
    {
      setenv ("CUDA_INJECTION64_PATH", lib, 1);
      /* WARPSCOPE_TEST_NVTX_LIB (CUPTI's own library, say) tells a failure of NVTX's
         hand-over to CUPTI from one of CUPTI's NVTX records. */
      setenv ("NVTX_INJECTION64_PATH",
              getenv ("WARPSCOPE_TEST_NVTX_LIB") ? getenv ("WARPSCOPE_TEST_NVTX_LIB") : lib, 1);
      setenv ("WARPSCOPE_TRACE_FILE", trace, 1);
    }
  for (size_t i = 0; env != NULL && env[i] != NULL; i++)
    putenv ((char *) env[i]);
  execvp (argv[0], (char *const *) argv);
  fprintf (stderr, "cannot run %s: %s\n", argv[0], strerror (errno));
  _exit (127);
}

void
trace_run (Trace *t, const char *name, const char *lib, const char *const *argv,
           const char *const *env, int timeout_s)
{
  char dir[] = "/tmp/ws-gpu-inject-XXXXXX", trace[64], log[64];
  struct timespec pause = { 0, 20000000 };
  pid_t pid;
  int waited = 0;

  memset (t, 0, sizeof *t);
  snprintf (t->name, sizeof t->name, "%s", name);
  if (mkdtemp (dir) == NULL)
    {
      t->status = -1;
      return;
    }
  snprintf (trace, sizeof trace, "%s/trace.jsonl", dir);
  snprintf (log, sizeof log, "%s/output", dir);
  printf ("# %s:%s", name, lib ? " traced:" : " untraced:");
  for (size_t i = 0; argv[i] != NULL; i++)
    printf (" %s", argv[i]);
  printf ("\n");
  fflush (stdout);
  pid = spawn (lib, argv, env, trace, log);
  /* A program hung by the library must fail the test, not hang the suite. */
  while (waitpid (pid, &t->status, WNOHANG) == 0)
    {
      if (waited++ > timeout_s * 50)
        {
          kill (pid, SIGKILL);
          waitpid (pid, &t->status, 0);
          t->timed_out = 1;
          printf ("# %s: still running after %d s: killed\n", name, timeout_s);
          break;
        }
      nanosleep (&pause, NULL);
    }
  read_trace (t, trace);
  t->output = read_all (log);
  unlink (trace);
  unlink (log);
  rmdir (dir);
}

void
trace_free (Trace *t)
{
  for (size_t i = 0; i < t->len; i++)
    j_free (t->records[i]);
  free (t->records);
  free (t->output);
  memset (t, 0, sizeof *t);
}

int
trace_exited (const Trace *t, int code)
{
  return !t->timed_out && WIFEXITED (t->status) && WEXITSTATUS (t->status) == code;
}

int
trace_signaled (const Trace *t, int sig)
{
  return !t->timed_out && WIFSIGNALED (t->status) && WTERMSIG (t->status) == sig;
}

static int
is (const JValue *r, const char *type, const char *kind, double pid)
{
  const char *rt = j_str (r, "type"), *rk = j_str (r, "kind");

  return rt != NULL && strcmp (rt, type) == 0
         && (kind == NULL || (rk != NULL && strcmp (rk, kind) == 0))
         && (pid < 0 || j_num (r, "pid") == pid);
}

size_t
trace_count (const Trace *t, const char *type, const char *kind, double pid)
{
  size_t n = 0;

  for (size_t i = 0; i < t->len; i++)
    n += is (t->records[i], type, kind, pid);
  return n;
}

const JValue *
trace_nth (const Trace *t, const char *type, const char *kind, double pid, size_t n)
{
  for (size_t i = 0; i < t->len; i++)
    if (is (t->records[i], type, kind, pid) && n-- == 0)
      return t->records[i];
  return NULL;
}

size_t
trace_pids (const Trace *t, double *pids, size_t max)
{
  size_t n = 0;

  for (size_t i = 0; i < t->len && n < max; i++)
    if (is (t->records[i], "hello", NULL, -1))
      pids[n++] = j_num (t->records[i], "pid");
  return n;
}

int
trace_pids_known (const Trace *t)
{
  double pids[16];
  size_t n = trace_pids (t, pids, 16);

  for (size_t i = 0; i < t->len; i++)
    {
      double pid = j_num (t->records[i], "pid");
      int known = 0;

      for (size_t k = 0; k < n; k++)
        known |= pids[k] == pid;
      if (!known)
        return 0;
    }
  return 1;
}

const JValue *
trace_last (const Trace *t, double pid)
{
  for (size_t i = t->len; i-- > 0;)
    if (j_num (t->records[i], "pid") == pid)
      return is (t->records[i], "trace_end", NULL, -1) ? t->records[i] : NULL;
  return NULL;
}

size_t
trace_kernels (const Trace *t, const char *part, double pid)
{
  size_t n = 0;

  for (size_t i = 0; i < t->len; i++)
    {
      const char *name = j_str (t->records[i], "name");

      if (is (t->records[i], "activity", "kernel", pid)
          && (part == NULL || (name != NULL && strstr (name, part) != NULL)))
        n++;
    }
  return n;
}

size_t
trace_copies (const Trace *t, const char *direction, double bytes, const char *host)
{
  size_t n = 0;

  for (size_t i = 0; i < t->len; i++)
    {
      const JValue *r = t->records[i];
      const char *d = j_str (r, "direction"), *h = j_str (r, "host_memory");

      if (is (r, "activity", "memcpy", -1) && d != NULL && strcmp (d, direction) == 0
          && (bytes < 0 || j_num (r, "bytes") == bytes)
          && (host == NULL || (h != NULL && strcmp (h, host) == 0)))
        n++;
    }
  return n;
}

const JValue *
trace_api_of (const Trace *t, double pid, double correlation)
{
  for (size_t i = 0; i < t->len; i++)
    if (is (t->records[i], "activity", "api", pid)
        && j_num (t->records[i], "correlation") == correlation)
      return t->records[i];
  return NULL;
}

const JValue *
trace_nvtx (const Trace *t, const char *nvtx, const char *name)
{
  for (size_t i = 0; i < t->len; i++)
    {
      const JValue *r = t->records[i];
      const char *k = j_str (r, "nvtx"), *n = j_str (r, "name");

      if (is (r, "activity", "nvtx", -1) && k != NULL && strcmp (k, nvtx) == 0 && n != NULL
          && strcmp (n, name) == 0)
        return r;
    }
  return NULL;
}

int
j_triple_is (const JValue *v, const char *key, int x, int y, int z)
{
  const JValue *a = j_get (v, key);

  return a != NULL && a->type == J_ARRAY && a->len == 3 && a->items[0]->number == x
         && a->items[1]->number == y && a->items[2]->number == z;
}

int
trace_said (const Trace *t, const char *text)
{
  return t->output != NULL && strstr (t->output, text) != NULL;
}

/* ---- what was recorded, for a failed test's log ------------------------------------------- */

static void
triple_text (const JValue *v, const char *key, char *buf, size_t len)
{
  const JValue *a = j_get (v, key);

  if (a == NULL || a->type != J_ARRAY || a->len != 3)
    snprintf (buf, len, "?");
  else
    snprintf (buf, len, "%g×%g×%g", a->items[0]->number, a->items[1]->number,
              a->items[2]->number);
}

static void
dump_kinds (const Trace *t)
{
  const char *types[] = { "hello", "device", "context", "module", "error", "trace_end" };
  const char *kinds[] = { "kernel", "memcpy", "memset", "sync", "api", "nvtx", "jit",
                          "overhead" };

  printf ("#   records:");
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    printf (" %s %zu", types[i], trace_count (t, types[i], NULL, -1));
  printf ("; activities:");
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    printf (" %s %zu", kinds[i], trace_count (t, "activity", kinds[i], -1));
  printf ("\n");
}

static void
dump_record (const JValue *r)
{
  const char *type = j_str (r, "type"), *kind = j_str (r, "kind");
  char grid[64], block[64];

  if (strcmp (type, "activity") != 0)
    {
      printf ("#   %s pid %g: code %s, exit %g, signal %g, records %g, dropped %g, event %s, "
              "device %g, message %.160s\n", type, j_num (r, "pid"),
              j_str (r, "code") ?: "-", j_num (r, "exit_status"), j_num (r, "signal"),
              j_num (r, "records"), j_num (r, "dropped_records"), j_str (r, "event") ?: "-",
              j_num (r, "device"), j_str (r, "message") ?: "-");
      return;
    }
  if (strcmp (kind, "kernel") == 0)
    {
      triple_text (r, "grid", grid, sizeof grid);
      triple_text (r, "block", block, sizeof block);
      printf ("#   kernel pid %g: %.120s, grid %s, block %s, %g registers, %g+%g B shared, "
              "stream %g, %g ns\n", j_num (r, "pid"), j_str (r, "name") ?: "(no name)", grid,
              block, j_num (r, "registers"), j_num (r, "static_smem"), j_num (r, "dynamic_smem"),
              j_num (r, "stream"), j_num (r, "end") - j_num (r, "start"));
    }
  else if (strcmp (kind, "memcpy") == 0)
    printf ("#   memcpy pid %g: %s %g B %s, stream %g, %g ns\n", j_num (r, "pid"),
            j_str (r, "direction") ?: "?", j_num (r, "bytes"), j_str (r, "host_memory") ?: "-",
            j_num (r, "stream"), j_num (r, "end") - j_num (r, "start"));
  else if (strcmp (kind, "nvtx") == 0)
    printf ("#   nvtx pid %g: %s \"%s\", thread %g, %g ns\n", j_num (r, "pid"),
            j_str (r, "nvtx") ?: "?", j_str (r, "name") ?: "", j_num (r, "thread"),
            j_num (r, "end") - j_num (r, "start"));
  else if (strcmp (kind, "api") == 0)
    printf ("#   api pid %g: %s %s, thread %g, result %g, %g ns\n", j_num (r, "pid"),
            j_str (r, "api") ?: "?", j_str (r, "name") ?: "?", j_num (r, "thread"),
            j_num (r, "result"), j_num (r, "end") - j_num (r, "start"));
  else
    printf ("#   %s pid %g: %g ns\n", kind, j_num (r, "pid"), j_num (r, "end") - j_num (r, "start"));
}

void
trace_dump (const Trace *t)
{
  size_t shown[16] = { 0 };
  const char *kinds[] = { "kernel", "memcpy", "memset", "sync", "api", "nvtx", "jit" };
  const char *tail;

  printf ("# %s: what was recorded (%zu records, %zu lines not JSON)%s\n", t->name, t->len,
          t->bad_lines, t->timed_out ? ", the program timed out" : "");
  if (WIFEXITED (t->status))
    printf ("#   the program exited %d\n", WEXITSTATUS (t->status));
  else if (WIFSIGNALED (t->status))
    printf ("#   the program was killed by signal %d\n", WTERMSIG (t->status));
  dump_kinds (t);
  for (size_t i = 0; i < t->len; i++)
    {
      const JValue *r = t->records[i];
      const char *type = j_str (r, "type"), *kind = j_str (r, "kind");

      if (strcmp (type, "activity") != 0)
        dump_record (r);
      else
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
          /* Every API call (a failing one is what a failed test looks for), six of the rest. */
          if (kind != NULL && strcmp (kind, kinds[k]) == 0
              && (shown[k]++ < 6 || strcmp (kind, "api") == 0))
            dump_record (r);
    }
  tail = t->output ? t->output : "";
  if (strlen (tail) > 1500)
    tail += strlen (tail) - 1500;
  printf ("#   the program said:\n");
  for (const char *p = tail; *p;)
    {
      const char *nl = strchr (p, '\n');
      int n = nl ? (int) (nl - p) : (int) strlen (p);

      printf ("#     %.*s\n", n, p);
      p += n + (nl != NULL);
    }
  fflush (stdout);
}
