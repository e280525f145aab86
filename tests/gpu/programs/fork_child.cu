// fork_child.cu: a program that forks before it touches CUDA, so that parent and child each
// initialize CUDA and each is traced on its own (the child launches 3 kernels, the parent 5);
// then, with CUDA initialized, it forks a child that never uses CUDA and exits through
// exit(), whose inherited trace must stay silent.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

__global__ void
fill (float *x, int n, float v)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    x[i] = v;
}

static int
work (int launches)
{
  const int n = 1 << 20;
  float *x;

  if (cudaMalloc (&x, n * sizeof (float)) != cudaSuccess)
    return 1;
  for (int i = 0; i < launches; i++)
    fill<<<n / 256, 256>>> (x, n, (float) i);
  if (cudaDeviceSynchronize () != cudaSuccess)
    return 1;
  cudaFree (x);
  return 0;
}

int
main ()
{
  pid_t child = fork (), late;
  int status = 0, late_status = 0;

  if (child < 0)
    return 2;
  if (child == 0)
    return work (3);
  if (work (5) != 0)
    return 1;
  if (waitpid (child, &status, 0) != child || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      std::fprintf (stderr, "the child failed\n");
      return 1;
    }
  late = fork ();
  if (late == 0)
    exit (0); /* no CUDA: its inherited trace must write nothing */
  waitpid (late, &late_status, 0);
  std::printf ("parent %d and child %d done\n", (int) getpid (), (int) child);
  return 0;
}
