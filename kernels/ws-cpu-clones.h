/* ws-cpu-clones.h: CPU references are compiled for several x86 levels and picked at run
 * time, so that the baseline uses the vector units of the machine it runs on without
 * building for one CPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WS_CPU_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define WS_CPU_CLONES
#endif
