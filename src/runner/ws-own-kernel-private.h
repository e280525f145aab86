/* ws-own-kernel-private.h: the state of the own kernel of this runner (one --source a
 * process), shared by ws-own-kernel.c (the descriptor the run loop uses: buffers, launch,
 * verification) and ws-own-plan.c (reading, planning, compiling, the records).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cuda_runtime_api.h>

#include "ws-kernel-file.h"
#include "ws-kernel.h"
#include "ws-nvrtc.h"
#include "ws-own-kernel.h"
#include "ws-runner.h"

/* Pointers to these are what cudaLaunchKernel gets, one per argument. */
typedef union
{
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
  float f32;
  double f64;
  void *ptr;
} OwnArgValue;

/* One compiled form of the kernel: the tunable parameters' values and the block_size_x/y/z
 * it was compiled with (0 for a macro the source does not use). */
typedef struct
{
  int index;
  int reference;             /* the reference kernel, at its fixed configuration */
  double params[WS_KF_MAX_PARAMS];
  const char *param_texts[WS_KF_MAX_PARAMS];
  unsigned macros[3];
  cudaLibrary_t library;
  cudaKernel_t kernel;
  char lowered[256];
  /* The scalar arguments for the last (shape, block) launched: evaluated once, not at every
   * one of thousands of back-to-back launches. */
  int have_scalars;
  uint64_t scalar_shape[3];
  unsigned scalar_block[3];
  OwnArgValue values[WS_KF_MAX_ARGS];
} OwnVariant;

/* Where each declared buffer lies in the runner's buffers: inputs are the runner's inputs
 * one to one when there are at most WS_MAX_INPUTS of them, else packed into input 0 (at
 * 256-byte boundaries); outputs likewise in the runner's one output. An inout buffer has a
 * place in both: its initial contents are an input, copied into its output place before
 * each launch of a sequence. Offsets and lengths count floats (4 bytes). */
typedef struct
{
  int in_buffer;             /* the runner's input, or -1 */
  uint64_t in_offset;
  int out;                   /* it has a place in the output */
  uint64_t out_offset;
  uint64_t elements;         /* of its declared type */
  uint64_t floats;           /* elements × type size / 4 */
} OwnPlace;

typedef struct
{
  uint64_t shape[3];
  int valid;
  OwnPlace places[WS_KF_MAX_ARGS];
  uint64_t buffer_floats[WS_MAX_INPUTS + 1]; /* the runner's buffers */
} OwnLayout;

#define WS_OWN_MAX_VARIANTS 512

typedef struct
{
  WsKernelFile kf;
  char *text;                /* the source, NUL-terminated */
  size_t len;
  char path[1024];
  char hash[65];
  const WsKernelDesc *builtin; /* verify: builtin NAME */
  int n_inputs, n_outputs;   /* declared buffers that are read (in, inout) and written */
  int packed_in, packed_out;
  char tolerance[900];
  char title[160];
  WsKernelDesc desc;
  OwnLayout layout;          /* for the last shape asked for */
  OwnVariant *variants[WS_OWN_MAX_VARIANTS];
  int n_variants;
  OwnVariant *ref;           /* the reference kernel, when verify: reference */
  unsigned ref_block[3];     /* the block it runs at */
  /* The runner's device buffers of the last launch: verification reads the inputs there. */
  float *const *dev;
  /* Verification: the reference's output on the GPU and its copy on the host. */
  void *ref_dev, *ref_host;
  size_t ref_bytes;
  int ran;                   /* a launch has happened (dev is set) */
} OwnKernel;

extern OwnKernel *_ws_own;

/* ws-own-kernel.c */
void _ws_own_fill_desc (OwnKernel *k);
extern const WsRunHooks _ws_own_hooks;
/* The layout for `shape` (cached); NULL with a message when a length cannot be evaluated. */
const OwnLayout *_ws_own_layout (OwnKernel *k, const uint64_t shape[3], char *err, size_t len);
/* The scalar arguments of `v` at (shape, block); 0 and a message when one cannot be. */
int _ws_own_scalars (OwnKernel *k, OwnVariant *v, const uint64_t shape[3],
                     const unsigned block[3], char *err, size_t len);
void _ws_own_config (const OwnKernel *k, const OwnVariant *v, const uint64_t shape[3],
                     const unsigned block[3], WsKfConfig *cfg);

/* ws-own-records.c */
void _ws_own_output_kernel (const OwnKernel *k);
void _ws_own_output_source (const OwnKernel *k);

/* ws-own-compile.c: every variant of the plan, and the reference, compiled and loaded; 0
 * with *exit_code after the errors are written. */
int _ws_own_compile_all (OwnKernel *k, const WsOptions *o, const WsRunnerDevice *device,
                         int *exit_code);

/* ws-own-includes.c: whether every #include of the kernel file (and of the headers of its
 * folder it includes) names a file of its folder and below or a CUDA toolkit header; 0 with
 * the first that does not, its file, line and column, and what to change. */
typedef struct
{
  char file[1024];
  int line, column;
  char message[1400];
} WsIncludeProblem;

int _ws_own_check_includes (const char *path, const char *text, size_t len,
                            WsIncludeProblem *problem);

/* ws-own-plan.c: the values --param chose first for each parameter (the header's default
 * when it was not given): the configuration --memcheck checks. */
const char *_ws_own_first_value (int param);
