/* test-servers.h: what the tests against real servers share (header only: each test is one
 * program): the servers' folder that tests/servers/with-servers.sh makes and names in
 * WS_SERVER_DIR, warpscope-cli run there with the targets saved in it, and the runner that
 * stands in on the far side.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "test-cli.h"

static const char *dir;   /* the servers' folder, ours to write in */
static char *targets_env; /* WARPSCOPE_TARGETS=… */

/* FALSE, said in TAP, when this program is not run by `with-servers.sh KIND`, which sets
 * `variable` (the program then exits 77, skipped). */
static inline gboolean
servers_ready (const char *kind, const char *variable)
{
  dir = g_getenv ("WS_SERVER_DIR");
  if (dir == NULL || g_getenv (variable) == NULL)
    {
      g_print ("1..0 # SKIP run through tests/servers/with-servers.sh %s\n", kind);
      return FALSE;
    }
  targets_env = g_strdup_printf ("WARPSCOPE_TARGETS=%s/targets.conf", dir);
  return TRUE;
}

/* warpscope-cli with `args`, in the servers' folder, with the targets saved there. */
static inline void
cli (Result *r, const char *const *args)
{
  const char *env[] = { targets_env, NULL };

  run_cli_full (r, args, env, dir);
}

/* The runner on the far side, `name` in the servers' folder: its arguments to PREFIX-args, its
 * pid to PREFIX-pid, then a replay of `sample` at `speed`. */
static inline char *
replay_runner (const char *name, const char *prefix, const char *sample, double speed)
{
  g_autofree char *cli_exe = cli_path ();
  g_autofree char *recording = sample_path (sample);
  g_autofree char *body = g_strdup_printf ("printf '%%s\\n' \"$@\" > '%s/%s-args'\n"
                                           "echo $$ > '%s/%s-pid'\n"
                                           "exec '%s' replay --speed %g '%s'\n",
                                           dir, prefix, dir, prefix, cli_exe, speed, recording);

  return write_script (dir, name, body);
}
