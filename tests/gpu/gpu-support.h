/* gpu-support.h: what the GPU tests share: a small JSON reader (these tests build where
 * there is no GLib), running the runner and collecting its records, and TAP output.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

typedef enum
{
  J_NULL,
  J_BOOL,
  J_NUMBER,
  J_STRING,
  J_ARRAY,
  J_OBJECT,
} JType;

typedef struct JValue JValue;
struct JValue
{
  JType type;
  double number;   /* also 1/0 for booleans */
  char *string;
  JValue **items;  /* array elements, or object values */
  char **keys;     /* object keys */
  size_t len;
};

JValue *j_parse (const char *text);
void j_free (JValue *value);
const JValue *j_get (const JValue *object, const char *key);
double j_num (const JValue *object, const char *key); /* NaN when missing */
const char *j_str (const JValue *object, const char *key); /* NULL when missing */

typedef struct
{
  JValue **records;
  size_t len;
  int exit_code;
} Output;

/* Runs `runner` with the arguments (a NULL-terminated list) and parses every line. */
void run_runner (Output *out, const char *runner, const char *const *args);
void output_free (Output *out);
/* The n-th record of a type (n from 0), or NULL. */
const JValue *find_record (const Output *out, const char *type, size_t n);
size_t count_records (const Output *out, const char *type);

/* Exits 77 (skip) when the runner finds no usable GPU here. */
void skip_without_gpu (const char *runner);

/* Prints the plan after the tests and returns the exit status. */
int tap_done (void);
void tap_ok (int ok, const char *fmt, ...);
void tap_skip (const char *fmt, ...); /* a test that cannot run here, with the reason */
int tap_failures (void);
