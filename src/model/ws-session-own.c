/* ws-session-own.c: an own kernel's records in a session: its compiles, the findings of a
 * memory check, and the kernel file's text, kept so that a recording reopens with the code
 * that ran (docs/own-kernels.md, docs/protocol.md).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-protocol.h"
#include "ws-record.h"

static void
compile_info_free (WsCompileInfo *c)
{
  g_free (c->kernel);
  g_free (c->entry);
  g_free (c->lowered);
  g_free (c->arch);
  g_free (c->nvrtc);
  g_free (c->log);
  g_free (c->params);
  g_free (c);
}

static void
finding_free (WsMemcheckFinding *f)
{
  g_free (f->tool);
  g_free (f->kind);
  g_free (f->message);
  g_free (f->file);
  g_free (f->kernel);
  g_free (f->access);
  g_free (f->space);
  g_free (f->address);
  g_free (f->detail);
  g_free (f);
}

void
_ws_session_init_own (WsSession *self)
{
  self->compiles = g_ptr_array_new_with_free_func ((GDestroyNotify) compile_info_free);
  self->findings = g_ptr_array_new_with_free_func ((GDestroyNotify) finding_free);
}

void
_ws_session_finalize_own (WsSession *self)
{
  g_clear_pointer (&self->compiles, g_ptr_array_unref);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->source_text, g_free);
  g_clear_pointer (&self->source_path, g_free);
  g_clear_pointer (&self->source_hash, g_free);
}

static char *
dup_string (const WsRecord *r, const char *name)
{
  return g_strdup (ws_record_string (r, WS_RECORD_ROOT, name));
}

/* {"TILE": 16} as "TILE=16", as runs give theirs. */
static char *
params_text (const WsRecord *r)
{
  WsRecordNode po = ws_record_object (r, WS_RECORD_ROOT, WS_KEY_PARAMS);
  GString *text = g_string_new (NULL);

  for (WsRecordNode n = po == WS_RECORD_NONE ? WS_RECORD_NONE : ws_record_first_child (r, po);
       n != WS_RECORD_NONE; n = ws_record_next_sibling (r, n))
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];
      double d;

      if (!ws_record_node_double (r, n, &d))
        continue;
      g_ascii_formatd (number, sizeof number, "%.10g", d);
      g_string_append_printf (text, "%s%s=%s", text->len ? ", " : "", ws_record_key (r, n),
                              number);
    }
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

static void
read_triple (const WsRecord *r, const char *name, guint out[3])
{
  gint64 v[3] = { 0, 0, 0 };

  ws_record_ints (r, WS_RECORD_ROOT, name, v, 3);
  for (int i = 0; i < 3; i++)
    out[i] = (guint) CLAMP (v[i], 0, G_MAXUINT32);
}

gboolean
_ws_session_read_own (WsSession *self, const WsRecord *r, const char *type)
{
  WsRecordNode o = WS_RECORD_ROOT;

  if (g_str_equal (type, WS_RECORD_TYPE_COMPILE))
    {
      WsCompileInfo *c = g_new0 (WsCompileInfo, 1);

      c->kernel = dup_string (r, WS_KEY_KERNEL);
      c->entry = dup_string (r, WS_KEY_ENTRY);
      c->lowered = dup_string (r, WS_KEY_LOWERED);
      c->arch = dup_string (r, WS_KEY_ARCH);
      c->nvrtc = dup_string (r, WS_KEY_NVRTC);
      c->log = dup_string (r, WS_KEY_LOG);
      c->params = params_text (r);
      c->ok = ws_record_bool (r, o, WS_KEY_OK, FALSE);
      c->cached = ws_record_bool (r, o, WS_KEY_CACHED, FALSE);
      c->reference = ws_record_bool (r, o, WS_KEY_REFERENCE, FALSE);
      c->ms = ws_record_double (r, o, WS_KEY_MS, 0);
      c->errors = (int) ws_record_int (r, o, WS_KEY_ERRORS, 0);
      c->warnings = (int) ws_record_int (r, o, WS_KEY_WARNINGS, 0);
      g_ptr_array_add (self->compiles, c);
      return TRUE;
    }
  if (g_str_equal (type, WS_RECORD_TYPE_MEMCHECK))
    {
      WsMemcheckFinding *f = g_new0 (WsMemcheckFinding, 1);

      f->tool = dup_string (r, WS_KEY_TOOL);
      f->kind = dup_string (r, WS_KEY_KIND);
      f->message = dup_string (r, WS_KEY_MESSAGE);
      f->file = dup_string (r, WS_KEY_FILE);
      f->kernel = dup_string (r, WS_KEY_KERNEL);
      f->access = dup_string (r, WS_KEY_ACCESS);
      f->space = dup_string (r, WS_KEY_SPACE);
      f->address = dup_string (r, WS_KEY_ADDRESS);
      f->detail = dup_string (r, WS_KEY_DETAIL);
      f->line = (int) ws_record_int (r, o, WS_KEY_LINE, 0);
      f->size = (int) ws_record_int (r, o, WS_KEY_SIZE, 0);
      f->count = (int) ws_record_int (r, o, WS_KEY_COUNT, 1);
      f->has_thread = ws_record_member (r, o, WS_KEY_THREAD) != WS_RECORD_NONE;
      read_triple (r, WS_KEY_THREAD, f->thread);
      read_triple (r, WS_KEY_BLOCK, f->block);
      g_ptr_array_add (self->findings, f);
      return TRUE;
    }
  if (g_str_equal (type, WS_RECORD_TYPE_SOURCE))
    {
      /* One kernel file a session; a second source record replaces the first. */
      g_free (self->source_text);
      g_free (self->source_path);
      g_free (self->source_hash);
      self->source_text = dup_string (r, WS_KEY_TEXT);
      self->source_path = dup_string (r, WS_KEY_PATH);
      self->source_hash = dup_string (r, WS_KEY_SHA256);
      return TRUE;
    }
  return FALSE;
}

GPtrArray *
ws_session_get_compiles (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->compiles;
}

GPtrArray *
ws_session_get_memcheck_findings (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->findings;
}

const char *
ws_session_get_source_text (WsSession *self, const char **path, const char **sha256)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  if (path != NULL)
    *path = self->source_path;
  if (sha256 != NULL)
    *sha256 = self->source_hash;
  return self->source_text;
}

/* "compiled 3 variants for sm_90 with NVRTC 13.0 (1 from the cache), 2 warnings" */
static char *
compiles_text (WsSession *self)
{
  const char *arch = NULL, *nvrtc = NULL;
  guint cached = 0;
  int warnings = 0;
  GString *s;

  for (guint i = 0; i < self->compiles->len; i++)
    {
      WsCompileInfo *c = g_ptr_array_index (self->compiles, i);

      arch = c->arch ? c->arch : arch;
      nvrtc = c->nvrtc ? c->nvrtc : nvrtc;
      cached += c->cached;
      warnings += c->warnings;
    }
  s = g_string_new (NULL);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                          "compiled %u variant for %s with NVRTC %s",
                                          "compiled %u variants for %s with NVRTC %s",
                                          self->compiles->len),
                          self->compiles->len, arch ? arch : "?", nvrtc ? nvrtc : "?");
  if (cached > 0)
    g_string_append_printf (s, _(" (%u from the cache)"), cached);
  if (warnings > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, ", %d warning", ", %d warnings",
                                            warnings),
                            warnings);
  return g_string_free (s, FALSE);
}

char *
ws_session_dup_clean_check_text (WsSession *self, const char *name, gboolean memcheck)
{
  g_autofree char *compiles = NULL;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL || memcheck, NULL);
  if (memcheck)
    return g_strdup (_("compute-sanitizer found no errors in this configuration."));
  compiles = compiles_text (self);
  return g_strdup_printf (_("%s: no errors; %s"), name, compiles);
}
