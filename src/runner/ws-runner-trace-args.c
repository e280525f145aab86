/* ws-runner-trace-args.c: the arguments of warpscope-runner --trace, the points of a sweep over a
 * program's own parameters with their {NAME} substitution, and finding the program and the
 * injection library. Nothing here touches the GPU or starts anything.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* strdup, readlink */
#include "ws-runner-trace-private.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-config.h"

const char _ws_trace_usage[]
  = "Usage: warpscope-runner --trace [OPTIONS] [--] PROGRAM [ARGS…]\n"
    "\n"
    "Starts PROGRAM with libwarpscope-inject loaded by the CUDA driver and prints what it\n"
    "does on the GPU as JSON Lines records (docs/protocol.md, \"Traced programs\") on stdout.\n"
    "The program's own output goes to stderr.\n"
    "\n"
    "Options:\n"
    "  --sweep NAME=V1,V2,…  run the program once per value, with {NAME} replaced by it in\n"
    "                        its arguments, in --env values and in --cwd; several --sweep\n"
    "                        options run every combination (the first varies slowest)\n"
    "  --env NAME=VALUE      set an environment variable for the program\n"
    "  --cwd DIR             run the program in DIR\n"
    "  --timeout S           stop a program run that takes longer than S seconds (0: never)\n"
    "  --no-ceilings         do not measure the GPU's copy bandwidths after the program\n"
    "\n"
    "Exit status: 0 every program run exited 0 and used CUDA; 1 a program run failed, was\n"
    "stopped by --timeout or never used CUDA; 2 bad arguments, or the program cannot be run;\n"
    "3 no NVIDIA driver; 5 an internal error (libwarpscope-inject not found); 130 or 143\n"
    "stopped by SIGINT or SIGTERM (the trace so far is kept).\n";

static int
fail (WsArgError *err, const char *fmt, ...)
{
  va_list ap;

  err->code = WS_ERROR_BAD_ARGUMENT;
  va_start (ap, fmt);
  vsnprintf (err->message, sizeof err->message, fmt, ap);
  va_end (ap);
  return 0;
}

/* An example of the option with its value, for the message that it needs one. */
static const char *
value_example (const char *name)
{
  if (strcmp (name, "--sweep") == 0)
    return "--sweep TPB=32,64,128";
  if (strcmp (name, "--env") == 0)
    return "--env NUMBA_CUDA_DEBUGINFO=0";
  if (strcmp (name, "--cwd") == 0)
    return "--cwd build";
  return "--timeout 60";
}

static int
valid_name (const char *s, size_t len)
{
  if (len == 0 || len >= 64 || !(isalpha ((unsigned char) s[0]) || s[0] == '_'))
    return 0;
  for (size_t i = 1; i < len; i++)
    if (!(isalnum ((unsigned char) s[i]) || s[i] == '_'))
      return 0;
  return 1;
}

static int
parse_sweep (const char *value, WsTraceOptions *o, WsArgError *err)
{
  const char *eq = strchr (value, '=');
  WsTraceParam *p;
  const char *item;

  if (eq == NULL || !valid_name (value, (size_t) (eq - value)))
    return fail (err, "--sweep '%s': write NAME=V1,V2,… with a NAME of letters, digits and _ "
                 "(not starting with a digit), e.g. --sweep TPB=32,64,128",
                 value);
  if (o->n_params == WS_TRACE_MAX_PARAMS)
    return fail (err, "--sweep: at most %d parameters in one trace, which runs every "
                 "combination of their values; sweep fewer",
                 WS_TRACE_MAX_PARAMS);
  for (int i = 0; i < o->n_params; i++)
    if (strlen (o->params[i].name) == (size_t) (eq - value)
        && strncmp (o->params[i].name, value, (size_t) (eq - value)) == 0)
      return fail (err, "--sweep %.*s is given twice: list all its values in one --sweep",
                   (int) (eq - value), value);
  p = &o->params[o->n_params++];
  snprintf (p->name, sizeof p->name, "%.*s", (int) (eq - value), value);
  item = eq + 1;
  for (;;)
    {
      const char *comma = strchr (item, ',');
      size_t len = comma ? (size_t) (comma - item) : strlen (item);

      if (len == 0)
        return fail (err, "--sweep %s: an empty value in '%s'; separate the values with single "
                     "commas",
                     p->name, eq + 1);
      if (p->n_values == WS_TRACE_MAX_VALUES)
        return fail (err, "--sweep %s gives more than %d values: sweep fewer, or share them "
                     "out over several traces",
                     p->name, WS_TRACE_MAX_VALUES);
      if ((p->values[p->n_values] = strndup (item, len)) == NULL)
        return fail (err, "out of memory");
      p->n_values++;
      if (comma == NULL)
        break;
      item = comma + 1;
    }
  return 1;
}

static int
parse_env (const char *value, WsTraceOptions *o, WsArgError *err)
{
  const char *eq = strchr (value, '=');

  if (eq == NULL || !valid_name (value, (size_t) (eq - value)))
    return fail (err, "--env '%s': write NAME=VALUE, e.g. --env NUMBA_CUDA_DEBUGINFO=0", value);
  if (o->n_env == WS_TRACE_MAX_ENV)
    return fail (err, "--env: at most %d variables; set the others in the environment "
                 "warpscope-runner starts in, which the program inherits",
                 WS_TRACE_MAX_ENV);
  o->env_names[o->n_env] = strndup (value, (size_t) (eq - value));
  o->env_values[o->n_env] = strdup (eq + 1);
  if (o->env_names[o->n_env] == NULL || o->env_values[o->n_env] == NULL)
    return fail (err, "out of memory");
  o->n_env++;
  return 1;
}

static int
mentions (const char *text, const char *name)
{
  char pattern[68];

  snprintf (pattern, sizeof pattern, "{%s}", name);
  return text != NULL && strstr (text, pattern) != NULL;
}

/* A parameter that appears nowhere would run the same program N times. */
static int
check_params_used (const WsTraceOptions *o, WsArgError *err)
{
  for (int p = 0; p < o->n_params; p++)
    {
      const char *name = o->params[p].name;
      int used = mentions (o->cwd, name);

      for (int i = 0; !used && i < o->argc; i++)
        used = mentions (o->argv[i], name);
      for (int i = 0; !used && i < o->n_env; i++)
        used = mentions (o->env_values[i], name);
      if (!used)
        return fail (err, "--sweep %s: {%s} appears in no argument of the program, no --env "
                     "value and not in --cwd, so every run would be the same; write it where "
                     "the value goes, e.g. -- python3 vadd.py --tpb {%s}",
                     name, name, name);
    }
  return 1;
}

static int
parse_timeout (const char *value, WsTraceOptions *o, WsArgError *err)
{
  char *end = NULL;
  double s;

  errno = 0;
  s = strtod (value, &end);
  if (end == value || *end != '\0' || errno != 0 || !(s >= 0) || s > 1e7)
    return fail (err, "--timeout '%s' is not a number of seconds: write one such as 60, or 0 "
                 "for never",
                 value);
  o->timeout_s = s;
  return 1;
}

int
_ws_trace_parse (int argc, char **argv, WsTraceOptions *o, WsArgError *err)
{
  memset (o, 0, sizeof *o);
  o->ceilings = 1;
  err->code = WS_ERROR_NONE;
  err->message[0] = '\0';
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *eq = strchr (arg, '=');
      char name[32];
      const char *value = NULL;
      int takes_value;

      if (strcmp (arg, "--") == 0 || strncmp (arg, "--", 2) != 0)
        {
          int first = strcmp (arg, "--") == 0 ? i + 1 : i;

          o->argv = argv + first;
          o->argc = argc - first;
          break;
        }
      snprintf (name, sizeof name, "%.*s", (int) (eq ? eq - arg : (long) strlen (arg)), arg);
      takes_value = strcmp (name, "--sweep") == 0 || strcmp (name, "--env") == 0
                    || strcmp (name, "--cwd") == 0 || strcmp (name, "--timeout") == 0;
      if (takes_value)
        {
          if (eq != NULL)
            value = eq + 1;
          else if (i + 1 < argc)
            value = argv[++i];
          else
            return fail (err, "%s needs a value, e.g. %s", name, value_example (name));
        }
      else if (eq != NULL)
        return fail (err, "%s takes no value: write %s alone", name, name);

      if (strcmp (name, "--trace") == 0)
        continue;
      if (strcmp (name, "--help") == 0)
        o->help = 1;
      else if (strcmp (name, "--no-ceilings") == 0)
        o->ceilings = 0;
      else if (strcmp (name, "--sweep") == 0)
        {
          if (!parse_sweep (value, o, err))
            return 0;
        }
      else if (strcmp (name, "--env") == 0)
        {
          if (!parse_env (value, o, err))
            return 0;
        }
      else if (strcmp (name, "--cwd") == 0)
        {
          if (*value == '\0')
            return fail (err, "--cwd is empty: give the folder to run the program in");
          o->cwd = value;
        }
      else if (strcmp (name, "--timeout") == 0)
        {
          if (!parse_timeout (value, o, err))
            return 0;
        }
      else
        return fail (err, "%s is not an option of --trace (they are --sweep, --env, --cwd, "
                     "--timeout and --no-ceilings); put the program after --, e.g. "
                     "warpscope-runner --trace -- python3 vector_add.py",
                     name);
    }
  if (o->help)
    return 1;
  if (o->argc == 0 || o->argv[0][0] == '\0')
    return fail (err, "--trace: which program? Give it after --, e.g. warpscope-runner --trace "
                 "-- python3 vector_add.py");
  if (_ws_trace_n_points (o) > WS_TRACE_MAX_POINTS)
    return fail (err, "--sweep: %d combinations, more than the %d program runs one trace may "
                 "hold; sweep fewer values",
                 _ws_trace_n_points (o), WS_TRACE_MAX_POINTS);
  return check_params_used (o, err);
}

void
_ws_trace_options_clear (WsTraceOptions *o)
{
  for (int p = 0; p < o->n_params; p++)
    for (int v = 0; v < o->params[p].n_values; v++)
      free (o->params[p].values[v]);
  for (int i = 0; i < o->n_env; i++)
    {
      free (o->env_names[i]);
      free (o->env_values[i]);
    }
  memset (o, 0, sizeof *o);
}

int
_ws_trace_n_points (const WsTraceOptions *o)
{
  long n = 1;

  for (int p = 0; p < o->n_params; p++)
    {
      n *= o->params[p].n_values;
      if (n > INT_MAX / WS_TRACE_MAX_VALUES)
        return INT_MAX / WS_TRACE_MAX_VALUES;
    }
  return (int) n;
}

void
_ws_trace_point_values (const WsTraceOptions *o, int point, const char **values)
{
  for (int p = o->n_params - 1; p >= 0; p--)
    {
      values[p] = o->params[p].values[point % o->params[p].n_values];
      point /= o->params[p].n_values;
    }
}

char *
_ws_trace_substitute (const WsTraceOptions *o, const char *const *values, const char *text)
{
  size_t cap = strlen (text) + 1, len = 0;
  char *out = malloc (cap);
  const char *p = text;

  if (out == NULL)
    return NULL;
  while (*p != '\0')
    {
      const char *value = NULL;
      size_t skip = 1, add;

      if (*p == '{')
        for (int i = 0; i < o->n_params; i++)
          {
            size_t n = strlen (o->params[i].name);

            if (strncmp (p + 1, o->params[i].name, n) == 0 && p[1 + n] == '}')
              {
                value = values[i];
                skip = n + 2;
                break;
              }
          }
      add = value != NULL ? strlen (value) : 1;
      if (len + add + 1 > cap)
        {
          char *bigger = realloc (out, cap = 2 * (len + add + 1));

          if (bigger == NULL)
            {
              free (out);
              return NULL;
            }
          out = bigger;
        }
      memcpy (out + len, value != NULL ? value : p, add);
      len += add;
      p += skip;
    }
  out[len] = '\0';
  return out;
}

static int
runnable (const char *path, int *error)
{
  struct stat st;

  if (stat (path, &st) != 0)
    {
      *error = errno == ENOTDIR ? ENOENT : errno;
      return 0;
    }
  if (S_ISDIR (st.st_mode) || access (path, X_OK) != 0)
    {
      *error = EACCES;
      return 0;
    }
  return 1;
}

int
_ws_trace_find_program (const char *name, char *path, size_t len, int *error)
{
  const char *dirs = getenv ("PATH");
  int seen_denied = 0;

  *error = ENOENT;
  if (strchr (name, '/') != NULL)
    {
      snprintf (path, len, "%s", name);
      return runnable (path, error);
    }
  if (dirs == NULL || *dirs == '\0')
    dirs = "/usr/local/bin:/usr/bin:/bin";
  for (const char *d = dirs;; d = strchr (d, ':') + 1)
    {
      const char *colon = strchr (d, ':');
      int dlen = (int) (colon ? colon - d : (long) strlen (d));
      int e;

      /* An empty entry is the current folder, as for execvp. */
      snprintf (path, len, "%.*s%s%s", dlen, d, dlen ? "/" : "", name);
      if (runnable (path, &e))
        return 1;
      seen_denied |= e == EACCES;
      if (colon == NULL)
        break;
    }
  *error = seen_denied ? EACCES : ENOENT;
  snprintf (path, len, "%s", name);
  return 0;
}

static int
readable (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 && S_ISREG (st.st_mode) && access (path, R_OK) == 0;
}

static void
note (char *looked, size_t looked_len, const char *path)
{
  size_t used = strlen (looked);

  if (used + 3 < looked_len)
    snprintf (looked + used, looked_len - used, "%s%s", used ? ", " : "", path);
}

int
_ws_trace_find_inject (char *path, size_t len, char *looked, size_t looked_len)
{
  const char *env = getenv ("WARPSCOPE_INJECT");
  char self[PATH_MAX];
  ssize_t n;

  looked[0] = '\0';
  if (env != NULL && *env != '\0')
    {
      snprintf (path, len, "%s", env);
      note (looked, looked_len, path);
      return readable (path);
    }
  n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n > 0)
    {
      char *slash;

      self[n] = '\0';
      if ((slash = strrchr (self, '/')) != NULL)
        *slash = '\0';
      /* The build tree: src/runner/inject/ beside src/runner/warpscope-runner. */
      snprintf (path, len, "%s/inject/libwarpscope-inject.so", self);
      note (looked, looked_len, path);
      if (readable (path))
        return 1;
#ifdef WS_INJECT_FROM_RUNNER
      /* Installed under any prefix, copied elsewhere whole: LIBDIR/warpscope/ relative to
       * LIBEXECDIR. */
      snprintf (path, len, "%s/%s", self, WS_INJECT_FROM_RUNNER);
      note (looked, looked_len, path);
      if (readable (path))
        return 1;
#endif
    }
  snprintf (path, len, "%s", WS_INJECT_INSTALL_PATH);
  note (looked, looked_len, path);
  return readable (path);
}
