/* ws-hello.h: a session's hello record (docs/protocol.md, "hello"): which protocol, who wrote
 * it, when and where, with which driver, runtime and CUPTI; for a traced program, which
 * process. Read-only, shared by reference.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Strings are NULL when the record does not give them (or gives null); numbers 0. */
typedef struct
{
  int protocol;               /* 1: a runner session; 2: may hold traced programs */
  gboolean trace;             /* "source": "trace": a traced program's, not a runner's */
  const char *runner;         /* the runner's version; NULL in a traced program's hello */
  const char *inject;         /* the injection library's version, in a traced program's */
  const char *build;          /* the meson build type ("debug": kernels compiled with -G) */
  const char *gpu_archs;      /* "75,80,86,89,90,100,120" */
  const char *time;           /* ISO 8601 UTC: when it started */
  const char *host;
  gboolean driver_found;      /* the NVIDIA driver library was found */
  int driver_version;         /* 13000: the newest CUDA the driver supports; 0: none */
  const char *driver_cuda;    /* "13.0" */
  int runtime_version;
  const char *runtime_cuda;
  int cupti_version;          /* CUPTI's API version; 0 when not loaded or not needed */
  const char *const *argv;    /* the runner's arguments; empty, never NULL */
  /* Played back by warpscope-cli replay: the recording's name and the speed (0: at once). */
  gboolean replay;
  const char *replay_file;
  double replay_speed;

  /* A traced program (protocol 2). */
  gint64 pid, ppid;
  const char *program;
  const char *const *command; /* argv[0] included; empty, never NULL */
  const char *cwd;
  int cupti_built;
  const char *cuda_visible_devices;
  gint64 clock_origin_ns;
  gint64 monotonic_origin_ns;
  gint64 process_start;       /* ns since the origin, negative: before CUDA */
  const char *api;            /* "launch", "all" or "none" */
  gint64 buffer_bytes;
  int flush_ms;
} WsHello;

#define WS_TYPE_HELLO (ws_hello_get_type ())
GType ws_hello_get_type (void) G_GNUC_CONST;
WsHello *ws_hello_ref (WsHello *hello);
void ws_hello_unref (WsHello *hello);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsHello, ws_hello_unref)

/* "2026-11-29" from its time; NULL when it has none. */
char *ws_hello_dup_date (const WsHello *hello);

G_END_DECLS
