/* ws-i18n.h: where the programs find their translations, and whether they run from the build
 * tree.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when this program is the one built in the build tree (./dev run, the tests): then it
 * uses what was built beside it (catalogs, runner, CLI, recordings); an installed copy never
 * does, even while the build tree exists. */
gboolean ws_running_from_build_tree (void);

/* The directory holding <lang>/LC_MESSAGES/warpscope.mo: $WARPSCOPE_LOCALEDIR when set; the
 * build tree's po/ when this program is the one built there (./dev run, the tests); else the
 * installed locale directory. */
const char *ws_i18n_get_localedir (void);

/* Binds the text domain to that directory, with UTF-8 messages. Call after setlocale(). */
void ws_i18n_init (void);

/* A kernel's title or description as the runner wrote it (in English), in the reader's
 * language when the catalog has it: the kernels mark these with WS_N_. NULL and "" pass. */
const char *ws_i18n_kernel_text (const char *english);

G_END_DECLS
