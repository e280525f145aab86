/* ws-inject-device.c: the device record of a traced program's GPU, from the driver that
 * loaded the library (its functions found with dlsym, so that the library links nothing of
 * CUDA's and loads into a process where the driver is missing without failing). The fields
 * are the runner's device record's (src/runner/ws-output.c), less what the runner measures
 * at start-up: a traced program is not held up to measure bandwidths.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct
{
  int looked;
  void *lib;
  CUresult (*DriverGetVersion) (int *);
  CUresult (*DeviceGet) (CUdevice *, int);
  CUresult (*DeviceGetAttribute) (int *, CUdevice_attribute, CUdevice);
  CUresult (*DeviceGetName) (char *, int, CUdevice);
  CUresult (*DeviceTotalMem) (size_t *, CUdevice);
  CUresult (*DeviceGetUuid) (CUuuid *, CUdevice);
  CUresult (*DeviceGetPCIBusId) (char *, int, CUdevice);
} drv;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t written[64]; /* device ordinals with a record */

/* The driver library is already in the process when the driver loaded us; WARPSCOPE_LIBCUDA
 * names another one (the tests name one that does not exist). */
static void *
driver_library (void)
{
  pthread_mutex_lock (&lock);
  if (!drv.looked)
    {
      const char *override = getenv ("WARPSCOPE_LIBCUDA");

      drv.looked = 1;
      if (override != NULL && *override != '\0')
        drv.lib = dlopen (override, RTLD_LAZY | RTLD_LOCAL);
      else
        drv.lib = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
      if (drv.lib != NULL)
        {
          *(void **) &drv.DriverGetVersion = dlsym (drv.lib, "cuDriverGetVersion");
          *(void **) &drv.DeviceGet = dlsym (drv.lib, "cuDeviceGet");
          *(void **) &drv.DeviceGetAttribute = dlsym (drv.lib, "cuDeviceGetAttribute");
          *(void **) &drv.DeviceGetName = dlsym (drv.lib, "cuDeviceGetName");
          *(void **) &drv.DeviceTotalMem = dlsym (drv.lib, "cuDeviceTotalMem_v2");
          *(void **) &drv.DeviceGetUuid = dlsym (drv.lib, "cuDeviceGetUuid_v2");
          if (drv.DeviceGetUuid == NULL)
            *(void **) &drv.DeviceGetUuid = dlsym (drv.lib, "cuDeviceGetUuid");
          *(void **) &drv.DeviceGetPCIBusId = dlsym (drv.lib, "cuDeviceGetPCIBusId");
        }
    }
  pthread_mutex_unlock (&lock);
  return drv.lib;
}

int
_ws_driver_version (void)
{
  int v = 0;

  if (driver_library () == NULL || drv.DriverGetVersion == NULL
      || drv.DriverGetVersion (&v) != CUDA_SUCCESS)
    return 0;
  return v;
}

static int
attr (CUdevice dev, CUdevice_attribute a)
{
  int v = 0;

  if (drv.DeviceGetAttribute == NULL || drv.DeviceGetAttribute (&v, a, dev) != CUDA_SUCCESS)
    return 0;
  return v;
}

static void
triple (WsJson *j, const char *key, CUdevice dev, CUdevice_attribute x, CUdevice_attribute y,
        CUdevice_attribute z)
{
  ws_json_begin_array (j, key);
  ws_json_int (j, NULL, attr (dev, x));
  ws_json_int (j, NULL, attr (dev, y));
  ws_json_int (j, NULL, attr (dev, z));
  ws_json_end_array (j);
}

/* FP32 lanes per SM: 64 on Turing (7.5) and the A100 (8.0), 128 from 8.6 on (as the runner,
 * src/runner/ws-runner-device.c). */
static int
fp32_lanes (int major, int minor)
{
  return major == 7 || (major == 8 && minor == 0) ? 64 : 128;
}

static void
identity (WsJson *j, CUdevice dev)
{
  char name[256] = "", bus[32] = "", uuid[48] = "";
  CUuuid u;

  if (drv.DeviceGetName != NULL)
    drv.DeviceGetName (name, sizeof name, dev);
  if (drv.DeviceGetPCIBusId != NULL)
    drv.DeviceGetPCIBusId (bus, sizeof bus, dev);
  if (drv.DeviceGetUuid != NULL && drv.DeviceGetUuid (&u, dev) == CUDA_SUCCESS)
    {
      const unsigned char *b = (const unsigned char *) u.bytes;

      snprintf (uuid, sizeof uuid,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                b[13], b[14], b[15]);
    }
  ws_json_string (j, WS_KEY_NAME, name[0] ? name : NULL);
  ws_json_string (j, WS_KEY_UUID, uuid[0] ? uuid : NULL);
  ws_json_string (j, WS_KEY_PCI_BUS_ID, bus[0] ? bus : NULL);
}

static void
clocks_and_peaks (WsJson *j, CUdevice dev, int major, int minor, int sms)
{
  int memory_khz = attr (dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  int bus_bits = attr (dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  int sm_khz = attr (dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  int lanes = fp32_lanes (major, minor);

  ws_json_int (j, WS_KEY_MEMORY_CLOCK_KHZ, memory_khz);
  ws_json_int (j, WS_KEY_BUS_WIDTH_BITS, bus_bits);
  ws_json_int (j, WS_KEY_SM_CLOCK_KHZ, sm_khz);
  ws_json_bool (j, WS_KEY_ECC, attr (dev, CU_DEVICE_ATTRIBUTE_ECC_ENABLED));
  ws_json_int (j, WS_KEY_ASYNC_ENGINES, attr (dev, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT));
  ws_json_int (j, WS_KEY_FP32_LANES_PER_SM, lanes);
  if (sm_khz > 0)
    ws_json_double (j, WS_KEY_FP32_PEAK_GFLOPS, (double) sms * lanes * 2.0 * sm_khz * 1e3 / 1e9);
  else
    ws_json_null (j, WS_KEY_FP32_PEAK_GFLOPS);
  if (memory_khz > 0 && bus_bits > 0)
    ws_json_double (j, WS_KEY_BANDWIDTH_THEORETICAL_GBS,
                    2.0 * memory_khz * 1e3 * (bus_bits / 8.0) / 1e9);
  else
    ws_json_null (j, WS_KEY_BANDWIDTH_THEORETICAL_GBS);
  /* Measured by the runner only: a traced program is not held up for it. */
  ws_json_null (j, WS_KEY_BANDWIDTH_MEASURED_GBS);
}

void
_ws_device_record (uint32_t index)
{
  static WsJson json;
  WsJson *j = &json;
  CUdevice dev;
  int major, minor, sms;
  char cc[16], sm[16];
  size_t total = 0;

  if (index < sizeof written && written[index])
    return;
  if (index < sizeof written)
    written[index] = 1;
  _ws_output_begin (j, WS_RECORD_TYPE_DEVICE);
  ws_json_int (j, WS_KEY_INDEX, index);
  if (driver_library () == NULL || drv.DeviceGet == NULL
      || drv.DeviceGet (&dev, (int) index) != CUDA_SUCCESS)
    {
      /* Only the index: the driver would not say more. */
      _ws_output_emit (j);
      return;
    }
  identity (j, dev);
  major = attr (dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  minor = attr (dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  sms = attr (dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  snprintf (cc, sizeof cc, "%d.%d", major, minor);
  snprintf (sm, sizeof sm, "sm_%d%d", major, minor);
  ws_json_string (j, WS_KEY_COMPUTE_CAPABILITY, cc);
  ws_json_string (j, WS_KEY_SM, sm);
  ws_json_int (j, WS_KEY_SM_COUNT, sms);
  ws_json_int (j, WS_KEY_WARP_SIZE, attr (dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE));
  ws_json_int (j, WS_KEY_MAX_THREADS_PER_BLOCK,
               attr (dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  triple (j, WS_KEY_MAX_BLOCK_DIM, dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
          CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  triple (j, WS_KEY_MAX_GRID_DIM, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
          CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  ws_json_int (j, WS_KEY_MAX_THREADS_PER_SM,
               attr (dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR));
  ws_json_int (j, WS_KEY_MAX_BLOCKS_PER_SM,
               attr (dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR));
  ws_json_int (j, WS_KEY_REGS_PER_SM,
               attr (dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR));
  ws_json_int (j, WS_KEY_REGS_PER_BLOCK, attr (dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
  ws_json_int (j, WS_KEY_SMEM_PER_SM,
               attr (dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
  ws_json_int (j, WS_KEY_SMEM_PER_BLOCK,
               attr (dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  ws_json_int (j, WS_KEY_SMEM_PER_BLOCK_OPTIN,
               attr (dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  ws_json_int (j, WS_KEY_RESERVED_SMEM_PER_BLOCK,
               attr (dev, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK));
  ws_json_int (j, WS_KEY_L2_BYTES, attr (dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  if (drv.DeviceTotalMem != NULL && drv.DeviceTotalMem (&total, dev) == CUDA_SUCCESS)
    ws_json_uint (j, WS_KEY_MEMORY_BYTES, total);
  else
    ws_json_null (j, WS_KEY_MEMORY_BYTES);
  /* Free memory needs a context of our own on the program's device: not asked. */
  ws_json_null (j, WS_KEY_MEMORY_FREE_BYTES);
  clocks_and_peaks (j, dev, major, minor, sms);
  _ws_output_emit (j);
}
