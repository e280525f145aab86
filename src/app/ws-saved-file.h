/* ws-saved-file.h: writing a file a person named, and what follows: asking before an
 * existing file is replaced, then a toast that says where it went, with Open and Show in
 * Folder (the file manager's FileManager1 interface, else the OpenURI portal, else the
 * folder opened as any other URI).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* `file` itself when it does not exist; when it does, the person is asked: replace it, keep
 * both (the file then is "name-2.ext"), or cancel (NULL). */
void ws_saved_file_confirm_async (GtkWindow *parent, GFile *file, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer data);
GFile *ws_saved_file_confirm_finish (GAsyncResult *result, GError **error);

/* "Saved speedup.svg in Pictures", with Open (chart.open-file) and Show in Folder
 * (chart.show-file), each given the file's URI; `text` (may be NULL) gets the words, which
 * the toast holds in a custom title. */
AdwToast *ws_saved_file_toast (GFile *file, char **text);

/* The file in the application that opens its type. */
void ws_saved_file_open (GtkWindow *parent, GFile *file);

typedef enum
{
  WS_SHOWN_BY_FILE_MANAGER, /* org.freedesktop.FileManager1.ShowItems: the file selected */
  WS_SHOWN_BY_PORTAL,       /* org.freedesktop.portal.OpenURI.OpenDirectory */
  WS_SHOWN_BY_LAUNCHER,     /* the folder, opened as a URI */
} WsShownBy;

/* The file's folder in the file manager, the file selected where it can be. */
void ws_saved_file_show_async (GtkWindow *parent, GFile *file, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer data);
gboolean ws_saved_file_show_finish (GAsyncResult *result, WsShownBy *shown_by, GError **error);

G_END_DECLS
