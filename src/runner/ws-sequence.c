/* ws-sequence.c: how one sequence (copies in, kernel, copy out) is issued: whole on one
 * stream, or for streams:K cut into K pieces whose copies and kernels overlap over K streams.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "ws-runner-private.h"

void
_ws_launch_config (const WsRunSpec *s, WsLaunchConfig *cfg)
{
  memcpy (cfg->shape, s->shape, sizeof cfg->shape);
  memcpy (cfg->block, s->block, sizeof cfg->block);
  memcpy (cfg->grid, s->grid, sizeof cfg->grid);
  cfg->variant = s->variant;
}

cudaError_t
_ws_copy_in (WsRunner *r, const WsRunSpec *s)
{
  cudaError_t err = cudaSuccess;

  for (int b = 0; b < s->kernel->n_inputs && err == cudaSuccess; b++)
    err = cudaMemcpyAsync (r->dev[b], r->host[b], r->elems[b] * sizeof (float),
                           cudaMemcpyHostToDevice, r->streams[0]);
  return err;
}

cudaError_t
_ws_launch (WsRunner *r, const WsRunSpec *s)
{
  WsLaunchConfig cfg;

  _ws_launch_config (s, &cfg);
  return s->kernel->launch (&cfg, r->dev, r->streams[0]);
}

static cudaError_t
issue_whole (WsRunner *r, const WsRunSpec *s, int poison)
{
  int out = s->kernel->n_inputs;
  size_t out_bytes = r->elems[out] * sizeof (float);
  cudaError_t err = _ws_copy_in (r, s);

  if (err == cudaSuccess && poison)
    err = cudaMemsetAsync (r->dev[out], 0xFF, out_bytes, r->streams[0]);
  if (err == cudaSuccess && s->hooks != NULL)
    {
      WsLaunchConfig cfg;

      _ws_launch_config (s, &cfg);
      err = s->hooks->before_launch (&cfg, r->dev, r->streams[0]);
    }
  if (err == cudaSuccess)
    err = _ws_launch (r, s);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (r->host[out], r->dev[out], out_bytes, cudaMemcpyDeviceToHost,
                           r->streams[0]);
  return err;
}

/* Host and device copies of a buffer share one layout: the region is the same on both. */
static cudaError_t
copy_region (float *dst, const float *src, const WsRegion *g, enum cudaMemcpyKind kind,
             cudaStream_t stream)
{
  if (g->width == 0 || g->height == 0)
    return cudaSuccess;
  if (g->height == 1)
    return cudaMemcpyAsync (dst + g->offset, src + g->offset, g->width * sizeof (float), kind,
                            stream);
  return cudaMemcpy2DAsync (dst + g->offset, g->pitch * sizeof (float), src + g->offset,
                            g->pitch * sizeof (float), g->width * sizeof (float), g->height,
                            kind, stream);
}

static int
piece_empty (const WsRunSpec *s, const WsLaunchConfig *cfg, int pieces, int p,
             WsRegion region[WS_MAX_BUFFERS])
{
  const int out = s->kernel->n_inputs;

  memset (region, 0, WS_MAX_BUFFERS * sizeof *region);
  s->kernel->piece (cfg, pieces, p, region);
  return region[out].width == 0 || region[out].height == 0;
}

/* Piece p goes to stream p, each piece's copy in, kernel and copy out in that order on its
 * stream; the copy engines and the SMs then work on different pieces at once. Inputs every
 * piece needs whole, and the poison, go first on streams[0], and the other streams wait for
 * them; streams[0] waits for the others at the end, so that it stands for the whole. */
static cudaError_t
issue_pieces (WsRunner *r, const WsRunSpec *s, int poison)
{
  const WsKernelDesc *k = s->kernel;
  const int out = k->n_inputs, pieces = s->streams;
  cudaStream_t first = r->streams[0];
  WsLaunchConfig cfg;
  cudaError_t err = cudaSuccess;

  _ws_launch_config (s, &cfg);
  for (int b = 0; b < k->n_inputs && err == cudaSuccess; b++)
    if (k->whole_inputs & (1u << b))
      err = cudaMemcpyAsync (r->dev[b], r->host[b], r->elems[b] * sizeof (float),
                             cudaMemcpyHostToDevice, first);
  if (err == cudaSuccess && poison)
    err = cudaMemsetAsync (r->dev[out], 0xFF, r->elems[out] * sizeof (float), first);
  if (err == cudaSuccess && pieces > 1)
    err = cudaEventRecord (r->ready, first);
  for (int p = 1; p < pieces && err == cudaSuccess; p++)
    err = cudaStreamWaitEvent (r->streams[p], r->ready, 0);
  for (int p = 0; p < pieces && err == cudaSuccess; p++)
    {
      WsRegion region[WS_MAX_BUFFERS];
      cudaStream_t stream = r->streams[p];

      if (piece_empty (s, &cfg, pieces, p, region))
        continue;
      for (int b = 0; b < k->n_inputs && err == cudaSuccess; b++)
        if (!(k->whole_inputs & (1u << b)))
          err = copy_region (r->dev[b], r->host[b], &region[b], cudaMemcpyHostToDevice, stream);
      if (err == cudaSuccess)
        err = k->launch_piece (&cfg, pieces, p, r->dev, stream);
      if (err == cudaSuccess)
        err = copy_region (r->host[out], r->dev[out], &region[out], cudaMemcpyDeviceToHost,
                           stream);
    }
  for (int p = 1; p < pieces && err == cudaSuccess; p++)
    {
      err = cudaEventRecord (r->joined[p], r->streams[p]);
      if (err == cudaSuccess)
        err = cudaStreamWaitEvent (first, r->joined[p], 0);
    }
  return err;
}

cudaError_t
_ws_sequence_issue (WsRunner *r, const WsRunSpec *s, int poison)
{
  if (s->transfer == WS_TRANSFER_STREAMS)
    return issue_pieces (r, s, poison);
  return issue_whole (r, s, poison);
}

int
_ws_sequence_launches (const WsRunSpec *s)
{
  WsRegion region[WS_MAX_BUFFERS];
  WsLaunchConfig cfg;
  int launches = 0;

  if (s->transfer != WS_TRANSFER_STREAMS)
    return 1;
  _ws_launch_config (s, &cfg);
  for (int p = 0; p < s->streams; p++)
    launches += !piece_empty (s, &cfg, s->streams, p, region);
  return launches;
}

/* One sequence, waited for. */
cudaError_t
_ws_sequence_run (WsRunner *r, const WsRunSpec *s, int poison)
{
  cudaError_t err = _ws_sequence_issue (r, s, poison);

  if (err == cudaSuccess)
    err = cudaStreamSynchronize (r->streams[0]);
  return err;
}
