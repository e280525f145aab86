/* ws-kernel-file.h: a kernel file (docs/own-kernels.md): CUDA C/C++ device code with a
 * header comment that says what cannot be inferred from the code: the entry point, its
 * arguments, the problem size, the grid, the tunable parameters and their restrictions, the
 * verification, the tolerance, and the formulas for bytes and FLOP. Parsed into a plain
 * struct of fixed size (one allocation by the caller, none inside), with errors that name
 * the line and column and say what was expected. Neither GLib nor CUDA: the runner and the
 * model both link it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "ws-expr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A kernel file's source is at most this long: its text travels in the session (a `source`
 * record), whose lines readers take up to 1 MiB long, escapes included. */
#define WS_KF_MAX_SOURCE (128 * 1024)

#define WS_KF_MAX_NAME 64     /* identifiers, with their NUL */
#define WS_KF_MAX_EXPR 256    /* one expression, with its NUL */
#define WS_KF_MAX_ARGS 32
#define WS_KF_MAX_SIZES 3
#define WS_KF_MAX_PARAMS 8
#define WS_KF_MAX_VALUES 32   /* values of one tunable parameter */
#define WS_KF_MAX_RESTRICTS 8
#define WS_KF_MAX_OPTIONS 16
#define WS_KF_MAX_ERRORS 16

typedef enum
{
  WS_KF_INT32,
  WS_KF_UINT32,
  WS_KF_INT64,
  WS_KF_UINT64,
  WS_KF_FLOAT,
  WS_KF_DOUBLE,
} WsKfType;

typedef enum
{
  WS_KF_IN,
  WS_KF_OUT,
  WS_KF_INOUT,
} WsKfRole;

typedef enum
{
  WS_KF_INIT_NONE,     /* out: poisoned (NaN bits) before every launch */
  WS_KF_INIT_RANDOM,   /* uniform in [lo, hi); default [-1, 1) for reals, [0, 1000) for ints */
  WS_KF_INIT_ZEROS,
  WS_KF_INIT_ONES,
  WS_KF_INIT_IOTA,     /* element i is i */
  WS_KF_INIT_CONSTANT, /* every element is a */
} WsKfInit;

typedef enum
{
  WS_KF_VERIFY_REFERENCE, /* a reference kernel of the same file, at a fixed configuration */
  WS_KF_VERIFY_BUILTIN,   /* a built-in kernel of the runner on the same inputs */
  WS_KF_VERIFY_NONE,      /* runs are marked unverified */
} WsKfVerify;

/* An expression as written, with where it starts in the file. */
typedef struct
{
  char text[WS_KF_MAX_EXPR];
  int line, column;
} WsKfExpr;

typedef struct
{
  char name[WS_KF_MAX_NAME];
  int line;
  int is_buffer;
  WsKfType type;
  WsKfRole role;      /* buffers */
  WsKfExpr length;    /* buffers: elements, of the size names */
  WsKfInit init;      /* buffers */
  WsKfExpr init_a, init_b; /* random(lo, hi), constant(a); empty text: the default */
  WsKfExpr value;     /* scalars */
} WsKfArg;

typedef struct
{
  char name[WS_KF_MAX_NAME];
  int line;
  int n_values;
  double values[WS_KF_MAX_VALUES];
  char texts[WS_KF_MAX_VALUES][24]; /* as written: what -DNAME=… gets */
} WsKfParam;

typedef struct
{
  int line, column;
  char message[320];
} WsKfError;

typedef struct
{
  int found;                  /* a header was found */
  int first_line, last_line;  /* of the header comment */

  char kernel[128];           /* the entry point: a name, or a C++ name expression */
  int kernel_line;
  char title[128];
  char description[320];

  int n_sizes;                /* 1 to 3 */
  char size_names[WS_KF_MAX_SIZES][WS_KF_MAX_NAME];
  uint64_t size_defaults[WS_KF_MAX_SIZES];

  int n_args;
  WsKfArg args[WS_KF_MAX_ARGS];

  int block_rank;             /* 1 to 3: how the default block was written */
  unsigned block[3];

  int n_grid;                 /* 0: the default, one thread per element of the size */
  WsKfExpr grid[3];

  int n_params;
  WsKfParam params[WS_KF_MAX_PARAMS];
  int n_restricts;
  WsKfExpr restricts[WS_KF_MAX_RESTRICTS];

  WsKfVerify verify;
  int verify_line;
  char verify_kernel[128];    /* the reference or the built-in */
  int verify_block_rank;      /* 0: the header's block */
  unsigned verify_block[3];
  double rtol, atol;           /* the defaults, or the numbers written */
  WsKfExpr rtol_expr, atol_expr; /* as written, when they are formulas of the size */
  int tolerance_given;

  WsKfExpr flops, bytes;      /* empty text: 0 FLOP; bytes from the buffers */

  int n_options;
  char options[WS_KF_MAX_OPTIONS][128];

  int n_errors;
  int more_errors;            /* errors past WS_KF_MAX_ERRORS, counted */
  WsKfError errors[WS_KF_MAX_ERRORS];
} WsKernelFile;

/* Parses the header of `text` (`len` bytes; need not end in NUL) into `kf`. Returns 1 when
 * it has no errors; otherwise 0, with kf->errors listing them in file order. */
int ws_kernel_file_parse (const char *text, size_t len, WsKernelFile *kf);

/* What one configuration's expressions are evaluated with: the size, the block and the
 * tunable parameters' values (in the header's order). */
typedef struct
{
  uint64_t size[WS_KF_MAX_SIZES];
  unsigned block[3];
  double params[WS_KF_MAX_PARAMS];
} WsKfConfig;

/* The defaults: every size, the header's block, each parameter's first value. */
void ws_kernel_file_default_config (const WsKernelFile *kf, WsKfConfig *cfg);

/* Evaluates one of kf's expressions at `cfg`; 0 with `err` ("line 7, grid: division by
 * zero at n = 0, block 256") when it cannot. */
int ws_kernel_file_eval (const WsKernelFile *kf, const WsKfExpr *e, const char *what,
                         const WsKfConfig *cfg, WsExprValue *out, char *err, size_t len);

/* Whether a scalar argument's value fits its type: 1 with the whole number in *whole (when
 * the type is one); 0 with why not in `why` ("3000000000000000 does not fit in an int32;
 * declare it int64 (and the kernel's parameter long long)"). */
int ws_kernel_file_scalar_fits (WsKfType type, WsExprValue v, int64_t *whole, char *why,
                                size_t len);

/* The grid of a configuration: the header's formulas, or one thread per element. */
int ws_kernel_file_grid (const WsKernelFile *kf, const WsKfConfig *cfg, uint64_t grid[3],
                         char *err, size_t len);
/* Elements of buffer argument `arg`. */
int ws_kernel_file_length (const WsKernelFile *kf, int arg, const WsKfConfig *cfg,
                           uint64_t *elements, char *err, size_t len);
/* 1 when the restrictions allow the configuration; 0 with the first one that does not
 * (its index in *which), -1 with `err` when one cannot be evaluated. */
int ws_kernel_file_allowed (const WsKernelFile *kf, const WsKfConfig *cfg, int *which,
                            char *err, size_t len);
/* The run's FLOP and the fewest bytes it must move: the header's formulas, else 0 FLOP and
 * every buffer once (inout buffers twice). */
double ws_kernel_file_flops (const WsKernelFile *kf, const WsKfConfig *cfg);
double ws_kernel_file_bytes (const WsKernelFile *kf, const WsKfConfig *cfg);

/* The tolerance at a size: rtol and atol as numbers or formulas of the size names. */
void ws_kernel_file_tolerance (const WsKernelFile *kf, const WsKfConfig *cfg, double *rtol,
                               double *atol);

/* The index of parameter `name`, or -1. */
int ws_kernel_file_find_param (const WsKernelFile *kf, const char *name, size_t len);
/* Whether the source uses block_size_x (dim 0), _y, _z: only those are defined at compile
 * time, so that a kernel that uses none is compiled once for every block. */
int ws_kernel_file_uses_block_macro (const char *text, size_t len, int dim);

size_t ws_kernel_file_type_size (WsKfType type);
const char *ws_kernel_file_type_name (WsKfType type);   /* "float", "int32", … */
const char *ws_kernel_file_role_name (WsKfRole role);   /* "in", "out", "inout" */
const char *ws_kernel_file_init_name (WsKfInit init);   /* "random", "zeros", … */
const char *ws_kernel_file_verify_name (WsKfVerify v);  /* "reference", "builtin", "none" */

#ifdef __cplusplus
}
#endif
