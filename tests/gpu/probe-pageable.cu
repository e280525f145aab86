// probe-pageable.cu: what makes pageable host↔device copies of 32 MiB fast or slow on this
// host, measured in one process: the buffer (one reused, a fresh one per sample), transparent
// huge pages (advised or refused), the CPU the copying thread runs on (each in turn), the CUDA
// context (its staging buffers: a new context after cudaDeviceReset), and time (the same
// buffer at the start and at the end). Prints a Markdown table and, for each factor, how far
// its settings lie apart next to how far the samples of one setting do; --json FILE writes a
// line per condition for probe-pageable.sh, which runs it in several processes. Not a test.
//
// Each sample is one cudaMemcpyAsync between an event pair on a non-blocking stream, as the
// runner's ceilings are taken (ws-device.c). A rate is bytes over time, in GB/s.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

static const size_t BYTES = (size_t) 32 << 20;
static const size_t HUGE_ALIGN = (size_t) 2 << 20;

#define CHECK(call)                                                                          \
  do                                                                                         \
    {                                                                                        \
      cudaError_t err_ = (call);                                                             \
      if (err_ != cudaSuccess)                                                               \
        {                                                                                    \
          std::fprintf (stderr, "probe-pageable: %s: %s\n", #call, cudaGetErrorString (err_)); \
          std::exit (1);                                                                     \
        }                                                                                    \
    }                                                                                        \
  while (0)

// ---- the GPU side: a context's stream, events and device buffer ------------------------

struct Gpu
{
  cudaStream_t stream;
  cudaEvent_t start, stop;
  void *dev;
};

static void
gpu_open (Gpu *g)
{
  CHECK (cudaSetDevice (0));
  CHECK (cudaStreamCreateWithFlags (&g->stream, cudaStreamNonBlocking));
  CHECK (cudaEventCreate (&g->start));
  CHECK (cudaEventCreate (&g->stop));
  CHECK (cudaMalloc (&g->dev, BYTES));
  CHECK (cudaMemset (g->dev, 1, BYTES));
}

static void
gpu_close (Gpu *g)
{
  cudaFree (g->dev);
  cudaEventDestroy (g->start);
  cudaEventDestroy (g->stop);
  cudaStreamDestroy (g->stream);
}

static double
copy_seconds (Gpu *g, void *dst, const void *src, cudaMemcpyKind kind)
{
  float ms = 0;

  CHECK (cudaEventRecord (g->start, g->stream));
  CHECK (cudaMemcpyAsync (dst, src, BYTES, kind, g->stream));
  CHECK (cudaEventRecord (g->stop, g->stream));
  CHECK (cudaEventSynchronize (g->stop));
  CHECK (cudaEventElapsedTime (&ms, g->start, g->stop));
  return ms / 1e3;
}

// ---- host buffers --------------------------------------------------------------------------

enum Advice
{
  ADVISE_HUGE,    // madvise (MADV_HUGEPAGE), as numpy and the runner do
  ADVISE_NOHUGE,  // madvise (MADV_NOHUGEPAGE)
  ADVISE_MALLOC,  // plain malloc, no advice (the runner before it advised)
};

struct Buffer
{
  void *p;
  size_t mapped;
  Advice advice;
};

static Buffer
buffer_new (Advice advice)
{
  Buffer b = { nullptr, 0, advice };

  if (advice == ADVISE_MALLOC)
    b.p = std::malloc (BYTES);
  else
    {
      size_t over = BYTES + HUGE_ALIGN;
      char *map = (char *) mmap (nullptr, over, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      char *start;

      if (map == MAP_FAILED)
        {
          std::perror ("probe-pageable: mmap");
          std::exit (1);
        }
      start = (char *) (((uintptr_t) map + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1));
      if (start > map)
        munmap (map, (size_t) (start - map));
      if (start + BYTES < map + over)
        munmap (start + BYTES, (size_t) (map + over - (start + BYTES)));
      madvise (start, BYTES, advice == ADVISE_HUGE ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
      b.p = start;
      b.mapped = BYTES;
    }
  if (b.p == nullptr)
    {
      std::fprintf (stderr, "probe-pageable: out of memory\n");
      std::exit (1);
    }
  // Touched here, on the CPU the thread runs on now: the first touch places the pages.
  std::memset (b.p, 1, BYTES);
  return b;
}

static void
buffer_free (Buffer *b)
{
  if (b->advice == ADVISE_MALLOC)
    std::free (b->p);
  else
    munmap (b->p, b->mapped);
  b->p = nullptr;
}

// The share of the buffer the kernel backs with huge pages now (/proc/self/smaps).
static double
huge_share (const Buffer *b)
{
  FILE *f = std::fopen ("/proc/self/smaps", "re");
  uintptr_t lo = (uintptr_t) b->p, hi = lo + BYTES, from = 0, to = 0;
  unsigned long long huge = 0, kb;
  char line[512];

  if (f == nullptr)
    return -1;
  while (std::fgets (line, sizeof line, f) != nullptr)
    {
      unsigned long a, z;

      if (std::sscanf (line, "%lx-%lx ", &a, &z) == 2)
        from = a, to = z;
      else if (std::sscanf (line, "AnonHugePages: %llu kB", &kb) == 1 && from < hi && to > lo)
        huge += kb * 1024;
    }
  std::fclose (f);
  return std::min (1.0, (double) huge / BYTES);
}

// ---- CPUs --------------------------------------------------------------------------------

static cpu_set_t original;

static std::vector<int>
allowed_cpus (void)
{
  std::vector<int> cpus;

  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &original))
      cpus.push_back (c);
  return cpus;
}

static bool
pin (int cpu)
{
  cpu_set_t one;

  if (cpu < 0)
    return sched_setaffinity (0, sizeof original, &original) == 0;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  return sched_setaffinity (0, sizeof one, &one) == 0;
}

// ---- samples and their summary -------------------------------------------------------------

struct Condition
{
  std::string factor, setting;
  std::vector<double> h2d, d2h; // seconds
  std::vector<int> cpus_seen;
  double huge = -1;             // share on huge pages, the mean over its buffers
  int huge_n = 0;
};

static std::vector<Condition> conditions;

static Condition &
condition (const char *factor, const std::string &setting)
{
  conditions.push_back (Condition ());
  conditions.back ().factor = factor;
  conditions.back ().setting = setting;
  return conditions.back ();
}

static void
note_huge (Condition &c, const Buffer &b)
{
  double h = huge_share (&b);

  if (h < 0)
    return;
  c.huge = (c.huge < 0 ? 0 : c.huge * c.huge_n) + h;
  c.huge /= ++c.huge_n;
}

static void
sample (Gpu *g, Condition &c, const Buffer &b, int n)
{
  for (int i = 0; i < n; i++)
    {
      c.h2d.push_back (copy_seconds (g, g->dev, b.p, cudaMemcpyHostToDevice));
      c.d2h.push_back (copy_seconds (g, b.p, g->dev, cudaMemcpyDeviceToHost));
      int cpu = sched_getcpu ();
      if (std::find (c.cpus_seen.begin (), c.cpus_seen.end (), cpu) == c.cpus_seen.end ())
        c.cpus_seen.push_back (cpu);
    }
}

struct Summary
{
  double median, min, max, rate; // GB/s; rate: bytes over time of all samples
  int n;
};

static Summary
summarize (const std::vector<double> &seconds)
{
  std::vector<double> r;
  double total = 0;
  Summary s = { 0, 0, 0, 0, (int) seconds.size () };

  for (double t : seconds)
    r.push_back (BYTES / t / 1e9), total += t;
  if (r.empty ())
    return s;
  std::sort (r.begin (), r.end ());
  s.min = r.front ();
  s.max = r.back ();
  s.median = r.size () % 2 ? r[r.size () / 2] : 0.5 * (r[r.size () / 2 - 1] + r[r.size () / 2]);
  s.rate = (double) BYTES * seconds.size () / total / 1e9;
  return s;
}

static std::string
cell (const Summary &s)
{
  char buf[96];

  std::snprintf (buf, sizeof buf, "%.2f (%.2f–%.2f, n=%d)", s.median, s.min, s.max, s.n);
  return buf;
}

static std::string
cpus_text (const std::vector<int> &cpus)
{
  std::vector<int> sorted = cpus;
  std::string text;

  std::sort (sorted.begin (), sorted.end ());
  for (size_t i = 0; i < sorted.size (); i++)
    text += (i ? "," : "") + std::to_string (sorted[i]);
  return text;
}

// How far a factor's settings lie apart (max / min − 1 of their medians) and how far the
// samples of one setting do (the median over its settings of max / min − 1).
static void
factor_line (const char *factor, bool d2h)
{
  double lo = 1e30, hi = 0;
  std::vector<double> within;
  int settings = 0;

  for (const Condition &c : conditions)
    if (c.factor == factor)
      {
        Summary s = summarize (d2h ? c.d2h : c.h2d);

        if (s.n == 0)
          continue;
        lo = std::min (lo, s.median), hi = std::max (hi, s.median);
        within.push_back (s.max / s.min - 1);
        settings++;
      }
  if (settings < 2)
    return;
  std::sort (within.begin (), within.end ());
  std::printf ("- %s, %s: the %d settings' medians lie %.0f%% apart (%.2f–%.2f GB/s); the "
               "samples of one setting %.0f%% (median over the settings)\n",
               factor, d2h ? "device→host" : "host→device", settings, 100 * (hi / lo - 1), lo,
               hi, 100 * within[within.size () / 2]);
}

static void
print_table (void)
{
  std::printf ("| factor | setting | host→device GB/s | device→host GB/s | on huge pages | ran on "
               "CPUs |\n|---|---|---|---|---|---|\n");
  for (const Condition &c : conditions)
    {
      char huge[32] = "—";

      if (c.huge >= 0)
        std::snprintf (huge, sizeof huge, "%.0f%%", 100 * c.huge);
      std::string h2d = cell (summarize (c.h2d)), d2h = cell (summarize (c.d2h));

      // The runner's figure is the rate over all its samples, not their median.
      if (c.factor == "the runner's method")
        {
          char rate[64];

          std::snprintf (rate, sizeof rate, "; rate over all %.2f", summarize (c.h2d).rate);
          h2d += rate;
          std::snprintf (rate, sizeof rate, "; rate over all %.2f", summarize (c.d2h).rate);
          d2h += rate;
        }
      std::printf ("| %s | %s | %s | %s | %s | %s |\n", c.factor.c_str (), c.setting.c_str (),
                   h2d.c_str (), d2h.c_str (), huge, cpus_text (c.cpus_seen).c_str ());
    }
}

static void
write_json (const char *path)
{
  FILE *f = std::fopen (path, "w");

  if (f == nullptr)
    {
      std::perror (path);
      return;
    }
  for (const Condition &c : conditions)
    {
      Summary h = summarize (c.h2d), d = summarize (c.d2h);

      std::fprintf (f,
                    "{\"factor\": \"%s\", \"setting\": \"%s\", \"h2d\": {\"median\": %.4f, "
                    "\"min\": %.4f, \"max\": %.4f, \"rate\": %.4f, \"n\": %d}, \"d2h\": "
                    "{\"median\": %.4f, \"min\": %.4f, \"max\": %.4f, \"rate\": %.4f, \"n\": "
                    "%d}, \"huge\": %.3f}\n",
                    c.factor.c_str (), c.setting.c_str (), h.median, h.min, h.max, h.rate, h.n,
                    d.median, d.min, d.max, d.rate, d.n, c.huge);
    }
  std::fclose (f);
}

static std::string
read_line (const char *path)
{
  FILE *f = std::fopen (path, "re");
  char buf[256] = "";

  if (f != nullptr)
    {
      if (std::fgets (buf, sizeof buf, f) == nullptr)
        buf[0] = '\0';
      std::fclose (f);
    }
  buf[strcspn (buf, "\n")] = '\0';
  return buf[0] ? buf : "unknown";
}

int
main (int argc, char **argv)
{
  const char *json = argc > 2 && std::strcmp (argv[1], "--json") == 0 ? argv[2] : nullptr;
  struct cudaDeviceProp prop;
  char bus[32] = "";
  Gpu g;

  conditions.reserve (1024); // references to its elements are kept while it grows
  if (sched_getaffinity (0, sizeof original, &original) != 0)
    CPU_ZERO (&original);
  std::vector<int> cpus = allowed_cpus ();
  int home = sched_getcpu ();

  gpu_open (&g);
  CHECK (cudaGetDeviceProperties (&prop, 0));
  cudaDeviceGetPCIBusId (bus, sizeof bus, 0);
  for (char *p = bus; *p; p++)
    *p = (char) std::tolower ((unsigned char) *p);
  std::string numa_path = std::string ("/sys/bus/pci/devices/") + bus + "/numa_node";
  std::printf ("# probe-pageable, pid %d: pageable copies of 32 MiB, GB/s: median (min–max, n "
               "samples)\n", (int) getpid ());
  std::printf ("# GPU 0: %s, PCI %s, its NUMA node: %s; the host's NUMA nodes: %s\n", prop.name,
               bus, read_line (numa_path.c_str ()).c_str (),
               read_line ("/sys/devices/system/node/online").c_str ());
  std::printf ("# CPUs allowed: %zu (%s); this process started on CPU %d\n", cpus.size (),
               cpus_text (cpus).c_str (), home);
  std::printf ("# transparent huge pages: %s; defrag: %s\n",
               read_line ("/sys/kernel/mm/transparent_hugepage/enabled").c_str (),
               read_line ("/sys/kernel/mm/transparent_hugepage/defrag").c_str ());

  // The first copies of a process are slower: three each way, not counted.
  Buffer reused = buffer_new (ADVISE_HUGE);
  {
    Condition warm;

    sample (&g, warm, reused, 3);
  }
  sample (&g, condition ("time", "one buffer (huge pages advised), at the start"), reused, 15);
  note_huge (conditions.back (), reused);

  // The buffer: reused, or a fresh one for each sample; and how it was allocated.
  {
    Buffer old = buffer_new (ADVISE_MALLOC);
    Condition &c = condition ("buffer", "one malloc'd buffer, no advice (the runner before)");

    sample (&g, c, old, 1);
    c.h2d.clear (), c.d2h.clear ();
    sample (&g, c, old, 12);
    note_huge (c, old);
    buffer_free (&old);
  }
  {
    Condition &c = condition ("buffer", "one buffer, huge pages advised");

    sample (&g, c, reused, 12);
    note_huge (c, reused);
  }
  const Advice advices[] = { ADVISE_HUGE, ADVISE_NOHUGE, ADVISE_MALLOC };
  const char *advice_names[] = { "a fresh buffer each sample, huge pages advised",
                                 "a fresh buffer each sample, huge pages refused",
                                 "a fresh malloc'd buffer each sample, no advice" };
  for (int a = 0; a < 3; a++)
    {
      Condition &c = condition (a == 0 ? "buffer" : "huge pages", advice_names[a]);

      for (int i = 0; i < 12; i++)
        {
          Buffer b = buffer_new (advices[a]);

          sample (&g, c, b, 1);
          note_huge (c, b);
          buffer_free (&b);
        }
    }
  // The huge-page comparison has its advised setting too.
  conditions.push_back (conditions[conditions.size () - 3]);
  conditions.back ().factor = "huge pages";

  // The CPU: the thread pinned to each allowed CPU in turn, with the reused buffer (touched
  // on the first CPU), then with a buffer touched on that CPU.
  for (int cpu : cpus)
    {
      if (!pin (cpu))
        continue;
      Condition &c = condition ("CPU, one buffer", "CPU " + std::to_string (cpu));

      sample (&g, c, reused, 4);
      Buffer b = buffer_new (ADVISE_HUGE);
      Condition &f = condition ("CPU, a buffer touched there", "CPU " + std::to_string (cpu));

      sample (&g, f, b, 2);
      note_huge (f, b);
      buffer_free (&b);
    }
  pin (-1);

  // What the runner does at each start (ws-device.c): every CPU (up to 16 spread evenly), two
  // samples on each (more when there are fewer than 4), from four buffers by turns.
  {
    Condition &c = condition ("the runner's method", "every CPU, 2 samples each, 4 buffers");
    Buffer four[4];
    size_t n = std::min<size_t> (cpus.size (), 16);
    int per_cpu = n >= 4 ? 2 : (int) ((8 + n - 1) / std::max<size_t> (n, 1));

    for (int b = 0; b < 4; b++)
      four[b] = buffer_new (ADVISE_HUGE);
    for (size_t i = 0, k = 0; i < n; i++)
      {
        size_t at = i * cpus.size () / n + (cpus.size () >= 2 * n ? i % 2 : 0);

        pin (cpus[at]);
        for (int s = 0; s < per_cpu; s++, k++)
          sample (&g, c, four[k % 4], 1);
      }
    pin (-1);
    for (int b = 0; b < 4; b++)
      buffer_free (&four[b]);
  }

  // The context: its staging buffers are the driver's, made with it. A new one four times.
  buffer_free (&reused);
  gpu_close (&g);
  for (int k = 1; k <= 4; k++)
    {
      CHECK (cudaDeviceReset ());
      gpu_open (&g);
      Buffer b = buffer_new (ADVISE_HUGE);
      Condition warm, &c = condition ("context", "new context " + std::to_string (k));

      sample (&g, warm, b, 3);
      sample (&g, c, b, 6);
      buffer_free (&b);
      gpu_close (&g);
    }
  gpu_open (&g);
  reused = buffer_new (ADVISE_HUGE);
  {
    Condition warm;

    sample (&g, warm, reused, 3);
  }
  sample (&g, condition ("time", "one buffer (huge pages advised), at the end, new context"),
          reused, 15);
  note_huge (conditions.back (), reused);
  buffer_free (&reused);
  gpu_close (&g);

  print_table ();
  std::printf ("\nFor each factor, how far its settings lie apart, next to how far the samples "
               "of one setting do: a factor whose settings lie further apart than one setting's "
               "samples is one that changes the rate.\n\n");
  for (const char *factor : { "buffer", "huge pages", "CPU, one buffer",
                              "CPU, a buffer touched there", "context", "time" })
    for (bool d2h : { false, true })
      factor_line (factor, d2h);
  std::printf ("\nprobe-pageable.sh runs this in several processes: a factor fixed for a "
               "process (its CPU, its context) shows there as medians that differ between "
               "processes while the row \"the runner's method\" agrees.\n");
  if (json != nullptr)
    write_json (json);
  return 0;
}
