/* ws-target.h: where the runner runs: this computer, a GPU server over ssh, or a Slurm cluster
 * (an interactive srun job step, or a batch job through sbatch --wait). A target turns the
 * runner's arguments into the argv to spawn here, checks the far side's runner against its
 * hello, and puts what ssh and Slurm say when they fail into plain words.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-hello.h"

G_BEGIN_DECLS

/* The oldest runner this Warpscope drives. A runner reports its version in its hello. */
#define WS_RUNNER_MIN_VERSION "0.1.0"

/* The name of the target that is always there: the runner on this computer. */
#define WS_TARGET_LOCAL_NAME "local"

typedef enum
{
  WS_TARGET_LOCAL,        /* the runner here, started directly */
  WS_TARGET_SSH,          /* ssh HOST -- RUNNER ARGS (arguments quoted for the far shell) */
  WS_TARGET_SLURM_SRUN,   /* srun OPTIONS RUNNER ARGS: one job step, records as they come */
  WS_TARGET_SLURM_SBATCH, /* sbatch --wait OPTIONS: a batch job whose output file is followed */
  WS_TARGET_COMMAND,      /* a launcher prefix typed by hand (env, nice, a wrapper) */
} WsTargetKind;

GType ws_target_kind_get_type (void);
#define WS_TYPE_TARGET_KIND (ws_target_kind_get_type ())

/* "local", "ssh", "srun", "sbatch", "command": the key file's and the CLI's words. */
const char *ws_target_kind_to_string (WsTargetKind kind);
gboolean ws_target_kind_from_string (const char *text, WsTargetKind *kind);

#define WS_TARGET_ERROR (ws_target_error_quark ())
GQuark ws_target_error_quark (void);

typedef enum
{
  WS_TARGET_ERROR_INVALID,       /* a target that cannot work as written (no host, bad name) */
  WS_TARGET_ERROR_UNREACHABLE,   /* the host cannot be found or reached, or refused us */
  WS_TARGET_ERROR_REFUSED,       /* the login or the job was refused (keys, partition) */
  WS_TARGET_ERROR_NO_RUNNER,     /* no runner (or no srun) at the given path there */
  WS_TARGET_ERROR_RUNNER_VERSION, /* the runner there is too old or too new */
  WS_TARGET_ERROR_PENDING,       /* a Slurm job waited longer than the target allows */
  WS_TARGET_ERROR_NOT_FOUND,     /* no saved target of that name */
  WS_TARGET_ERROR_EXISTS,        /* a target of that name is already saved */
} WsTargetError;

#define WS_TYPE_TARGET (ws_target_get_type ())
G_DECLARE_FINAL_TYPE (WsTarget, ws_target, WS, TARGET, GObject)

/* Properties (all readable and writable, "notify" on change):
 *   name             what people call it; letters, digits, '.', '_', '-'; "local" is taken
 *   kind             WsTargetKind
 *   host             ssh: the host as ssh takes it (an alias of ~/.ssh/config, user@host);
 *                    Slurm: the login node to reach by ssh, or NULL when srun/sbatch run here
 *   port             ssh's port; 0: ssh's own default
 *   ssh-options      more words for ssh (-i KEY, -J JUMP, -o NAME=VALUE)
 *   slurm-options    srun's or sbatch's options (-p gpu --gres=gpu:1 --time=1:00:00)
 *   launcher         WS_TARGET_COMMAND: the prefix, one word per element
 *   remote-shell     WS_TARGET_COMMAND: it hands a command line to a remote shell, as ssh does
 *   runner           the runner's path there; NULL: the built or installed one here, or
 *                    "warpscope-runner" from the PATH of the far side
 *   environment      NAME=VALUE pairs set for the runner there
 *   pending-timeout  seconds a Slurm job may wait for resources before it is given up
 *                    (default 120; 0: wait as long as it takes)
 *   job-dir          sbatch: the folder, on a file system the nodes share, where a job's
 *                    output is written while it runs; NULL: ~/.cache/warpscope/jobs there
 *   description      (read only) the command it stands for, for people: "ssh gpu-box" */
WsTarget *ws_target_new (const char *name, WsTargetKind kind);
/* The runner on this computer, named WS_TARGET_LOCAL_NAME. */
WsTarget *ws_target_new_local (void);

const char *ws_target_get_name (WsTarget *self);
WsTargetKind ws_target_get_kind (WsTarget *self);
const char *ws_target_get_host (WsTarget *self);
void ws_target_set_host (WsTarget *self, const char *host);
guint ws_target_get_port (WsTarget *self);
void ws_target_set_port (WsTarget *self, guint port);
const char *const *ws_target_get_ssh_options (WsTarget *self);
void ws_target_set_ssh_options (WsTarget *self, const char *const *options);
const char *const *ws_target_get_slurm_options (WsTarget *self);
void ws_target_set_slurm_options (WsTarget *self, const char *const *options);
const char *const *ws_target_get_launcher (WsTarget *self);
void ws_target_set_launcher (WsTarget *self, const char *const *launcher);
gboolean ws_target_get_remote_shell (WsTarget *self);
void ws_target_set_remote_shell (WsTarget *self, gboolean remote_shell);
const char *ws_target_get_runner (WsTarget *self);
void ws_target_set_runner (WsTarget *self, const char *runner);
const char *const *ws_target_get_environment (WsTarget *self);
void ws_target_set_environment (WsTarget *self, const char *const *environment);
guint ws_target_get_pending_timeout (WsTarget *self);
void ws_target_set_pending_timeout (WsTarget *self, guint seconds);
const char *ws_target_get_job_dir (WsTarget *self);
void ws_target_set_job_dir (WsTarget *self, const char *dir);
char *ws_target_dup_description (WsTarget *self);

/* Where the runner runs, for messages: the host, "the Slurm cluster", "this computer". */
char *ws_target_dup_place (WsTarget *self);
/* Whether the runner runs on another machine, where this one's files are not. */
gboolean ws_target_is_remote (WsTarget *self);
/* Whether each runner of a split gets a GPU of its own from Slurm, as device 0. */
gboolean ws_target_is_slurm (WsTarget *self);

/* Fails, saying what to change, when the target cannot work as it is: an ssh target without
 * a host, a name that is not a plain word, environment entries that are not NAME=VALUE. */
gboolean ws_target_validate (WsTarget *self, GError **error);

/* ---- spawning (ws-target-argv.c) ---- */

/* The argv to spawn here (no shell here) so that the runner starts on the target with `args`
 * after its path, each arriving exactly as given: quoted for the far side's shell where ssh
 * joins them into a command line; through ssh, the runner is stopped when the connection
 * ends (the client keeps the runner's stdin open: see ws_runner_client_set_keep_stdin). */
char **ws_target_build_argv (WsTarget *self, const char *const *args, GError **error);
/* The argv that asks Slurm why job `job_id` is still pending: squeue -h -j ID -o %r, here or
 * on the login node. NULL for targets that are not Slurm's. */
char **ws_target_build_squeue_argv (WsTarget *self, const char *job_id);
/* Whether the runner's stdin must stay open while it runs (ssh: its end stops the runner). */
gboolean ws_target_needs_stdin (WsTarget *self);

/* ---- what comes back (ws-target-messages.c) ---- */

/* Fails when the runner that answered with `hello` cannot be driven by this Warpscope: a
 * newer protocol, a version older than WS_RUNNER_MIN_VERSION ("warpscope-runner 0.0.9 on
 * gpu-box speaks protocol 1; this Warpscope needs warpscope-runner 0.1.0 or newer …"). A
 * version that is not numbers (a development build, a stand-in) is accepted. */
gboolean ws_target_check_hello (WsTarget *self, const WsHello *hello, GError **error);
/* What ssh, srun or sbatch said on `stderr_text` when the runner exited with `status`
 * before it finished, as a sentence saying what happened and what to change, with the
 * launcher's own words quoted; NULL when nothing in it is recognised. */
GError *ws_target_explain_failure (WsTarget *self, int status, const char *stderr_text);
/* The job id in a line of Slurm's stderr that says the job waits for resources
 * ("srun: job 12 queued and waiting for resources"), or NULL. */
char *ws_target_parse_pending (const char *line);
/* Whether a line says a pending job got its resources. */
gboolean ws_target_parse_allocated (const char *line);
/* The message for a job given up after `seconds` pending, with squeue's reason. */
GError *ws_target_pending_error (WsTarget *self, const char *job_id, guint seconds,
                                 const char *reason);

/* ---- saved (ws-target-list.c writes them) ---- */

/* From the group `group` (the target's name) of a key file; fails naming the key at fault. */
WsTarget *ws_target_new_from_key_file (GKeyFile *key_file, const char *group, GError **error);
void ws_target_save_to_key_file (WsTarget *self, GKeyFile *key_file);

G_END_DECLS
