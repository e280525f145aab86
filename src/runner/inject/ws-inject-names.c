/* ws-inject-names.c: kernel, range and domain names kept for as long as the trace lives.
 * CUPTI's records point at names it owns; the buffer callback swaps them for interned copies,
 * so a record read later never points at a name CUPTI has freed, and the writer demangles
 * each distinct name once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct WsName WsName;
struct WsName
{
  WsName *next;      /* in its hash bucket */
  uint64_t hash;
  char *demangled;   /* writer only */
  int tried;         /* writer only: demangling was attempted */
  char text[];
};

#define BUCKETS 4096  /* a power of two */
#define RECENT 256    /* a power of two */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static WsName *buckets[BUCKETS];
/* CUPTI hands the same pointer for every record of a kernel: remember the last few pointers,
 * checked against the text, which is cheaper than hashing it again. */
static struct
{
  const char *from;
  WsName *name;
} recent[RECENT];

static uint64_t
hash_string (const char *s, size_t *len)
{
  uint64_t h = 1469598103934665603ull;
  const unsigned char *p = (const unsigned char *) s;

  for (; *p; p++)
    h = (h ^ *p) * 1099511628211ull;
  *len = (size_t) (p - (const unsigned char *) s);
  return h;
}

const char *
_ws_name_intern (const char *s)
{
  size_t slot, len;
  uint64_t h;
  WsName *n;

  if (s == NULL)
    return NULL;
  slot = ((uintptr_t) s >> 4) & (RECENT - 1);
  pthread_mutex_lock (&lock);
  if (recent[slot].from == s && strcmp (recent[slot].name->text, s) == 0)
    {
      n = recent[slot].name;
      pthread_mutex_unlock (&lock);
      return n->text;
    }
  h = hash_string (s, &len);
  for (n = buckets[h & (BUCKETS - 1)]; n != NULL; n = n->next)
    if (n->hash == h && strcmp (n->text, s) == 0)
      break;
  if (n == NULL)
    {
      n = malloc (sizeof *n + len + 1);
      if (n == NULL)
        {
          pthread_mutex_unlock (&lock);
          return NULL;
        }
      memcpy (n->text, s, len + 1);
      n->hash = h;
      n->demangled = NULL;
      n->tried = 0;
      n->next = buckets[h & (BUCKETS - 1)];
      buckets[h & (BUCKETS - 1)] = n;
    }
  recent[slot].from = s;
  recent[slot].name = n;
  pthread_mutex_unlock (&lock);
  return n->text;
}

typedef char *(*DemangleFunc) (const char *, char *, size_t *, int *);

/* The C++ ABI's demangler, from the libstdc++ the program already has, else loaded for it
 * (a CUDA program written in C, or Python without C++ extensions, has none loaded). */
static DemangleFunc
demangler (void)
{
  static DemangleFunc func;
  static int looked;

  if (!looked)
    {
      void *lib;

      looked = 1;
      *(void **) &func = dlsym (RTLD_DEFAULT, "__cxa_demangle");
      if (func == NULL && (lib = dlopen ("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL)) != NULL)
        *(void **) &func = dlsym (lib, "__cxa_demangle");
    }
  return func;
}

void
_ws_names_init (void)
{
  demangler ();
}

const char *
_ws_name_demangled (const char *interned)
{
  WsName *n;

  if (interned == NULL)
    return NULL;
  n = (WsName *) (void *) (interned - offsetof (WsName, text));
  if (!n->tried)
    {
      DemangleFunc demangle = demangler ();
      int status = -1;

      n->tried = 1;
      /* Only names in the Itanium C++ ABI's mangling: a C kernel ("scale") or a library's
         own name ("sm90_xmma_gemm_…") stays as it is. */
      if (demangle != NULL && interned[0] == '_' && interned[1] == 'Z')
        {
          char *d = demangle (interned, NULL, NULL, &status);

          if (status == 0 && d != NULL && strcmp (d, interned) != 0)
            n->demangled = d;
          else
            free (d);
        }
    }
  return n->demangled;
}
