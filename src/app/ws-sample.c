/* ws-sample.c: the bundled recordings, titled and in order.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-sample.h"

#include <glib/gi18n.h>

#include "ws-label.h"

struct _WsSample
{
  GObject parent_instance;
  char *file_name;
  char *path;
  char *title;
  guint rank;
  WsSampleGroup group;
};

G_DEFINE_FINAL_TYPE (WsSample, ws_sample, G_TYPE_OBJECT)

/* The bundled recordings in the order a class meets them: the tutorial's own kernels first,
 * then the ladders, the programs traced, and kernels of one's own; with titles a student
 * reads. Each group's titles are short: its heading says the rest. */
static const struct
{
  const char *stem;
  const char *title;
} known_samples[] = {
  { "vector-add-sizes", N_("Vector add over sizes") },
  { "vector-add-blocks", N_("Vector add over block sizes") },
  { "matmul-sizes", N_("Matrix multiply over sizes, naive and tiled") },
  { "matmul-naive-blocks", N_("Naive matrix multiply over 2D blocks") },
  { "vector-add-ladder", N_("Vector add ladder") },
  { "matmul-ladder", N_("Matrix multiply ladder, up to cuBLAS") },
  { "reduce-ladder", N_("Sum ladder, from atomics to warp shuffles") },
  { "transpose-ladder", N_("Transpose ladder: coalescing and bank conflicts") },
  { "divergence", N_("Warp divergence") },
  { "vector-add-streams", N_("Vector add, copies hidden by streams") },
  { "matmul-streams", N_("Matrix multiply, copies hidden by streams") },
  { "transpose-streams", N_("Transpose, copies hidden by streams") },
  /* Programs traced as they are (warpscope-cli trace): the tutorial's, then another's. */
  { "trace-vector-add", N_("The tutorial's vector add, traced as written") },
  { "trace-vector-add-advised", N_("The tutorial's vector add, changed as its findings advise") },
  { "trace-matmul-tiled", N_("The tutorial's tiled matrix multiply, traced") },
  { "trace-vector-add-tpb-sweep", N_("The tutorial's vector add traced over threads per block") },
  { "trace-torch-matmul", N_("A PyTorch matrix multiply, traced") },
  /* Kernels of one's own (run --source): the examples of docs/own-kernels.md. */
  { "own-vector-add", N_("Vector add over sizes and blocks") },
  { "own-matmul-tiled", N_("Tiled matrix multiply over TILE") },
  { "own-stencil2d", N_("2D stencil over the block and TILE_Y") },
  { "own-kernel-tuner-vector-add", N_("A Kernel Tuner kernel with only a header added") },
  { "own-vector-add-oob-memcheck", N_("A missing bounds guard, caught by memcheck") },
};

static const char *const group_titles[WS_N_SAMPLE_GROUPS] = {
  [WS_SAMPLE_BUILT_IN] = N_("Warpscope's kernels"),
  [WS_SAMPLE_TRACED] = N_("Programs traced as they are"),
  [WS_SAMPLE_OWN] = N_("Your own kernel"),
};

const char *
ws_sample_group_title (WsSampleGroup group)
{
  g_return_val_if_fail ((guint) group < WS_N_SAMPLE_GROUPS, NULL);
  return _(group_titles[group]);
}

WsSample *
ws_sample_new (const char *dir, const char *file_name)
{
  g_autofree char *stem = NULL, *kind = NULL, *upper = NULL;
  g_auto (GStrv) words = NULL;
  WsSample *self;
  GString *s = g_string_new (NULL);
  guint n;
  gboolean device;

  g_return_val_if_fail (g_str_has_suffix (file_name, ".jsonl"), NULL);
  stem = g_strndup (file_name, strlen (file_name) - strlen (".jsonl"));
  words = g_strsplit_set (stem, "-_", -1);
  n = g_strv_length (words);
  /* The last word names the GPU when it is a letter and then a digit: "h200". */
  device = n > 1 && g_ascii_isalpha (words[n - 1][0])
           && g_ascii_isdigit (words[n - 1][strlen (words[n - 1]) - 1]);
  if (device)
    {
      upper = g_ascii_strup (words[n - 1], -1);
      g_clear_pointer (&words[n - 1], g_free);
    }
  kind = g_strjoinv ("-", words);
  self = g_object_new (WS_TYPE_SAMPLE, NULL);
  /* The runner's own kernels unless the name says otherwise, as the recording scripts name
   * them (tests/gpu/record-*.sh). */
  self->group = g_str_has_prefix (kind, "trace-") ? WS_SAMPLE_TRACED
                : g_str_has_prefix (kind, "own-") ? WS_SAMPLE_OWN
                                                  : WS_SAMPLE_BUILT_IN;
  self->file_name = g_strdup (file_name);
  self->path = g_build_filename (dir, file_name, NULL);
  self->rank = G_N_ELEMENTS (known_samples);
  for (guint i = 0; i < G_N_ELEMENTS (known_samples); i++)
    if (g_str_equal (kind, known_samples[i].stem))
      {
        self->rank = i;
        g_string_append (s, _(known_samples[i].title));
      }
  if (s->len == 0 && *kind != '\0')
    {
      g_string_append (s, kind);
      g_strdelimit (s->str, "-_", ' ');
      s->str[0] = g_ascii_toupper (s->str[0]);
    }
  if (device)
    g_string_append_printf (s, " (%s)", upper);
  self->title = g_string_free (s, FALSE);
  return self;
}

const char *
ws_sample_get_title (WsSample *self)
{
  g_return_val_if_fail (WS_IS_SAMPLE (self), NULL);
  return self->title;
}

const char *
ws_sample_get_path (WsSample *self)
{
  g_return_val_if_fail (WS_IS_SAMPLE (self), NULL);
  return self->path;
}

WsSampleGroup
ws_sample_get_group (WsSample *self)
{
  g_return_val_if_fail (WS_IS_SAMPLE (self), WS_SAMPLE_BUILT_IN);
  return self->group;
}

static int
compare_samples (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsSample *x = a, *y = b;

  /* Groups first, so that a recording this version does not know joins its own. */
  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return g_strcmp0 (x->file_name, y->file_name);
}

GListModel *
ws_sample_list_new (const char *dir)
{
  GListStore *store = g_list_store_new (WS_TYPE_SAMPLE);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".jsonl"))
      {
        g_autoptr (WsSample) sample = ws_sample_new (dir, name);

        g_list_store_insert_sorted (store, sample, compare_samples, NULL);
      }
  return G_LIST_MODEL (store);
}

void
ws_sample_list_fill_menu (GListModel *samples, GMenu *menu)
{
  GMenu *section = NULL; /* held by `menu` */
  int group = -1;

  for (guint i = 0; i < g_list_model_get_n_items (samples); i++)
    {
      g_autoptr (WsSample) sample = g_list_model_get_item (samples, i);
      g_autofree char *label = ws_label_menu_text (sample->title);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      /* The list is sorted by group: each group is a submenu of its own. As sections of one
       * page, the 22 recordings made a menu taller than a projector's 768 pixels. */
      if ((int) sample->group != group)
        {
          g_autoptr (GMenu) next = g_menu_new ();

          group = (int) sample->group;
          g_menu_append_submenu (menu, ws_sample_group_title (sample->group),
                                 G_MENU_MODEL (next));
          section = next;
        }
      g_menu_item_set_action_and_target (item, "win.open-sample", "s", sample->path);
      g_menu_append_item (section, item);
    }
}

static void
ws_sample_finalize (GObject *object)
{
  WsSample *self = WS_SAMPLE (object);

  g_free (self->file_name);
  g_free (self->path);
  g_free (self->title);
  G_OBJECT_CLASS (ws_sample_parent_class)->finalize (object);
}

static void
ws_sample_class_init (WsSampleClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_sample_finalize;
}

static void
ws_sample_init (WsSample *self)
{
}
