/* ws-protocol.c: the enumerations' names on the wire (ws-protocol.h), one table each.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-protocol.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_ELEMENTS(a) (sizeof (a) / sizeof *(a))

/* Indexed by the enumeration's value; NULL where a value has no name. */
static const char *const activity_kinds[] = {
  [WS_ACTIVITY_MEMCPY] = "memcpy",
  [WS_ACTIVITY_MEMSET] = "memset",
  [WS_ACTIVITY_KERNEL] = "kernel",
  [WS_ACTIVITY_SYNC] = "sync",
  [WS_ACTIVITY_OVERHEAD] = "overhead",
  [WS_ACTIVITY_CPU] = "cpu",
  [WS_ACTIVITY_API] = "api",
  [WS_ACTIVITY_NVTX] = "nvtx",
  [WS_ACTIVITY_JIT] = "jit",
  [WS_ACTIVITY_OTHER] = "other",
};

static const char *const phases[] = {
  [WS_PHASE_SEQUENCE] = "sequence",
  [WS_PHASE_KERNELS] = "kernels",
  [WS_PHASE_CPU] = "cpu",
  [WS_PHASE_FLUSH] = "flush",
  [WS_PHASE_OTHER] = "other",
};

static const char *const directions[] = {
  [WS_COPY_NONE] = NULL,
  [WS_COPY_HTOD] = "htod",
  [WS_COPY_DTOH] = "dtoh",
  [WS_COPY_DTOD] = "dtod",
  [WS_COPY_HTOH] = "htoh",
  [WS_COPY_PTOP] = "ptop",
  [WS_COPY_HTOA] = "htoa",
  [WS_COPY_ATOH] = "atoh",
  [WS_COPY_OTHER] = "other",
};

static const char *const host_memories[] = {
  [WS_HOST_MEMORY_NONE] = NULL,
  [WS_HOST_MEMORY_PAGEABLE] = "pageable",
  [WS_HOST_MEMORY_PINNED] = "pinned",
  [WS_HOST_MEMORY_DEVICE] = "device",
  [WS_HOST_MEMORY_ARRAY] = "array",
  [WS_HOST_MEMORY_MANAGED] = "managed",
  [WS_HOST_MEMORY_DEVICE_STATIC] = "device_static",
  [WS_HOST_MEMORY_MANAGED_STATIC] = "managed_static",
  [WS_HOST_MEMORY_OTHER] = "unknown",
};

static const char *const transfers[] = {
  [WS_TRANSFER_PAGEABLE] = "pageable",
  [WS_TRANSFER_PINNED] = "pinned",
  [WS_TRANSFER_STREAMS] = "streams",
  [WS_TRANSFER_OTHER] = "unknown",
};

static const char *const severities[] = {
  [WS_ERROR_SEVERITY_ERROR] = "error",
  [WS_ERROR_SEVERITY_WARNING] = "warning",
};

static const char *const error_codes[] = {
  [WS_ERROR_NONE] = NULL,
  [WS_ERROR_BAD_ARGUMENT] = "bad_argument",
  [WS_ERROR_UNKNOWN_KERNEL] = "unknown_kernel",
  [WS_ERROR_UNKNOWN_TRANSFER] = "unknown_transfer",
  [WS_ERROR_KERNEL_UNAVAILABLE] = "kernel_unavailable",
  [WS_ERROR_INVALID_SIZE] = "invalid_size",
  [WS_ERROR_SIZE_TOO_LARGE] = "size_too_large",
  [WS_ERROR_INVALID_BLOCK] = "invalid_block",
  [WS_ERROR_INVALID_REPS] = "invalid_reps",
  [WS_ERROR_INVALID_DEVICE] = "invalid_device",
  [WS_ERROR_NO_DRIVER] = "no_driver",
  [WS_ERROR_DRIVER_TOO_OLD] = "driver_too_old",
  [WS_ERROR_DRIVER_MISMATCH] = "driver_mismatch",
  [WS_ERROR_NO_DEVICE] = "no_device",
  [WS_ERROR_DEVICE_BUSY] = "device_busy",
  [WS_ERROR_NO_KERNEL_IMAGE] = "no_kernel_image",
  [WS_ERROR_CUPTI_UNAVAILABLE] = "cupti_unavailable",
  [WS_ERROR_CUPTI_IN_USE] = "cupti_in_use",
  [WS_ERROR_TRACE_INCOMPLETE] = "trace_incomplete",
  [WS_ERROR_HOST_OUT_OF_MEMORY] = "host_out_of_memory",
  [WS_ERROR_OUT_OF_MEMORY] = "out_of_memory",
  [WS_ERROR_SELF_TEST_FAILED] = "self_test_failed",
  [WS_ERROR_KERNEL_FAULT] = "kernel_fault",
  [WS_ERROR_CUDA_ERROR] = "cuda_error",
  [WS_ERROR_INTERNAL] = "internal",
  [WS_ERROR_RUNNER_FAILED] = "runner_failed",
  [WS_ERROR_BAD_SOURCE] = "bad_source",
  [WS_ERROR_HEADER_ERROR] = "header_error",
  [WS_ERROR_COMPILE_ERROR] = "compile_error",
  [WS_ERROR_COMPILE_WARNING] = "compile_warning",
  [WS_ERROR_RESTRICTED] = "restricted",
  [WS_ERROR_NVRTC_UNAVAILABLE] = "nvrtc_unavailable",
  [WS_ERROR_SANITIZER_UNAVAILABLE] = "sanitizer_unavailable",
  [WS_ERROR_SANITIZER_FAILED] = "sanitizer_failed",
  [WS_ERROR_INJECT_NOT_FOUND] = "inject_not_found",
  [WS_ERROR_PROGRAM_NOT_FOUND] = "program_not_found",
  [WS_ERROR_PROGRAM_NOT_EXECUTABLE] = "program_not_executable",
  [WS_ERROR_NO_CUDA_ACTIVITY] = "no_cuda_activity",
  [WS_ERROR_PROGRAM_TIMEOUT] = "program_timeout",
  [WS_ERROR_CEILINGS_UNAVAILABLE] = "ceilings_unavailable",
  [WS_ERROR_TRACE_UNREACHABLE] = "trace_unreachable",
  [WS_ERROR_COUNTERS_UNAVAILABLE] = "counters_unavailable",
  [WS_ERROR_UNKNOWN] = "unknown",
};

static const char *
name_of (const char *const *names, size_t n, int value)
{
  return value >= 0 && (size_t) value < n ? names[value] : NULL;
}

/* The value named `s`; `absent` for NULL, `unknown` for a name not in the table. */
static int
value_of (const char *const *names, size_t n, const char *s, int absent, int unknown)
{
  if (s == NULL)
    return absent;
  for (size_t i = 0; i < n; i++)
    if (names[i] != NULL && strcmp (names[i], s) == 0)
      return (int) i;
  return unknown;
}

const char *
ws_activity_kind_to_string (WsActivityKind kind)
{
  const char *name = name_of (activity_kinds, N_ELEMENTS (activity_kinds), (int) kind);

  return name ? name : activity_kinds[WS_ACTIVITY_OTHER];
}

WsActivityKind
ws_activity_kind_from_string (const char *s)
{
  return (WsActivityKind) value_of (activity_kinds, N_ELEMENTS (activity_kinds), s,
                                    WS_ACTIVITY_OTHER, WS_ACTIVITY_OTHER);
}

const char *
ws_activity_phase_to_string (WsActivityPhase phase)
{
  const char *name = name_of (phases, N_ELEMENTS (phases), (int) phase);

  return name ? name : phases[WS_PHASE_OTHER];
}

WsActivityPhase
ws_activity_phase_from_string (const char *s)
{
  return (WsActivityPhase) value_of (phases, N_ELEMENTS (phases), s, WS_PHASE_OTHER,
                                     WS_PHASE_OTHER);
}

const char *
ws_copy_direction_to_string (WsCopyDirection direction)
{
  return name_of (directions, N_ELEMENTS (directions), (int) direction);
}

WsCopyDirection
ws_copy_direction_from_string (const char *s)
{
  return (WsCopyDirection) value_of (directions, N_ELEMENTS (directions), s, WS_COPY_NONE,
                                     WS_COPY_OTHER);
}

const char *
ws_host_memory_to_string (WsHostMemory memory)
{
  return name_of (host_memories, N_ELEMENTS (host_memories), (int) memory);
}

WsHostMemory
ws_host_memory_from_string (const char *s)
{
  return (WsHostMemory) value_of (host_memories, N_ELEMENTS (host_memories), s,
                                  WS_HOST_MEMORY_NONE, WS_HOST_MEMORY_OTHER);
}

const char *
ws_transfer_to_string (WsTransfer transfer)
{
  const char *name = name_of (transfers, N_ELEMENTS (transfers), (int) transfer);

  return name ? name : transfers[WS_TRANSFER_OTHER];
}

WsTransfer
ws_transfer_from_string (const char *s)
{
  const char *streams = transfers[WS_TRANSFER_STREAMS];
  size_t len = strlen (streams);

  /* The one name with a suffix: "streams:4". */
  if (s != NULL && strncmp (s, streams, len) == 0 && s[len] == ':' && s[len + 1] != '\0'
      && strspn (s + len + 1, "0123456789") == strlen (s + len + 1))
    return WS_TRANSFER_STREAMS;
  return (WsTransfer) value_of (transfers, N_ELEMENTS (transfers), s, WS_TRANSFER_PAGEABLE,
                                WS_TRANSFER_OTHER);
}

const char *
ws_error_severity_to_string (WsErrorSeverity severity)
{
  const char *name = name_of (severities, N_ELEMENTS (severities), (int) severity);

  return name ? name : severities[WS_ERROR_SEVERITY_ERROR];
}

WsErrorSeverity
ws_error_severity_from_string (const char *s)
{
  return (WsErrorSeverity) value_of (severities, N_ELEMENTS (severities), s,
                                     WS_ERROR_SEVERITY_ERROR, WS_ERROR_SEVERITY_ERROR);
}

const char *
ws_error_code_to_string (WsErrorCode code)
{
  return name_of (error_codes, N_ELEMENTS (error_codes), (int) code);
}

WsErrorCode
ws_error_code_from_string (const char *s)
{
  return (WsErrorCode) value_of (error_codes, N_ELEMENTS (error_codes), s, WS_ERROR_NONE,
                                 WS_ERROR_UNKNOWN);
}

/* snprintf and strtod both follow the locale's decimal point, so a number written and read
 * back agree in any locale; what is written is then given the protocol's '.'. */
static void
decimal_point_to_dot (char *buf)
{
  const char *point = localeconv ()->decimal_point;
  size_t n = point != NULL ? strlen (point) : 0;
  char *at;

  if (n == 0 || strcmp (point, ".") == 0 || (at = strstr (buf, point)) == NULL)
    return;
  *at = '.';
  memmove (at + 1, at + n, strlen (at + n) + 1);
}

char *
ws_protocol_double_text (char buf[WS_PROTOCOL_DOUBLE_LEN], double value)
{
  /* 15 significant digits always read back as the same decimal, so for a normal double the
   * first of 15, 16 and 17 that reads back is the shortest; a subnormal one has fewer digits
   * of precision and is tried from 1. */
  int digits = value != 0 && fabs (value) < DBL_MIN ? 1 : 15;

  if (value == 0 && signbit (value))
    {
      strcpy (buf, "-0.0");
      return buf;
    }
  for (; digits <= 17; digits++)
    {
      snprintf (buf, WS_PROTOCOL_DOUBLE_LEN, "%.*g", digits, value);
      if (strtod (buf, NULL) == value)
        break;
    }
  decimal_point_to_dot (buf);
  return buf;
}
