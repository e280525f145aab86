/* ws-inject-private.h: what the parts of libwarpscope-inject share. The library is loaded by
 * the CUDA driver into an unmodified program (CUDA_INJECTION64_PATH), records what CUPTI sees
 * and writes the protocol's records (docs/protocol.md, "Traced programs") to the file or
 * descriptor named in the environment. Plain C11 + CUPTI, no GLib, nothing exported but the
 * two entry points (ws-inject.map).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cupti.h>

#include "ws-cupti-api.h"
#include "ws-json.h"
#include "ws-protocol.h"

#define WS_EXPORT __attribute__ ((visibility ("default")))

/* ---- CUPTI: loaded by ws-cupti-api.c (ws_cupti_api), driven by ws-inject-cupti.c ---------- */

/* Loads libcupti once (thread-safe); 1 when every function the library needs was found. On
 * failure `message` says why, for people. */
int _ws_cupti_load (char *message, size_t len);
/* Registers the buffers, subscribes to resource callbacks, enables the activity kinds and
 * the API calls asked for. 0 with a stable code and a message when tracing cannot start. */
int _ws_cupti_start (WsErrorCode *code, char *message, size_t len);
/* Asks CUPTI for its buffers: forced (also buffers with records still incomplete, at the
 * end) or not (the periodic flush). The buffers reach the queue before this returns. */
void _ws_cupti_flush (int forced);
/* The activity kinds that could be enabled, for the hello record ("kernel,memcpy,…"). */
const char *_ws_cupti_kinds_enabled (void);

/* ---- names: interning and demangling (ws-inject-names.c) ---------------------------------- */

/* A stable copy of `s`, the same pointer for equal strings, never freed. NULL for NULL or
 * when out of memory. Called on CUPTI's threads. */
const char *_ws_name_intern (const char *s);
/* For a string from _ws_name_intern: its demangled form, or NULL when it is not a mangled
 * C++ name or demangling failed. Writer only (caches the result). */
const char *_ws_name_demangled (const char *interned);
/* Finds the demangler now (it may load libstdc++), not at the end of a trace. */
void _ws_names_init (void);

/* ---- fast members for the records written most (ws-inject-json.c) ------------------------ */

/* As ws_json_int, ws_json_uint and ws_json_string, writing the same text several times
 * faster; `key` must be plain ASCII (the protocol's WS_KEY_*). */
void _ws_jint (WsJson *json, const char *key, int64_t value);
void _ws_juint (WsJson *json, const char *key, uint64_t value);
void _ws_jstring (WsJson *json, const char *key, const char *value);
/* "t": as ws_json_double writes round(us) / 1e3, for us below 10¹⁵. */
void _ws_jmillis (WsJson *json, const char *key, uint64_t us);

/* ---- the queue and the writer (ws-inject-output.c) ---------------------------------------- */

typedef enum
{
  WS_ITEM_BUFFER,  /* a CUPTI activity buffer, whose names were interned */
  WS_ITEM_CONTEXT, /* a context was created or is being destroyed */
  WS_ITEM_MODULE,  /* a module was loaded or is being unloaded */
} WsItemKind;

typedef struct WsItem WsItem;
struct WsItem
{
  WsItem *next;
  WsItemKind kind;
  uint8_t *buffer;    /* from _ws_buffer_new, of `size` bytes */
  size_t size;
  size_t valid;
  uint64_t at;        /* CUPTI timestamp of a context or module event */
  uint32_t context;
  uint32_t device;
  uint32_t module;
  uint64_t cubin_bytes;
  int ending;         /* destroyed / unloaded */
};

/* CUPTI's activity buffers: mapped pages, zero until CUPTI writes records into them, so that
 * neither we nor CUPTI clear them on the program's threads and a large buffer costs only the
 * pages its records fill. */
uint8_t *_ws_buffer_new (size_t size);
void _ws_buffer_free (uint8_t *buffer, size_t size);
/* Frees an item and its buffer. */
void _ws_item_free (WsItem *item);

/* Takes ownership; wakes the writer. Drops (and counts) the item once the trace is closed. */
void _ws_queue_push (WsItem *item);

typedef enum
{
  WS_DESTINATION_FILE,   /* WARPSCOPE_TRACE_FILE */
  WS_DESTINATION_SOCKET, /* WARPSCOPE_TRACE_SOCKET: a connection of this process's own */
  WS_DESTINATION_PIPE,   /* WARPSCOPE_TRACE_FD: inherited, shared with other processes */
} WsDestination;

/* Where the trace goes (ws-inject-open.c): a descriptor of the library's own, or -1 with
 * `message` saying why, for people. `note` is filled (else empty) when the socket named could
 * not be reached and the inherited descriptor is written instead, for the trace to say so. */
int _ws_destination_open (WsDestination *kind, char *message, size_t len, char *note,
                          size_t note_len);
/* Opens the output _ws_destination_open finds; 0 with a message. */
int _ws_output_open (char *message, size_t len, char *note, size_t note_len);
/* write(), or send() without SIGPIPE to the socket (async-signal-safe). */
ssize_t _ws_output_write (int fd, const void *data, size_t n);
void _ws_output_lock (void);
void _ws_output_unlock (void);
/* Begins a record with its type, "t" and "pid". */
void _ws_output_begin (WsJson *json, const char *type);
/* Appends the finished record (the caller holds the output lock). */
void _ws_output_emit (WsJson *json);
/* Writes what was appended, in whole lines (the caller holds the output lock). */
void _ws_output_flush_locked (void);

void _ws_output_hello (void);
void _ws_output_error (WsErrorSeverity severity, WsErrorCode code, const char *message);
int _ws_writer_start (void);

/* For the end of the trace: waits with a time limit, so that a stuck thread cannot hang the
 * program's exit. */
int _ws_output_lock_within (int ms);
WsItem *_ws_queue_take_within (int ms);
void _ws_output_process (WsItem *items);
int _ws_output_usable (void); /* opened, and not a forked child's inherited copy */
int _ws_output_fd (void);
int _ws_output_seal (void);
void _ws_writer_quit (void);
int _ws_writer_stop_within (int ms);

/* Closing the trace (ws-inject-close.c): at exit with the program's status, or on a fatal
 * signal; the closing record alone, with one write(), when nothing else can run. */
void _ws_finish_exit (int status);
void _ws_finish_signal (int sig);
void _ws_finish_signal_raw (int sig);
/* After fork() in the child: the records in memory are the parent's; write nothing. */
void _ws_output_forked_child (void);
void _ws_output_atfork_prepare (void);
void _ws_output_atfork_parent (void);

/* ---- records (ws-inject-records.c) -------------------------------------------------------- */

/* Writes the records of one CUPTI buffer (the caller holds the output lock). */
void _ws_records_buffer (uint8_t *buffer, size_t valid);
/* Keeps the name of an API call (at the start, for every call CUPTI names). */
void _ws_records_api_name (CUpti_CallbackDomain domain, uint32_t cbid, const char *name);
/* Writes the NVTX ranges still open at the end. */
void _ws_records_open_ranges (void);
/* ns since the trace's origin; `ts` is a CUPTI timestamp. */
void _ws_json_time (WsJson *json, const char *key, uint64_t ts);

/* ---- devices (ws-inject-device.c) --------------------------------------------------------- */

/* The NVIDIA driver's CUDA version (13000), 0 when unknown. */
int _ws_driver_version (void);
/* Writes the device record of a device the first time one of its contexts appears. */
void _ws_device_record (uint32_t device);

/* ---- fatal signals (ws-inject-signals.c) -------------------------------------------------- */

void _ws_signals_install (void);

/* ---- self-timing (ws-inject-timing.c), WARPSCOPE_INJECT_TIMING=1 ------------------------- */

typedef enum
{
  WS_TIME_INIT,          /* InitializeInjection, all of it */
  WS_TIME_LOAD,          /* dlopen libcupti and find its functions */
  WS_TIME_SUBSCRIBE,     /* register the buffers, subscribe, enable the resource domain */
  WS_TIME_KINDS,         /* enable the activity kinds */
  WS_TIME_API,           /* name the API calls and enable the ones asked for */
  WS_TIME_REQUEST,       /* buffer-requested callbacks (on the program's threads) */
  WS_TIME_COMPLETE,      /* buffer-completed callbacks */
  WS_TIME_RESOURCE,      /* resource callbacks (contexts, modules) */
  WS_TIME_PROCESS,       /* queued items turned into records (the writer, or at exit) */
  WS_TIME_WRITE,         /* write() of finished lines */
  WS_TIME_EXIT,          /* the exit handler, all of it */
  WS_TIME_EXIT_WRITER,   /* stopping the writer thread */
  WS_TIME_EXIT_FLUSH,    /* CUPTI's forced flush at exit */
  WS_TIME_EXIT_WRITE,    /* what was left, processed and written, and trace_end */
  WS_TIME_COUNT
} WsTimer;

extern int _ws_timing; /* WARPSCOPE_INJECT_TIMING=1, read once at start */

/* 0 when timing is off, else CLOCK_MONOTONIC in ns. */
uint64_t _ws_timing_now (void);
/* Adds the time since `since` (from _ws_timing_now) to `timer`, and one call. */
void _ws_timing_add (WsTimer timer, uint64_t since);
/* One line on stderr: "warpscope-inject timing: pid=… init_ns=… init_n=… …". */
void _ws_timing_report (void);

/* ---- state shared by the parts ------------------------------------------------------------ */

typedef struct
{
  pid_t pid;
  uint64_t origin;           /* CUPTI timestamp when the trace started: start/end are from it */
  uint64_t origin_monotonic; /* CLOCK_MONOTONIC then, to align several processes */
  uint64_t start_ns;         /* CLOCK_MONOTONIC then, for "t" */
  int api_mode;              /* WS_API_* */
  int flush_ms;              /* periodic flush; 0: only at the end */
  size_t buffer_bytes;       /* each CUPTI activity buffer */
  atomic_int tracing;        /* CUPTI delivers records */
  atomic_int inherited;      /* a forked child of a traced process: silent */
  atomic_int closed;         /* trace_end written (or being written) */
  atomic_uint_fast64_t dropped;    /* records CUPTI could not store */
  atomic_uint_fast64_t lost;       /* records Warpscope could not keep (no memory, output) */
  atomic_uint_fast64_t written;    /* records written */
  atomic_uint_fast64_t api_errors; /* API calls that returned an error */
  atomic_int writer_tid;     /* the writer thread's id: its own CUDA calls are not the program's */
} WsInjectState;

enum
{
  WS_API_NONE,
  WS_API_LAUNCH, /* launches, copies, memsets, synchronization, modules, allocations */
  WS_API_ALL,
};

extern WsInjectState _ws_state;
