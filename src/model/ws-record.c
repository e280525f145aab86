/* ws-record.c: a small, strict JSON parser into a flat array of nodes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-record.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

typedef struct
{
  guint8 type;
  guint8 big;    /* an INT above G_MAXINT64, kept in v.u */
  guint32 pos;   /* byte offset of the value in the text */
  guint32 key;   /* offset of the member name in strings, or WS_RECORD_NONE */
  guint32 next;  /* next sibling, or WS_RECORD_NONE */
  guint32 first; /* first child of arrays and objects */
  guint32 count;
  union
  {
    gint64 i;
    guint64 u;
    double d;
    guint32 str; /* offset in strings */
    gboolean b;
  } v;
} Node;

struct _WsRecord
{
  Node *nodes;
  guint32 n_nodes, cap_nodes;
  char *strings;
  guint32 n_strings, cap_strings;
};

typedef struct
{
  WsRecord *r;
  const char *start, *p, *end;
  const char *error;
} Parser;

static guint32
new_node (Parser *ps, WsRecordType type)
{
  WsRecord *r = ps->r;

  if (r->n_nodes == r->cap_nodes)
    {
      r->cap_nodes = r->cap_nodes ? 2 * r->cap_nodes : 32;
      r->nodes = g_renew (Node, r->nodes, r->cap_nodes);
    }
  memset (&r->nodes[r->n_nodes], 0, sizeof (Node));
  r->nodes[r->n_nodes].type = type;
  r->nodes[r->n_nodes].pos = (guint32) (ps->p - ps->start);
  r->nodes[r->n_nodes].key = WS_RECORD_NONE;
  r->nodes[r->n_nodes].next = WS_RECORD_NONE;
  r->nodes[r->n_nodes].first = WS_RECORD_NONE;
  return r->n_nodes++;
}

static void
reserve_strings (WsRecord *r, gsize extra)
{
  if (r->n_strings + extra + 1 > r->cap_strings)
    {
      while (r->n_strings + extra + 1 > r->cap_strings)
        r->cap_strings = r->cap_strings ? 2 * r->cap_strings : 256;
      r->strings = g_realloc (r->strings, r->cap_strings);
    }
}

static void
skip_ws (Parser *ps)
{
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static int
hex4 (const char *p)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      int c = p[i], d;

      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        return -1;
      v = v * 16 + d;
    }
  return v;
}

/* Reads a string at p (on its opening quote) into the string arena; returns its offset. */
static gboolean
parse_string (Parser *ps, guint32 *offset)
{
  WsRecord *r = ps->r;
  const char *q;

  ps->p++; /* the quote */
  /* The common case has no escapes: copy in one go. */
  for (q = ps->p; q < ps->end && *q != '"' && *q != '\\' && (guchar) *q >= 0x20; q++)
    ;
  reserve_strings (r, (gsize) (q - ps->p));
  *offset = r->n_strings;
  memcpy (r->strings + r->n_strings, ps->p, (gsize) (q - ps->p));
  r->n_strings += (guint32) (q - ps->p);
  ps->p = q;
  while (ps->p < ps->end && *ps->p != '"')
    {
      const char *at = ps->p; /* where an error points */
      char c = *ps->p++;

      if ((guchar) c < 0x20)
        {
          ps->p = at;
          ps->error = _("a control character inside a string");
          return FALSE;
        }
      if (c != '\\')
        {
          reserve_strings (r, 1);
          r->strings[r->n_strings++] = c;
          continue;
        }
      if (ps->p >= ps->end)
        break;
      c = *ps->p++;
      reserve_strings (r, 4);
      switch (c)
        {
        case '"': case '\\': case '/': r->strings[r->n_strings++] = c; break;
        case 'b': r->strings[r->n_strings++] = '\b'; break;
        case 'f': r->strings[r->n_strings++] = '\f'; break;
        case 'n': r->strings[r->n_strings++] = '\n'; break;
        case 'r': r->strings[r->n_strings++] = '\r'; break;
        case 't': r->strings[r->n_strings++] = '\t'; break;
        case 'u':
          {
            int cp = ps->end - ps->p >= 4 ? hex4 (ps->p) : -1;

            if (cp < 0)
              {
                ps->p = at;
                ps->error = _("a bad \\u escape");
                return FALSE;
              }
            ps->p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && ps->end - ps->p >= 6 && ps->p[0] == '\\'
                && ps->p[1] == 'u')
              {
                int lo = hex4 (ps->p + 2);

                if (lo >= 0xDC00 && lo <= 0xDFFF)
                  {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    ps->p += 6;
                  }
              }
            /* Half a character cannot be kept as UTF-8: the string would not be text. */
            if (cp >= 0xD800 && cp <= 0xDFFF)
              {
                ps->p = at;
                ps->error = _("a \\u escape of half a character (an unpaired surrogate)");
                return FALSE;
              }
            r->n_strings += (guint32) g_unichar_to_utf8 ((gunichar) cp, r->strings + r->n_strings);
            break;
          }
        default:
          ps->p = at;
          ps->error = _("an unknown escape");
          return FALSE;
        }
    }
  if (ps->p >= ps->end)
    {
      ps->error = _("a string that does not end");
      return FALSE;
    }
  ps->p++;
  reserve_strings (r, 1);
  r->strings[r->n_strings++] = '\0';
  return TRUE;
}

/* A number as RFC 8259 spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
parse_number (Parser *ps, guint32 node)
{
  const char *q = ps->p;
  gboolean integer = TRUE, negative = FALSE, overflow = FALSE;
  guint64 v = 0;

  if (*q == '-')
    negative = TRUE, q++;
  if (q >= ps->end || !g_ascii_isdigit (*q))
    {
      /* The words JavaScript prints for these; JSON has none (the runner writes null). */
      if ((gsize) (ps->end - q) >= 3 && (memcmp (q, "NaN", 3) == 0 || memcmp (q, "Inf", 3) == 0))
        ps->error = _("NaN and Infinity are not JSON numbers (write null)");
      else
        ps->error = _("a malformed number");
      return FALSE;
    }
  if (*q == '0' && q + 1 < ps->end && g_ascii_isdigit (q[1]))
    {
      ps->p = q + 1;
      ps->error = _("a malformed number");
      return FALSE;
    }
  for (; q < ps->end && g_ascii_isdigit (*q); q++)
    {
      guint digit = (guint) (*q - '0');

      if (v > (G_MAXUINT64 - digit) / 10)
        overflow = TRUE;
      v = v * 10 + digit;
    }
  if (q < ps->end && *q == '.')
    {
      integer = FALSE;
      if (++q >= ps->end || !g_ascii_isdigit (*q))
        {
          ps->p = q;
          ps->error = _("a malformed number");
          return FALSE;
        }
      while (q < ps->end && g_ascii_isdigit (*q))
        q++;
    }
  if (q < ps->end && (*q == 'e' || *q == 'E'))
    {
      integer = FALSE;
      if (++q < ps->end && (*q == '+' || *q == '-'))
        q++;
      if (q >= ps->end || !g_ascii_isdigit (*q))
        {
          ps->p = q;
          ps->error = _("a malformed number");
          return FALSE;
        }
      while (q < ps->end && g_ascii_isdigit (*q))
        q++;
    }
  if (integer && !overflow && (!negative || v <= (guint64) G_MAXINT64 + 1))
    {
      Node *n = &ps->r->nodes[node];

      n->type = WS_RECORD_INT;
      if (negative)
        n->v.i = v == (guint64) G_MAXINT64 + 1 ? G_MININT64 : -(gint64) v;
      else if (v > (guint64) G_MAXINT64)
        n->v.u = v, n->big = TRUE;
      else
        n->v.i = (gint64) v;
      ps->p = q;
      return TRUE;
    }
  {
    char stack[64];
    g_autofree char *heap = NULL;
    char *buf = stack;
    gsize n = (gsize) (q - ps->p);
    double d;

    /* No digit is dropped, however many there are. */
    if (n >= sizeof stack)
      buf = heap = g_malloc (n + 1);
    memcpy (buf, ps->p, n);
    buf[n] = '\0';
    d = g_ascii_strtod (buf, NULL);
    if (!isfinite (d))
      {
        ps->error = _("a number too large to hold (beyond ±1.8e308)");
        return FALSE;
      }
    ps->r->nodes[node].type = WS_RECORD_DOUBLE;
    ps->r->nodes[node].v.d = d;
    ps->p = q;
    return TRUE;
  }
}

static gboolean
match (Parser *ps, const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (ps->end - ps->p) < n || memcmp (ps->p, word, n) != 0)
    return FALSE;
  ps->p += n;
  return TRUE;
}

static gboolean parse_value (Parser *ps, guint32 *out, int depth);

static gboolean
parse_container (Parser *ps, guint32 node, gboolean object, int depth)
{
  guint32 last = WS_RECORD_NONE;
  char close = object ? '}' : ']';

  ps->p++;
  skip_ws (ps);
  if (ps->p < ps->end && *ps->p == close)
    {
      ps->p++;
      return TRUE;
    }
  for (;;)
    {
      guint32 key = WS_RECORD_NONE, child;

      skip_ws (ps);
      if (object)
        {
          if (ps->p >= ps->end || *ps->p != '"')
            {
              ps->error = _("a member name in quotes was expected");
              return FALSE;
            }
          if (!parse_string (ps, &key))
            return FALSE;
          skip_ws (ps);
          if (ps->p >= ps->end || *ps->p != ':')
            {
              ps->error = _("':' was expected after a member name");
              return FALSE;
            }
          ps->p++;
        }
      if (!parse_value (ps, &child, depth + 1))
        return FALSE;
      ps->r->nodes[child].key = key;
      if (last == WS_RECORD_NONE)
        ps->r->nodes[node].first = child;
      else
        ps->r->nodes[last].next = child;
      last = child;
      ps->r->nodes[node].count++;
      skip_ws (ps);
      if (ps->p < ps->end && *ps->p == ',')
        {
          ps->p++;
          continue;
        }
      if (ps->p < ps->end && *ps->p == close)
        {
          ps->p++;
          return TRUE;
        }
      ps->error = object ? _("',' or '}' was expected") : _("',' or ']' was expected");
      return FALSE;
    }
}

static gboolean
parse_value (Parser *ps, guint32 *out, int depth)
{
  guint32 node;

  skip_ws (ps);
  if (ps->p >= ps->end)
    {
      ps->error = _("a value was expected");
      return FALSE;
    }
  switch (*ps->p)
    {
    case '{':
    case '[':
      /* The depth is bounded so that this recursion is: 64 frames of a few dozen bytes. */
      G_STATIC_ASSERT (WS_RECORD_MAX_DEPTH == 64);
      if (depth >= WS_RECORD_MAX_DEPTH)
        {
          ps->error = _("values nested deeper than 64 levels");
          return FALSE;
        }
      node = new_node (ps, *ps->p == '{' ? WS_RECORD_OBJECT : WS_RECORD_ARRAY);
      *out = node;
      return parse_container (ps, node, *ps->p == '{', depth);
    case '"':
      node = new_node (ps, WS_RECORD_STRING);
      *out = node;
      return parse_string (ps, &ps->r->nodes[node].v.str);
    case 't':
    case 'f':
      node = new_node (ps, WS_RECORD_BOOL);
      *out = node;
      ps->r->nodes[node].v.b = *ps->p == 't';
      if (match (ps, "true") || match (ps, "false"))
        return TRUE;
      break;
    case 'n':
      node = new_node (ps, WS_RECORD_NULL);
      *out = node;
      if (match (ps, "null"))
        return TRUE;
      break;
    default:
      node = new_node (ps, WS_RECORD_INT);
      *out = node;
      return parse_number (ps, node);
    }
  ps->error = _("an unexpected word");
  return FALSE;
}

WsRecord *
ws_record_parse (const char *text, gsize length, guint *column, GError **error)
{
  WsRecord *r = g_new0 (WsRecord, 1);
  Parser ps = { r, text, text, text + length, NULL };
  const char *bad_utf8 = NULL;
  guint32 root;

  if (!g_utf8_validate (text, (gssize) length, &bad_utf8))
    {
      ps.p = bad_utf8;
      ps.error = bad_utf8 < ps.end && *bad_utf8 == '\0' ? _("a NUL byte: binary data, not text")
                                                          : _("bytes that are not UTF-8");
    }
  else if (parse_value (&ps, &root, 0))
    {
      skip_ws (&ps);
      if (ps.p == ps.end)
        return r;
      ps.error = _("more text after the value");
    }
  if (column != NULL)
    *column = (guint) (ps.p - ps.start) + 1;
  g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_PARSE, _("column %u: %s"),
               (guint) (ps.p - ps.start) + 1, ps.error);
  ws_record_free (r);
  return NULL;
}

void
ws_record_free (WsRecord *r)
{
  if (r == NULL)
    return;
  g_free (r->nodes);
  g_free (r->strings);
  g_free (r);
}

WsRecordType
ws_record_type (const WsRecord *r, WsRecordNode node)
{
  if (node >= r->n_nodes)
    return WS_RECORD_NULL;
  return r->nodes[node].type;
}

WsRecordNode
ws_record_member (const WsRecord *r, WsRecordNode object, const char *name)
{
  WsRecordNode found = WS_RECORD_NONE;

  if (object >= r->n_nodes || r->nodes[object].type != WS_RECORD_OBJECT)
    return WS_RECORD_NONE;
  /* A name given twice means its last value, as the reader's fast path takes it. */
  for (guint32 c = r->nodes[object].first; c != WS_RECORD_NONE; c = r->nodes[c].next)
    if (strcmp (r->strings + r->nodes[c].key, name) == 0)
      found = c;
  return found;
}

guint
ws_record_length (const WsRecord *r, WsRecordNode array)
{
  if (array >= r->n_nodes || r->nodes[array].type != WS_RECORD_ARRAY)
    return 0;
  return r->nodes[array].count;
}

WsRecordNode
ws_record_element (const WsRecord *r, WsRecordNode array, guint index)
{
  guint32 c;

  if (array >= r->n_nodes || r->nodes[array].type != WS_RECORD_ARRAY)
    return WS_RECORD_NONE;
  for (c = r->nodes[array].first; c != WS_RECORD_NONE && index > 0; c = r->nodes[c].next)
    index--;
  return c;
}

/* A double truncated to an integer, when gint64 holds that: converting any other (1e300,
 * NaN) is undefined behaviour in C. */
static gboolean
truncate_double (double d, gint64 *out)
{
  /* -2^63 and 2^63 are exact doubles; the range is half-open at the top. */
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return FALSE;
  *out = (gint64) d;
  return TRUE;
}

gboolean
ws_record_node_int (const WsRecord *r, WsRecordNode node, gint64 *out)
{
  const Node *n;

  if (node >= r->n_nodes)
    return FALSE;
  n = &r->nodes[node];
  switch (n->type)
    {
    case WS_RECORD_INT:
      if (n->big)
        return FALSE;
      *out = n->v.i;
      return TRUE;
    case WS_RECORD_DOUBLE:
      return truncate_double (n->v.d, out);
    case WS_RECORD_BOOL:
      *out = n->v.b;
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
ws_record_node_double (const WsRecord *r, WsRecordNode node, double *out)
{
  const Node *n;

  if (node >= r->n_nodes)
    return FALSE;
  n = &r->nodes[node];
  if (n->type == WS_RECORD_INT)
    *out = n->big ? (double) n->v.u : (double) n->v.i;
  else if (n->type == WS_RECORD_DOUBLE)
    *out = n->v.d;
  else
    return FALSE;
  return TRUE;
}

guint
ws_record_offset (const WsRecord *r, WsRecordNode node)
{
  return node < r->n_nodes ? r->nodes[node].pos : 0;
}

WsRecordNode
ws_record_first_child (const WsRecord *r, WsRecordNode node)
{
  if (node >= r->n_nodes
      || (r->nodes[node].type != WS_RECORD_ARRAY && r->nodes[node].type != WS_RECORD_OBJECT))
    return WS_RECORD_NONE;
  return r->nodes[node].first;
}

WsRecordNode
ws_record_next_sibling (const WsRecord *r, WsRecordNode node)
{
  return node < r->n_nodes ? r->nodes[node].next : WS_RECORD_NONE;
}

const char *
ws_record_key (const WsRecord *r, WsRecordNode node)
{
  if (node >= r->n_nodes || r->nodes[node].key == WS_RECORD_NONE)
    return NULL;
  return r->strings + r->nodes[node].key;
}

gint64
ws_record_int (const WsRecord *r, WsRecordNode object, const char *name, gint64 fallback)
{
  gint64 v;

  return ws_record_node_int (r, ws_record_member (r, object, name), &v) ? v : fallback;
}

guint64
ws_record_uint (const WsRecord *r, WsRecordNode object, const char *name, guint64 fallback)
{
  WsRecordNode n = ws_record_member (r, object, name);
  gint64 v;

  if (n != WS_RECORD_NONE && r->nodes[n].type == WS_RECORD_INT && r->nodes[n].big)
    return r->nodes[n].v.u;
  return ws_record_node_int (r, n, &v) && v >= 0 ? (guint64) v : fallback;
}

double
ws_record_double (const WsRecord *r, WsRecordNode object, const char *name, double fallback)
{
  double v;

  return ws_record_node_double (r, ws_record_member (r, object, name), &v) ? v : fallback;
}

gboolean
ws_record_bool (const WsRecord *r, WsRecordNode object, const char *name, gboolean fallback)
{
  WsRecordNode n = ws_record_member (r, object, name);

  return n != WS_RECORD_NONE && r->nodes[n].type == WS_RECORD_BOOL ? r->nodes[n].v.b : fallback;
}

const char *
ws_record_string (const WsRecord *r, WsRecordNode object, const char *name)
{
  WsRecordNode n = ws_record_member (r, object, name);

  return n != WS_RECORD_NONE && r->nodes[n].type == WS_RECORD_STRING ? r->strings + r->nodes[n].v.str
                                                                      : NULL;
}

WsRecordNode
ws_record_object (const WsRecord *r, WsRecordNode object, const char *name)
{
  WsRecordNode n = ws_record_member (r, object, name);

  return n != WS_RECORD_NONE && r->nodes[n].type == WS_RECORD_OBJECT ? n : WS_RECORD_NONE;
}

guint
ws_record_ints (const WsRecord *r, WsRecordNode object, const char *name, gint64 *out, guint n)
{
  WsRecordNode a = ws_record_member (r, object, name);
  guint count = 0;

  if (a == WS_RECORD_NONE || r->nodes[a].type != WS_RECORD_ARRAY)
    return 0;
  for (guint32 c = r->nodes[a].first; c != WS_RECORD_NONE && count < n; c = r->nodes[c].next)
    {
      gint64 v;

      out[count++] = r->nodes[c].type != WS_RECORD_BOOL && ws_record_node_int (r, c, &v) ? v : 0;
    }
  return count;
}

char **
ws_record_dup_strings (const WsRecord *r, WsRecordNode object, const char *name)
{
  WsRecordNode a = ws_record_member (r, object, name);
  GPtrArray *strings = g_ptr_array_new ();

  if (a != WS_RECORD_NONE && r->nodes[a].type == WS_RECORD_ARRAY)
    for (guint32 c = r->nodes[a].first; c != WS_RECORD_NONE; c = r->nodes[c].next)
      if (r->nodes[c].type == WS_RECORD_STRING)
        g_ptr_array_add (strings, g_strdup (r->strings + r->nodes[c].v.str));
  g_ptr_array_add (strings, NULL);
  return (char **) g_ptr_array_free (strings, FALSE);
}
