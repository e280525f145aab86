/* ws-hostmem.c: the host memory a run may still allocate, so that a run too large for it is
 * refused with both numbers instead of being killed by the kernel's OOM killer halfway.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-hostmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static char *
read_text (const char *path)
{
  FILE *f = fopen (path, "re");
  char *buf;
  size_t n;

  if (f == NULL)
    return NULL;
  buf = malloc (65536);
  if (buf == NULL)
    {
      fclose (f);
      return NULL;
    }
  n = fread (buf, 1, 65535, f);
  buf[n] = '\0';
  fclose (f);
  return buf;
}

/* The number after "field" at the start of a line, with an optional " kB". */
static int
field_value (const char *text, const char *field, char separator, uint64_t *value)
{
  size_t len = strlen (field);

  for (const char *line = text; line != NULL && *line != '\0';)
    {
      if (strncmp (line, field, len) == 0 && line[len] == separator)
        {
          char *end;
          unsigned long long v = strtoull (line + len + 1, &end, 10);

          if (end == line + len + 1)
            return 0;
          while (*end == ' ')
            end++;
          *value = strncmp (end, "kB", 2) == 0 ? (uint64_t) v * 1024 : (uint64_t) v;
          return 1;
        }
      line = strchr (line, '\n');
      if (line != NULL)
        line++;
    }
  return 0;
}

int
ws_hostmem_parse_meminfo (const char *meminfo, const char *field, uint64_t *bytes)
{
  return meminfo != NULL && field_value (meminfo, field, ':', bytes);
}

int
ws_hostmem_parse_cgroup (const char *max, const char *current, const char *stat,
                         uint64_t *limit, uint64_t *available)
{
  unsigned long long m, c;
  uint64_t inactive = 0, used;
  char *end;

  if (max == NULL || current == NULL || strncmp (max, "max", 3) == 0)
    return 0;
  m = strtoull (max, &end, 10);
  if (end == max)
    return 0;
  c = strtoull (current, &end, 10);
  if (end == current)
    return 0;
  /* Page cache the cgroup holds is counted in memory.current but given back under
   * pressure: its inactive part is as good as free, as for MemAvailable. */
  if (stat != NULL)
    field_value (stat, "inactive_file", ' ', &inactive);
  used = c > inactive ? c - inactive : 0;
  *limit = m;
  *available = m > used ? m - used : 0;
  return 1;
}

int
ws_hostmem_parse_cgroup_path (const char *proc_cgroup, char *path, size_t len)
{
  /* cgroup v2 is the line with hierarchy 0 and no controllers: "0::/a/b". */
  for (const char *line = proc_cgroup; line != NULL && *line != '\0';)
    {
      const char *nl = strchr (line, '\n');
      size_t n = nl != NULL ? (size_t) (nl - line) : strlen (line);

      if (n >= 3 && strncmp (line, "0::", 3) == 0 && n - 3 < len)
        {
          memcpy (path, line + 3, n - 3);
          path[n - 3] = '\0';
          return 1;
        }
      line = nl != NULL ? nl + 1 : NULL;
    }
  return 0;
}

static void
consider (WsHostmem *mem, WsHostmemLimit limit, uint64_t size, uint64_t available)
{
  if (available < mem->available)
    {
      mem->available = available;
      mem->limit = limit;
      mem->limit_bytes = size;
    }
}

/* Every cgroup from ours up to the root can limit us; the tightest counts. */
static void
query_cgroups (WsHostmem *mem)
{
  char *self = read_text ("/proc/self/cgroup");
  char rel[1024], dir[1200];

  if (self == NULL || !ws_hostmem_parse_cgroup_path (self, rel, sizeof rel))
    {
      free (self);
      return;
    }
  free (self);
  snprintf (dir, sizeof dir, "/sys/fs/cgroup%s", strcmp (rel, "/") == 0 ? "" : rel);
  for (;;)
    {
      char file[1300];
      char *max, *current, *stat;
      uint64_t limit, available;
      char *slash;

      snprintf (file, sizeof file, "%s/memory.max", dir);
      max = read_text (file);
      snprintf (file, sizeof file, "%s/memory.current", dir);
      current = read_text (file);
      snprintf (file, sizeof file, "%s/memory.stat", dir);
      stat = read_text (file);
      if (ws_hostmem_parse_cgroup (max, current, stat, &limit, &available))
        consider (mem, WS_HOSTMEM_CGROUP, limit, available);
      free (max);
      free (current);
      free (stat);
      if (strcmp (dir, "/sys/fs/cgroup") == 0 || (slash = strrchr (dir, '/')) == NULL)
        break;
      *slash = '\0';
    }
}

static void
query_rlimit (WsHostmem *mem, int resource, const char *status, const char *field,
              WsHostmemLimit limit)
{
  struct rlimit rl;
  uint64_t used = 0;

  if (getrlimit (resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return;
  if (status != NULL)
    field_value (status, field, ':', &used);
  consider (mem, limit, (uint64_t) rl.rlim_cur,
            (uint64_t) rl.rlim_cur > used ? (uint64_t) rl.rlim_cur - used : 0);
}

void
ws_hostmem_query (WsHostmem *mem)
{
  char *meminfo = read_text ("/proc/meminfo");
  char *status = read_text ("/proc/self/status");
  uint64_t available, total = 0;

  mem->available = UINT64_MAX;
  mem->limit = WS_HOSTMEM_NONE;
  mem->limit_bytes = 0;
  if (ws_hostmem_parse_meminfo (meminfo, "MemAvailable", &available))
    {
      ws_hostmem_parse_meminfo (meminfo, "MemTotal", &total);
      consider (mem, WS_HOSTMEM_MEMINFO, total, available);
    }
  query_cgroups (mem);
  query_rlimit (mem, RLIMIT_AS, status, "VmSize", WS_HOSTMEM_RLIMIT_AS);
  query_rlimit (mem, RLIMIT_DATA, status, "VmData", WS_HOSTMEM_RLIMIT_DATA);
  free (meminfo);
  free (status);
}

void
ws_hostmem_describe (const WsHostmem *mem, char *buf, size_t len)
{
  double gb = (double) mem->limit_bytes / 1e9;

  switch (mem->limit)
    {
    case WS_HOSTMEM_MEMINFO:
      snprintf (buf, len, "MemAvailable in /proc/meminfo, of %.2f GB in all", gb);
      break;
    case WS_HOSTMEM_CGROUP:
      snprintf (buf, len, "the cgroup's memory.max of %.2f GB less what the cgroup holds", gb);
      break;
    case WS_HOSTMEM_RLIMIT_AS:
      snprintf (buf, len, "the address-space limit (ulimit -v) of %.2f GB less what is mapped",
                gb);
      break;
    case WS_HOSTMEM_RLIMIT_DATA:
      snprintf (buf, len, "the data limit (ulimit -d) of %.2f GB less what is in use", gb);
      break;
    case WS_HOSTMEM_NONE:
    default:
      snprintf (buf, len, "no limit could be read");
      break;
    }
}

int
ws_hostmem_check (const WsHostmem *mem, const char *kernel, const char *size_text, uint64_t n,
                  int n_arrays, const char *kind, uint64_t arrays, uint64_t cpu_out,
                  char *message, size_t len)
{
  uint64_t needed = arrays + cpu_out, margin, usable;
  char source[200], extra[96] = "", largest[64] = "";

  if (mem->limit == WS_HOSTMEM_NONE)
    return 1;
  margin = mem->available / 20 > (256ull << 20) ? mem->available / 20 : 256ull << 20;
  usable = mem->available > margin ? mem->available - margin : 0;
  if (needed <= usable)
    return 1;
  ws_hostmem_describe (mem, source, sizeof source);
  if (cpu_out > 0)
    snprintf (extra, sizeof extra, ", and %.2f GB for the CPU baselines' output",
              (double) cpu_out / 1e9);
  if (n > 0)
    snprintf (largest, sizeof largest, "n of at most %.3g",
              (double) usable * (double) n / (double) needed);
  snprintf (message, len,
            "%s at %s%s needs %.2f GB of host memory (its %d %s %s, %.2f GB%s), but %.2f GB "
            "is available (%s): choose %s%s",
            kernel, n > 0 ? "n = " : "", size_text, (double) needed / 1e9, n_arrays, kind,
            n > 0 ? "arrays" : "matrices", (double) arrays / 1e9, extra,
            (double) mem->available / 1e9, source, n > 0 ? largest : "smaller matrices",
            cpu_out > 0 ? ", or --cpu none to leave the baselines out" : "");
  return 0;
}
