/* ws-runner-trace.h: warpscope-runner --trace: starts an unmodified CUDA program with
 * libwarpscope-inject, once or once per point of a sweep over its own parameters, and relays
 * what the library records as the runner's stream (docs/protocol.md, "Traced programs").
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* 1 when argv asks for the trace mode: --trace before the program's own arguments. */
int ws_trace_requested (int argc, char **argv);

/* The whole trace mode: writes the stream on stdout and returns the runner's exit status. */
int ws_trace_main (int argc, char **argv);
