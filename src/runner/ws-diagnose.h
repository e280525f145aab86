/* ws-diagnose.h: what is wrong with the CUDA set-up, in words a person can act on.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "ws-protocol.h"

typedef struct
{
  int libcuda_found;  /* the driver library could be loaded */
  int driver_version; /* what the driver supports, e.g. 13000 for CUDA 13.0; 0 if unknown */
  int runtime_version;
  char libcuda_name[256];
} WsDriverInfo;

/* Looks for the driver library itself (dlopen), so that a missing driver is named as such
 * instead of as the runtime's "driver version is insufficient". WARPSCOPE_LIBCUDA overrides
 * the library name (the tests use it to stand for a machine without a driver). */
void ws_driver_probe (WsDriverInfo *info);

/* WS_ERROR_NONE when the driver can run this runtime; else a stable code and a message. */
WsErrorCode ws_driver_problem (const WsDriverInfo *info, char *message, size_t len);

/* A stable code and a message for a CUDA error met while finding or opening a device. */
WsErrorCode ws_device_problem (cudaError_t error, const WsDriverInfo *info, char *message,
                               size_t len);

/* Errors after which the CUDA context is unusable (a kernel fault): the runner must stop. */
int ws_cuda_error_is_sticky (cudaError_t error);

/* "13.0" from 13000. */
void ws_cuda_version_string (int version, char *buf, size_t len);
