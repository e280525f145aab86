/* inject-fake-cuda.c: a stand-in for the driver's device queries (libcuda), for
 * tests/test-inject-trace.c: one device, "Fake GPU", with an H200's limits.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cuda.h>
#include <string.h>

#define EXPORT __attribute__ ((visibility ("default")))

EXPORT CUresult
cuDriverGetVersion (int *v)
{
  *v = 13000;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceGet (CUdevice *dev, int ordinal)
{
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *dev = 0;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceGetAttribute (int *v, CUdevice_attribute a, CUdevice dev)
{
  (void) dev;
  switch (a)
    {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = 233472; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = 1980000; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 2619000; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 5120; break;
    default: *v = 1; break;
    }
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceGetName (char *name, int len, CUdevice dev)
{
  (void) dev;
  strncpy (name, "Fake GPU", (size_t) len);
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceTotalMem_v2 (size_t *bytes, CUdevice dev)
{
  (void) dev;
  *bytes = (size_t) 150 << 30;
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceGetUuid_v2 (CUuuid *uuid, CUdevice dev)
{
  (void) dev;
  memset (uuid->bytes, 0xab, sizeof uuid->bytes);
  return CUDA_SUCCESS;
}

EXPORT CUresult
cuDeviceGetPCIBusId (char *bus, int len, CUdevice dev)
{
  (void) dev;
  strncpy (bus, "0000:00:01.0", (size_t) len);
  return CUDA_SUCCESS;
}
