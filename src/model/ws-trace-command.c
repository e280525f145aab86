/* ws-trace-command.c: a program to trace, checked and made into warpscope-runner --trace's
 * arguments (for the app and the CLI alike), and the words for what became of it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-trace-command.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-format.h"
#include "ws-units.h"

void
ws_trace_command_clear (WsTraceCommand *c)
{
  g_clear_pointer (&c->program, g_strfreev);
  g_clear_pointer (&c->cwd, g_free);
  g_clear_pointer (&c->env, g_strfreev);
  g_clear_pointer (&c->sweeps, g_strfreev);
  g_clear_pointer (&c->timeout, g_free);
}

/* ---- checking ---------------------------------------------------------------------------- */

static gboolean
valid_name (const char *name, gsize length)
{
  if (length == 0 || g_ascii_isdigit (name[0]))
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_')
      return FALSE;
  return TRUE;
}

/* Whether {NAME} appears in the program's words, its environment or its folder. */
static gboolean
substituted (const WsTraceCommand *c, const char *name, gsize length)
{
  g_autofree char *needle = g_strdup_printf ("{%.*s}", (int) length, name);

  for (guint i = 0; c->program != NULL && c->program[i] != NULL; i++)
    if (strstr (c->program[i], needle) != NULL)
      return TRUE;
  for (guint i = 0; c->env != NULL && c->env[i] != NULL; i++)
    if (strstr (c->env[i], needle) != NULL)
      return TRUE;
  return c->cwd != NULL && strstr (c->cwd, needle) != NULL;
}

static gboolean
validate_sweep (const WsTraceCommand *c, const char *sweep, GError **error)
{
  const char *eq = strchr (sweep, '=');
  g_auto (GStrv) values = NULL;

  if (eq == NULL || !valid_name (sweep, (gsize) (eq - sweep)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The sweep “%s” is not NAME=V1,V2,…: write it as TPB=32,64,128."), sweep);
      return FALSE;
    }
  values = g_strsplit (eq + 1, ",", -1);
  for (guint i = 0; values[0] == NULL || values[i] != NULL; i++)
    if (values[i] == NULL || *g_strstrip (values[i]) == '\0')
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("The sweep “%s” has an empty value: give each value between commas."),
                     sweep);
        return FALSE;
      }
  if (!substituted (c, sweep, (gsize) (eq - sweep)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The sweep over %.*s changes nothing: write {%.*s} in the command, an "
                     "environment variable or the folder where its value should go."),
                   (int) (eq - sweep), sweep, (int) (eq - sweep), sweep);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_trace_command_validate (const WsTraceCommand *c, GError **error)
{
  g_return_val_if_fail (c != NULL, FALSE);
  if (c->program == NULL || c->program[0] == NULL || *c->program[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Which program? Give its command, e.g. python3 vector_add.py."));
      return FALSE;
    }
  for (guint i = 0; c->env != NULL && c->env[i] != NULL; i++)
    {
      const char *eq = strchr (c->env[i], '=');

      if (eq == NULL || !valid_name (c->env[i], (gsize) (eq - c->env[i])))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("The environment variable “%s” is not NAME=VALUE: write it as "
                         "NUMBA_ENABLE_CUDASIM=0."),
                       c->env[i]);
          return FALSE;
        }
    }
  for (guint i = 0; c->sweeps != NULL && c->sweeps[i] != NULL; i++)
    if (!validate_sweep (c, c->sweeps[i], error))
      return FALSE;
  return TRUE;
}

/* ---- the runner's arguments -------------------------------------------------------------- */

GPtrArray *
ws_trace_command_runner_args (const WsTraceCommand *c)
{
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (c != NULL, args);
  g_ptr_array_add (args, g_strdup ("--trace"));
  for (guint i = 0; c->sweeps != NULL && c->sweeps[i] != NULL; i++)
    {
      g_ptr_array_add (args, g_strdup ("--sweep"));
      g_ptr_array_add (args, g_strdup (c->sweeps[i]));
    }
  for (guint i = 0; c->env != NULL && c->env[i] != NULL; i++)
    {
      g_ptr_array_add (args, g_strdup ("--env"));
      g_ptr_array_add (args, g_strdup (c->env[i]));
    }
  if (c->cwd != NULL && *c->cwd != '\0')
    {
      g_ptr_array_add (args, g_strdup ("--cwd"));
      g_ptr_array_add (args, g_strdup (c->cwd));
    }
  if (c->timeout != NULL && *c->timeout != '\0')
    {
      g_ptr_array_add (args, g_strdup ("--timeout"));
      g_ptr_array_add (args, g_strdup (c->timeout));
    }
  if (c->no_ceilings)
    g_ptr_array_add (args, g_strdup ("--no-ceilings"));
  /* Everything after -- is the program's, however it looks. */
  g_ptr_array_add (args, g_strdup ("--"));
  for (guint i = 0; c->program != NULL && c->program[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (c->program[i]));
  return args;
}

char **
ws_trace_command_build_argv (const WsTraceCommand *c, const char *runner, GError **error)
{
  g_autoptr (GPtrArray) args = NULL;

  g_return_val_if_fail (c != NULL && runner != NULL, NULL);
  if (!ws_trace_command_validate (c, error))
    return NULL;
  args = ws_trace_command_runner_args (c);
  g_ptr_array_insert (args, 0, g_strdup (runner));
  g_ptr_array_add (args, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&args), FALSE);
}

char **
ws_trace_command_split (const char *line, GError **error)
{
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *stripped = line ? g_strstrip (g_strdup (line)) : NULL;

  if (stripped == NULL || *stripped == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Which program? Give its command, e.g. python3 vector_add.py."));
      return NULL;
    }
  if (!g_shell_parse_argv (line, NULL, &argv, &local))
    {
      /* Translators: the shell parser's own message follows. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The command cannot be split into words (%s): check its quotes."),
                   local->message);
      return NULL;
    }
  return g_steal_pointer (&argv);
}

char **
ws_trace_command_split_items (const char *text)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) words = g_strsplit_set (text != NULL ? text : "", " \t\n", -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] != '\0')
      g_strv_builder_add (builder, words[i]);
  return g_strv_builder_end (builder);
}

/* ---- words ------------------------------------------------------------------------------ */

char *
ws_trace_describe_params (const WsTraceProgram *p)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < p->n_params; i++)
    g_string_append_printf (s, "%s%s=%s", i ? ", " : "", p->params[i].name, p->params[i].value);
  return g_string_free (s, FALSE);
}

char *
ws_trace_describe_command (WsTrace *trace, const WsTraceProgram *p)
{
  GPtrArray *processes = ws_trace_get_processes (trace);

  if (p->argv != NULL && p->argv[0] != NULL)
    return g_strjoinv (" ", p->argv);
  for (guint i = 0; i < processes->len; i++)
    {
      const WsTraceProcess *process = g_ptr_array_index (processes, i);

      if (process->program == p->id && process->command != NULL)
        return g_strjoinv (" ", process->command);
    }
  return g_strdup (_("the program"));
}

static gboolean
is_source_name (const char *arg)
{
  static const char *const suffixes[] = { ".py", ".cu", ".cpp", ".cc", ".c" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (arg, suffixes[i]))
      return TRUE;
  return FALSE;
}

char *
ws_trace_find_program_file (WsTrace *trace, char **why)
{
  GPtrArray *programs = ws_trace_get_programs (trace);
  GPtrArray *processes = ws_trace_get_processes (trace);
  const WsTraceProgram *p = programs->len > 0 ? g_ptr_array_index (programs, 0) : NULL;
  char *const *argv = p != NULL ? p->argv : NULL;
  const char *cwd = p != NULL ? p->cwd : NULL;
  g_autofree char *command = NULL;

  *why = NULL;
  if (p == NULL)
    return NULL;
  for (guint i = 0; argv == NULL && i < processes->len; i++)
    {
      const WsTraceProcess *process = g_ptr_array_index (processes, i);

      if (process->program == p->id && process->command != NULL)
        argv = process->command, cwd = process->cwd;
    }
  for (guint i = 1; argv != NULL && argv[0] != NULL && argv[i] != NULL; i++)
    {
      g_autofree char *path = NULL;

      if (!is_source_name (argv[i]))
        continue;
      path = g_path_is_absolute (argv[i]) || cwd == NULL
               ? g_strdup (argv[i])
               : g_build_filename (cwd, argv[i], NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  command = ws_trace_describe_command (trace, p);
  if (cwd != NULL)
    /* Translators: the traced program's command ("python3 vector_add.py"), then its folder. */
    *why = g_strdup_printf (_("A traced program's source is its own: Warpscope recorded what ran "
                              "on the GPU, not the program's files. It ran “%s” in %s, and no "
                              "source file of that command is there on this computer."),
                            command, cwd);
  else
    *why = g_strdup_printf (_("A traced program's source is its own: Warpscope recorded what ran "
                              "on the GPU, not the program's files. It ran “%s”, and no source "
                              "file of that command is here on this computer."),
                            command);
  return NULL;
}

/* How a program run ended: the runner's word when it ran it, else its first process's. */
char *
ws_trace_describe_ending (WsTrace *trace, const WsTraceProgram *p,
                          char *(*format_duration) (double ns))
{
  const char *reason = p->end_reason, *signal_name = p->signal_name;
  int status = p->exit_status, signal = p->signal;
  g_autofree char *wall = NULL;
  gint64 start, end;
  char *ending;

  if (format_duration == NULL)
    format_duration = ws_units_duration;
  if (!p->ended)
    {
      GPtrArray *processes = ws_trace_get_processes (trace);

      for (guint i = 0; i < processes->len && reason == NULL; i++)
        {
          const WsTraceProcess *process = g_ptr_array_index (processes, i);

          if (process->program == p->id && process->ended)
            reason = process->end_reason, status = process->exit_status,
            signal = process->signal, signal_name = process->signal_name;
        }
      if (reason == NULL)
        return NULL;
    }
  if (p->wall_ns > 0)
    wall = format_duration ((double) p->wall_ns);
  else if (ws_trace_get_program_range (trace, p->id, &start, &end))
    wall = format_duration ((double) (end - start));
  if (g_str_equal (reason, "not_started"))
    return g_strdup (_("was not started"));
  if (g_str_equal (reason, "stopped"))
    ending = g_strdup (_("was stopped"));
  else if (g_str_equal (reason, "timeout"))
    ending = g_strdup (_("was stopped by --timeout"));
  else if (g_str_equal (reason, "signal") || signal != 0)
    /* Translators: the signal's name (SIGSEGV) or number. */
    ending = signal_name != NULL ? g_strdup_printf (_("was ended by %s"), signal_name)
                                 : g_strdup_printf (_("was ended by signal %d"), signal);
  else
    ending = g_strdup_printf (_("exited with status %d"), status);
  if (wall != NULL)
    {
      /* Translators: how the program ended ("exited with status 0"), then a duration. */
      char *with = g_strdup_printf (_("%s after %s"), ending, wall);

      g_free (ending);
      ending = with;
    }
  return ending;
}

char *
ws_trace_describe_error (const WsRunnerError *e)
{
  static const struct
  {
    WsErrorCode code;
    const char *words;
  } known[] = {
    { WS_ERROR_PROGRAM_NOT_FOUND, N_("The program was not found: check the command's first word, "
                              "or give its full path.") },
    { WS_ERROR_NO_CUDA_ACTIVITY, N_("No process of the program reported to the trace: it never "
                             "used CUDA with the trace loaded, or could not reach the trace, so "
                             "there is nothing to show.") },
    { WS_ERROR_CUPTI_IN_USE, N_("Another profiler (Nsight Systems or Nsight Compute) holds CUPTI, so "
                         "the program ran untraced: trace it outside that profiler.") },
    { WS_ERROR_NO_DRIVER, N_("No NVIDIA driver was found on this computer, so no CUDA program can run "
                      "here.") },
  };

  g_return_val_if_fail (e != NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (e->code == known[i].code)
      /* Translators: our sentence, then the runner's own (in English) in parentheses. */
      return e->message != NULL ? g_strdup_printf (_("%s (%s)"), _(known[i].words), e->message)
                                : g_strdup (_(known[i].words));
  return g_strdup (e->message != NULL ? e->message : e->code_name);
}

/* A warning (the copy ceilings could not be measured) is no failure of the program. */
static gboolean
is_error (const WsRunnerError *e)
{
  return e->severity == WS_ERROR_SEVERITY_ERROR;
}

char *
ws_trace_describe_session_error (WsSession *session)
{
  WsTrace *trace = ws_session_get_trace (session);
  GPtrArray *errors = ws_session_get_errors (session);
  GPtrArray *programs = trace != NULL ? ws_trace_get_programs (trace) : NULL;

  for (guint i = 0; programs != NULL && i < programs->len; i++)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, i);

      for (guint k = 0; p->errors != NULL && k < p->errors->len; k++)
        if (is_error (g_ptr_array_index (p->errors, k)))
          return ws_trace_describe_error (g_ptr_array_index (p->errors, k));
    }
  for (guint k = 0; k < errors->len; k++)
    if (is_error (g_ptr_array_index (errors, k)))
      return ws_trace_describe_error (g_ptr_array_index (errors, k));
  return NULL;
}

static void
describe_facts (GString *s, const WsSpan *span)
{
  switch ((WsActivityKind) span->kind)
    {
    case WS_ACTIVITY_KERNEL:
      {
        g_autofree char *grid = ws_trace_format_dims (span->grid);
        g_autofree char *block = ws_trace_format_dims (span->block);

        /* Translators: a kernel's grid and block ("39063", "16×16"), registers, stream. */
        g_string_append_printf (s, _("grid %s, block %s, %u registers, stream %u"), grid, block,
                                span->registers, span->stream);
      }
      break;
    case WS_ACTIVITY_MEMCPY:
    case WS_ACTIVITY_MEMSET:
      {
        g_autofree char *bytes = ws_units_bytes ((double) span->bytes);
        double seconds = (double) (span->end - span->start) / 1e9;
        WsTraceCopy copy = { .kind = span->kind, .direction = span->direction,
                             .host_memory = span->host_memory };
        g_autofree char *what = ws_trace_describe_copy (&copy);

        /* Translators: bytes ("40.0 MB"), the kind of copy, its rate in GB/s, its stream. */
        g_string_append_printf (s, _("%s, %s, %.2f GB/s, stream %u"), bytes, what,
                                seconds > 0 ? (double) span->bytes / seconds / 1e9 : 0.0,
                                span->stream);
      }
      break;
    case WS_ACTIVITY_API:
      if (span->flags & WS_SPAN_FAILED)
        /* Translators: a CUDA call's kind ("driver", "runtime") and its error number. */
        g_string_append_printf (s, _("%s call, failed with %d"), span->detail ? span->detail : "",
                                span->result);
      else
        g_string_append_printf (s, _("%s call"), span->detail ? span->detail : "");
      break;
    case WS_ACTIVITY_NVTX:
    case WS_ACTIVITY_SYNC:
    case WS_ACTIVITY_JIT:
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_OTHER:
    default:
      if (span->detail != NULL)
        g_string_append (s, span->detail);
      break;
    }
}

char *
ws_trace_describe_span (WsTrace *trace, const WsSpan *span)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *name = NULL, *duration = NULL, *start = NULL;
  const WsTraceProgram *p = ws_trace_get_program (trace, span->run);

  g_return_val_if_fail (span != NULL, NULL);
  name = span->kind == WS_ACTIVITY_KERNEL && span->name != NULL
             ? ws_trace_kernel_short_name (span->name)
             : g_strdup (span->name != NULL ? span->name
                         : span->kind == WS_ACTIVITY_MEMCPY ? _("copy")
                         : span->kind == WS_ACTIVITY_MEMSET ? _("memset")
                         : span->kind == WS_ACTIVITY_SYNC   ? _("synchronization")
                                                              : "");
  duration = ws_units_duration ((double) (span->end - span->start));
  start = ws_units_duration ((double) span->start);
  g_string_append_printf (s, "%s · %s\n", name, duration);
  describe_facts (s, span);
  if (p != NULL && p->of > 1)
    {
      g_autofree char *params = ws_trace_describe_params (p);

      /* Translators: the program run of a sweep ("run 2 of 6, TPB=64") */
      g_string_append_printf (s, _("\nrun %u of %u, %s"), p->id, p->of, params);
    }
  /* Translators: where the span starts, counted from the start of tracing. */
  g_string_append_printf (s, _("\nstarts %s after tracing began"), start);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
ws_trace_format_dims (const guint32 d[3])
{
  if (d[2] > 1)
    return g_strdup_printf ("%u×%u×%u", d[0], d[1], d[2]);
  if (d[1] > 1)
    return g_strdup_printf ("%u×%u", d[0], d[1]);
  return g_strdup_printf ("%u", d[0]);
}

char *
ws_trace_describe_copy (const WsTraceCopy *c)
{
  const char *direction;

  if (c->kind == WS_ACTIVITY_MEMSET)
    return g_strdup (_("memset"));
  switch (c->direction)
    {
    case WS_COPY_HTOD: direction = _("host to device"); break;
    case WS_COPY_DTOH: direction = _("device to host"); break;
    case WS_COPY_DTOD: direction = _("device to device"); break;
    case WS_COPY_HTOH: direction = _("host to host"); break;
    case WS_COPY_PTOP: direction = _("peer to peer"); break;
    case WS_COPY_NONE:
    case WS_COPY_OTHER:
    default: direction = _("other"); break;
    }
  if (c->host_memory == WS_HOST_MEMORY_PAGEABLE)
    /* Translators: a copy's direction ("host to device"), then its host memory. */
    return g_strdup_printf (_("%s, pageable"), direction);
  if (c->host_memory == WS_HOST_MEMORY_PINNED)
    return g_strdup_printf (_("%s, pinned"), direction);
  return g_strdup (direction);
}
