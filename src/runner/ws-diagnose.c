/* ws-diagnose.c: driver detection and the messages for set-up problems.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-diagnose.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
ws_cuda_version_string (int version, char *buf, size_t len)
{
  snprintf (buf, len, "%d.%d", version / 1000, (version % 1000) / 10);
}

void
ws_driver_probe (WsDriverInfo *info)
{
  const char *name = getenv ("WARPSCOPE_LIBCUDA");
  void *lib;

  memset (info, 0, sizeof *info);
  cudaRuntimeGetVersion (&info->runtime_version);
  snprintf (info->libcuda_name, sizeof info->libcuda_name, "%s",
            name && *name ? name : "libcuda.so.1");
  lib = dlopen (info->libcuda_name, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    return;
  info->libcuda_found = 1;
  {
    /* cuDriverGetVersion needs no cuInit and touches no GPU. */
    int (*get_version) (int *) = (int (*) (int *)) dlsym (lib, "cuDriverGetVersion");

    if (get_version == NULL || get_version (&info->driver_version) != 0)
      info->driver_version = 0;
  }
  /* Left loaded: the CUDA runtime opens the same library next. */
}

/* The oldest Linux driver branch for each CUDA major version. */
static int
minimum_driver_branch (int runtime_version)
{
  switch (runtime_version / 1000)
    {
    case 11: return 450;
    case 12: return 525;
    case 13: return 580;
    default: return 0;
    }
}

WsErrorCode
ws_driver_problem (const WsDriverInfo *info, char *message, size_t len)
{
  char driver[16], runtime[16];

  if (!info->libcuda_found)
    {
      snprintf (message, len,
                "No NVIDIA driver is installed here (%s was not found), so no kernel can run on "
                "this computer. On a machine with an NVIDIA GPU, install the NVIDIA driver "
                "(Debian: apt install nvidia-driver; Ubuntu: sudo ubuntu-drivers install) and "
                "restart. Without a GPU, open one of the recordings that come with Warpscope: "
                "they were measured on real GPUs.",
                info->libcuda_name);
      return WS_ERROR_NO_DRIVER;
    }
  ws_cuda_version_string (info->driver_version, driver, sizeof driver);
  ws_cuda_version_string (info->runtime_version, runtime, sizeof runtime);
  if (info->driver_version / 1000 < info->runtime_version / 1000)
    {
      int branch = minimum_driver_branch (info->runtime_version);

      snprintf (message, len,
                "The NVIDIA driver here supports CUDA up to %s, but Warpscope was built with "
                "CUDA %s. Update the NVIDIA driver%s%.0d%s, or rebuild Warpscope with a CUDA "
                "toolkit no newer than %s.",
                driver, runtime, branch ? " to version " : "", branch,
                branch ? " or newer" : "", driver);
      return WS_ERROR_DRIVER_TOO_OLD;
    }
  return WS_ERROR_NONE;
}

WsErrorCode
ws_device_problem (cudaError_t error, const WsDriverInfo *info, char *message, size_t len)
{
  switch (error)
    {
    case cudaErrorInsufficientDriver:
      {
        WsErrorCode code = ws_driver_problem (info, message, len);

        if (code != WS_ERROR_NONE)
          return code;
        snprintf (message, len,
                  "The NVIDIA driver is too old for the CUDA runtime Warpscope was built with; "
                  "update the driver.");
        return WS_ERROR_DRIVER_TOO_OLD;
      }
    case cudaErrorNoDevice:
      snprintf (message, len,
                "The NVIDIA driver is installed but sees no GPU. Check that nvidia-smi lists "
                "one; in a container, give it the GPU (docker run --gpus all); check that "
                "CUDA_VISIBLE_DEVICES does not hide every device.");
      return WS_ERROR_NO_DEVICE;
    case cudaErrorDevicesUnavailable:
      snprintf (message, len,
                "Every GPU is busy: it is in exclusive-process mode and another program holds "
                "it. Close that program, or ask the administrator to set the compute mode to "
                "Default (nvidia-smi -c DEFAULT).");
      return WS_ERROR_DEVICE_BUSY;
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
      snprintf (message, len,
                "The NVIDIA kernel module and the user-space driver library are different "
                "versions (often after a driver update without a restart). Restart the "
                "computer, or reinstall the driver. (%s)",
                cudaGetErrorString (error));
      return WS_ERROR_DRIVER_MISMATCH;
    case cudaErrorInvalidDevice:
      snprintf (message, len, "There is no GPU with that index: see --device-info for the list.");
      return WS_ERROR_INVALID_DEVICE;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      snprintf (message, len,
                "This build of Warpscope has no machine code for this GPU. Rebuild it with the "
                "GPU's architecture in -Dgpu_archs.");
      return WS_ERROR_NO_KERNEL_IMAGE;
    case cudaErrorMemoryAllocation:
      snprintf (message, len,
                "The GPU ran out of memory: close other programs that use it (see nvidia-smi) "
                "or choose a smaller size.");
      return WS_ERROR_OUT_OF_MEMORY;
    default:
      snprintf (message, len, "CUDA reported %s: %s.", cudaGetErrorName (error),
                cudaGetErrorString (error));
      return WS_ERROR_CUDA_ERROR;
    }
}

int
ws_cuda_error_is_sticky (cudaError_t error)
{
  switch (error)
    {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
      return 1;
    default:
      return 0;
    }
}
