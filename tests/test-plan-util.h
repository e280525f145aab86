/* test-plan-util.h: what the plan's tests share (header only: each test is one program).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-plan.h"

/* One of examples/kernels, read as an own kernel; it must be valid. */
static inline WsKernelSource *
ws_test_example_source (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "examples",
                                            "kernels", name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsKernelSource *source = ws_kernel_source_new_from_file (file, &error);

  g_assert_no_error (error);
  g_assert_true (ws_kernel_source_is_valid (source));
  return source;
}
