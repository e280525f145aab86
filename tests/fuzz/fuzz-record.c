/* fuzz-record.c: the record parser (ws_record_parse) and every accessor over the tree it
 * builds, walked without recursion, with the protocol's keys and the record's own.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-support.h"

#include <string.h>

#include "ws-record.h"

/* Keys the protocol's records use (docs/protocol.md), and one that none does. */
static const char *const keys[] = {
  "type", "t", "run", "id", "kind", "name", "start", "end", "bytes", "grid", "block",
  "stream", "protocol", "timing", "kernel", "median", "min", "max", "seed", "pass",
  "occupancy", "registers", "threads", "shape", "params", "cpu", "exit_code", "", "nope",
};

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  ws_fuzz_init_glib ();
  return 0;
}

static void
visit (const WsRecord *r, WsRecordNode node, size_t size)
{
  WsRecordType type = ws_record_type (r, node);
  gint64 i;
  double d;

  g_assert (ws_record_offset (r, node) < size);
  switch (type)
    {
    case WS_RECORD_BOOL:
      g_assert (ws_record_node_int (r, node, &i) && (i == 0 || i == 1));
      g_assert (!ws_record_node_double (r, node, &d));
      break;
    case WS_RECORD_INT:
    case WS_RECORD_DOUBLE:
      g_assert (ws_record_node_double (r, node, &d));
      /* A double gint64 holds truncates to within 1 of itself. */
      if (ws_record_node_int (r, node, &i) && type == WS_RECORD_DOUBLE)
        g_assert (d - (double) i < 1.0 && (double) i - d < 1.0);
      break;
    default:
      g_assert (!ws_record_node_int (r, node, &i));
      g_assert (!ws_record_node_double (r, node, &d));
      break;
    }

  if (type == WS_RECORD_ARRAY)
    {
      guint n = ws_record_length (r, node), counted = 0;

      for (WsRecordNode c = ws_record_first_child (r, node); c != WS_RECORD_NONE;
           c = ws_record_next_sibling (r, c))
        {
          g_assert (ws_record_element (r, node, counted) == c);
          g_assert (ws_record_key (r, c) == NULL);
          counted++;
        }
      g_assert_cmpuint (counted, ==, n);
      g_assert (ws_record_element (r, node, n) == WS_RECORD_NONE);
    }
  else if (type == WS_RECORD_OBJECT)
    {
      gint64 ints[3];

      for (WsRecordNode c = ws_record_first_child (r, node); c != WS_RECORD_NONE;
           c = ws_record_next_sibling (r, c))
        {
          const char *key = ws_record_key (r, c);
          WsRecordNode found;

          g_assert (key != NULL);
          found = ws_record_member (r, node, key);
          /* The last member of that name: this one, or a later one. */
          g_assert (found != WS_RECORD_NONE);
          g_assert (found >= c);
        }
      for (gsize k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          const char *s = ws_record_string (r, node, keys[k]);

          ws_record_int (r, node, keys[k], -1);
          ws_record_uint (r, node, keys[k], 1);
          ws_record_double (r, node, keys[k], 0.5);
          ws_record_bool (r, node, keys[k], TRUE);
          ws_record_object (r, node, keys[k]);
          g_assert (ws_record_ints (r, node, keys[k], ints, 3) <= 3);
          if (s != NULL)
            (void) strlen (s);
        }
    }
  else
    {
      g_assert (ws_record_first_child (r, node) == WS_RECORD_NONE);
      if (type == WS_RECORD_STRING)
        ws_record_string (r, node, "type");
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (WsRecord) r = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) stack = NULL;
  guint column = 0;

  r = ws_record_parse ((const char *) data, size, &column, &error);
  if (r == NULL)
    {
      g_assert (error != NULL);
      g_assert_cmpuint (column, >=, 1);
      g_assert_cmpuint (column, <=, size + 1);
      return 0;
    }
  g_assert_no_error (error);

  /* Depth first with a stack of our own: the tree may be WS_RECORD_MAX_DEPTH deep. */
  stack = g_array_new (FALSE, FALSE, sizeof (WsRecordNode));
  g_array_append_val (stack, (WsRecordNode) { WS_RECORD_ROOT });
  while (stack->len > 0)
    {
      WsRecordNode node = g_array_index (stack, WsRecordNode, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      visit (r, node, size);
      for (WsRecordNode c = ws_record_first_child (r, node); c != WS_RECORD_NONE;
           c = ws_record_next_sibling (r, c))
        g_array_append_val (stack, c);
      g_assert_cmpuint (stack->len, <=, size + 1);
    }
  return 0;
}
