/* test-errors-fixtures.h: the fixtures docs/errors.md describes, built by tests/test-errors.c
 * in a folder of its own: hostile files, sessions cut or malformed, own kernels and stand-in
 * runners.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static char *fixtures; /* the folder the rows run in */

/* Every fixture built here; docs/errors.md describes exactly these. */
static const char *const built[] = {
  "s.jsonl", "m.jsonl", "link.jsonl", "hard.jsonl", "empty.jsonl", "blank.jsonl", "text.txt",
  "no-hello.jsonl", "binary.png", "nested.jsonl", "nested-first.jsonl", "sparse.jsonl",
  "newer.jsonl", "protocol-1e300.jsonl", "truncated.jsonl", "cut.jsonl", "overlong.jsonl",
  "overlong-first.jsonl", "bad-lines.jsonl", "bad-lines-cut.jsonl", "bad-numbers.jsonl",
  "escapes.jsonl", "unreadable.jsonl", "dangling.csv", "a-folder", "locked", "vector_add.cu",
  "matmul_tiled.cu", "bad-header.cu", "no-header.cu", "runner-dies.sh", "runner-killed.sh",
  "runner-hangs.sh", "wrapper-hangs.sh", "runner-leaves-child.sh", "runner-banner.sh",
  "runner-nan.sh", "runner-endless-line.sh", "runner-stderr.sh", "runner-interrupts.sh",
  "runner-no-gpu.sh", "not-executable.sh", "padded.jsonl", "runner-banner-long.sh",
  "ladder.jsonl", "trace.jsonl", "memcheck.jsonl", "ssh", "runner-ok.sh",
  "include-parent.cu", "include-absolute.cu", "runner-takes-output.sh",
  "many-runs.jsonl", "big-targets.conf", "many-targets.conf", "bidi.jsonl", "twice.jsonl",
  "time-jump.jsonl", "time-huge.jsonl", "overflow-header.cu", NULL,
};

/* ---- the fixtures -------------------------------------------------------------------------- */

static char *
fixture (const char *name)
{
  return g_build_filename (fixtures, name, NULL);
}

static void
put (const char *name, const char *text, gssize length, int mode)
{
  g_autofree char *path = fixture (name);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, length, &error);
  g_assert_no_error (error);
  if (mode >= 0)
    g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static char *
sample_text (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* The first `n` lines of a recording. */
static char *
first_lines (const char *text, guint n)
{
  const char *p = text;

  for (guint i = 0; i < n && p != NULL; i++)
    if ((p = strchr (p, '\n')) != NULL)
      p++;
  return p != NULL ? g_strndup (text, p - text) : g_strdup (text);
}

static char *
repeat (char c, gsize n)
{
  char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return s;
}

/* A stand-in runner: `body` after "#!/bin/sh", with @DIR@ for the fixtures folder. */
static void
put_script (const char *name, const char *body, int mode)
{
  g_autoptr (GString) text = g_string_new ("#!/bin/sh\n");

  g_string_append (text, body);
  g_string_replace (text, "@DIR@", fixtures, 0);
  put (name, text->str, -1, mode);
}

/* The fixtures of the attacks on a command line, a kernel's includes, a save, sizes, text and
 * time (docs/errors.md): each the case that broke a class, or one more of it. */
static void
build_attack_fixtures (const char *vadd, const char *hello, const char *kernel)
{
  {
    /* The example with an #include after its header (line 17). */
    const char *after = strstr (kernel, "*/\n") + 3;
    g_autofree char *head_text = g_strndup (kernel, after - kernel);
    g_autofree char *parent = g_strconcat (head_text, "#include \"../secret.h\"\n", after, NULL);
    g_autofree char *absolute = g_strconcat (head_text, "#include \"/etc/passwd\"\n", after,
                                             NULL);

    put ("include-parent.cu", parent, -1, -1);
    put ("include-absolute.cu", absolute, -1, -1);
  }
  {
    /* One more run than a session holds: the first run record again and again, new ids. */
    const char *run = strstr (vadd, "{\"type\":\"run\",");
    g_autofree char *line = g_strndup (run, strchr (run, '\n') + 1 - run);
    const char *id = strstr (line, "\"id\":1,") + strlen ("\"id\":1");
    g_autofree char *before = g_strndup (line, id - 1 - line);
    g_autoptr (GString) text = g_string_new (hello);

    for (guint i = 1; i <= 50001; i++)
      g_string_append_printf (text, "%s%u%s", before, i, id);
    put ("many-runs.jsonl", text->str, text->len, -1);
  }
  {
    g_autoptr (GString) big = g_string_new ("[box]\nkind=ssh\nhost=box\n");
    g_autoptr (GString) many = g_string_new (NULL);

    while (big->len < 2 * 1024 * 1024)
      g_string_append (big, "# a line that is not a target, in a file of saved targets\n");
    put ("big-targets.conf", big->str, big->len, -1);
    for (guint i = 0; i < 1001; i++)
      g_string_append_printf (many, "[t%u]\nkind=ssh\nhost=h%u\n", i, i);
    put ("many-targets.conf", many->str, many->len, -1);
  }
  {
    g_autoptr (GString) text = g_string_new (vadd);

    g_string_replace (text, "\"kernel\":\"vector_add\"",
                      "\"kernel\":\"vector_add\\u009b2J\\u202eevil\\u2066\\u200f\"", 1);
    put ("bidi.jsonl", text->str, -1, -1);
  }
  {
    /* Run 2's records as a second run 1. */
    g_autoptr (GString) text = g_string_new (vadd);

    g_string_replace (text, "\"id\":2,", "\"id\":1,", 0);
    g_string_replace (text, "\"run\":2,", "\"run\":1,", 0);
    put ("twice.jsonl", text->str, -1, -1);
  }
  {
    /* A hello, then a record 10^15 ms later (31,700 years), or at 10^300 ms, then done. */
    const char *const jumps[][2] = { { "time-jump.jsonl", "1e15" }, { "time-huge.jsonl", "1e300" } };

    for (guint i = 0; i < G_N_ELEMENTS (jumps); i++)
      {
        g_autofree char *text = g_strdup_printf (
          "%s{\"type\":\"progress\",\"t\":%s,\"done\":0,\"total\":1}\n"
          "{\"type\":\"done\",\"t\":%s,\"runs\":0,\"failed\":0,\"dropped_records\":0,"
          "\"exit_code\":0}\n",
          hello, jumps[i][1], jumps[i][1]);

        put (jumps[i][0], text, -1, -1);
      }
  }
  put_script ("runner-ok.sh", "cat @DIR@/s.jsonl\n", 0755);
  put_script ("runner-takes-output.sh", "cat @DIR@/s.jsonl\nmkdir @DIR@/out\n", 0755);
  /* What ssh does: drops its options and the host, joins the rest into one command line and
   * hands it to a shell on the far side. */
  put_script ("ssh",
              "while [ $# -gt 0 ]; do\n"
              "  case \"$1\" in -o|-p|-l|-i|-J) shift 2 ;; -*) shift ;; *) break ;; esac\n"
              "done\n"
              "shift\n"
              "exec sh -c \"$*\"\n",
              0755);
}

static void
build_fixtures (void)
{
  g_autofree char *vadd = sample_text ("vector-add-sizes-h200.jsonl");
  g_autofree char *matmul = sample_text ("matmul-sizes-h200.jsonl");
  g_autofree char *hello = first_lines (vadd, 1);
  g_autofree char *head = first_lines (vadd, 300);
  g_autofree char *brackets = repeat ('[', 1000000);
  g_autofree char *long_line = repeat ('x', 2 * 1024 * 1024);
  g_autofree char *example = g_test_build_filename (G_TEST_DIST, "..", "examples", "kernels",
                                                    "vector_add.cu", NULL);
  g_autofree char *kernel = NULL;
  const char *body = strchr (vadd, '\n') + 1;
  g_autofree char *path = NULL;
  int fd;

  put ("s.jsonl", vadd, -1, -1);
  put ("m.jsonl", matmul, -1, -1);
  {
    /* Sessions that some charts have nothing for. */
    g_autofree char *ladder = sample_text ("reduce-ladder-h200.jsonl");
    g_autofree char *trace = sample_text ("trace-vector-add-h200.jsonl");
    g_autofree char *memcheck = sample_text ("own-vector-add-oob-memcheck-h200.jsonl");

    put ("ladder.jsonl", ladder, -1, -1);
    put ("trace.jsonl", trace, -1, -1);
    put ("memcheck.jsonl", memcheck, -1, -1);
  }
  {
    g_autofree char *soft = fixture ("link.jsonl");
    g_autofree char *s = fixture ("s.jsonl");
    g_autofree char *hard = fixture ("hard.jsonl");

    g_assert_cmpint (symlink ("s.jsonl", soft), ==, 0);
    g_assert_cmpint (link (s, hard), ==, 0);
  }
  {
    g_autofree char *dangling = fixture ("dangling.csv");

    g_assert_cmpint (symlink ("missing/dir/out.csv", dangling), ==, 0);
  }
  put ("empty.jsonl", "", 0, -1);
  put ("blank.jsonl", "\n  \n\n", -1, -1);
  {
    /* Lines of spaces and tabs before the hello and after every record. */
    g_auto (GStrv) lines = g_strsplit (vadd, "\n", -1);
    g_autoptr (GString) padded = g_string_new (" \t\n");

    for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
      g_string_append_printf (padded, "%s\n  \t \n", lines[i]);
    put ("padded.jsonl", padded->str, -1, -1);
  }
  put ("text.txt", "These are notes, not a session.\n", -1, -1);
  put ("no-hello.jsonl", body, -1, -1);
  put ("binary.png", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01", 20, -1);
  {
    g_autofree char *text = g_strdup_printf ("%s%s\n%s", hello, brackets, body);
    g_autofree char *first = g_strdup_printf ("%s\n", brackets);

    put ("nested.jsonl", text, -1, -1);
    put ("nested-first.jsonl", first, -1, -1);
  }
  path = fixture ("sparse.jsonl");
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 2 << 30), ==, 0);
  close (fd);
  put ("newer.jsonl",
       "{\"type\":\"hello\",\"t\":0,\"protocol\":3,\"runner\":\"9.0.0\"}\n"
       "{\"type\":\"done\",\"t\":1,\"exit_code\":0}\n", -1, -1);
  put ("protocol-1e300.jsonl",
       "{\"type\":\"hello\",\"t\":0,\"protocol\":1e300,\"runner\":\"9.0.0\"}\n", -1, -1);
  {
    g_autofree char *text = g_strndup (vadd, strlen (vadd) / 2);

    put ("truncated.jsonl", text, -1, -1);
  }
  put ("cut.jsonl", head, -1, -1);
  {
    g_autofree char *text = g_strdup_printf ("%s%s\n%s", hello, long_line, body);
    g_autofree char *first = g_strdup_printf ("%s\n%s", long_line, vadd);

    put ("overlong.jsonl", text, -1, -1);
    put ("overlong-first.jsonl", first, -1, -1);
  }
  {
    g_autoptr (GString) text = g_string_new (hello);

    for (guint i = 0; i < 2000; i++)
      g_string_append (text, "{\"type\":\"run\",\"id\":\n");
    g_string_append (text, body);
    put ("bad-lines.jsonl", text->str, -1, -1);
  }
  {
    g_autoptr (GString) text = g_string_new (head);

    for (guint i = 0; i < 7; i++)
      g_string_append (text, "{\"type\":\"run\",\"id\":\n");
    put ("bad-lines-cut.jsonl", text->str, -1, -1);
  }
  {
    g_autoptr (GString) text = g_string_new (hello);

    g_string_append (text, "{\"type\":\"launch\",\"run\":1,\"occupancy\":7.5}\n"
                           "{\"type\":\"run\",\"id\":2,\"shape\":[18446744073709551615]}\n");
    g_string_append (text, body);
    put ("bad-numbers.jsonl", text->str, -1, -1);
  }
  {
    g_autoptr (GString) text = g_string_new (vadd);

    g_string_replace (text, "\"kernel\":\"vector_add\"", "\"kernel\":\"vector_add\\u001b]0;owned\\u0007\"", 1);
    put ("escapes.jsonl", text->str, -1, -1);
  }
  put ("unreadable.jsonl", vadd, -1, 0);
  {
    g_autofree char *folder = fixture ("a-folder");
    g_autofree char *locked = fixture ("locked");

    g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
    g_assert_cmpint (g_mkdir (locked, 0500), ==, 0);
  }

  /* Kernels of one's own. */
  g_assert_true (g_file_get_contents (example, &kernel, NULL, NULL));
  put ("vector_add.cu", kernel, -1, -1);
  {
    g_autofree char *tiled_path = g_test_build_filename (G_TEST_DIST, "..", "examples", "kernels",
                                                         "matmul_tiled.cu", NULL);
    g_autofree char *tiled = NULL;

    g_assert_true (g_file_get_contents (tiled_path, &tiled, NULL, NULL));
    put ("matmul_tiled.cu", tiled, -1, -1);
  }
  put ("bad-header.cu",
       "/* warpscope\n * kernel: k\n * size: n = 0\n * arg a: float[m] out\n * verify: none\n */\n",
       -1, -1);
  put ("overflow-header.cu",
       "/* warpscope\n * kernel: k\n * size: n = 1000000\n * arg a: float[n] out\n"
       " * arg n: int = n * 3000000000\n * blocks: 128\n * verify: none\n */\n"
       "extern \"C\" __global__ void k (float *a, int n) { a[0] = n; }\n", -1, -1);
  put ("no-header.cu", "extern \"C\" __global__ void k (float *a) { a[0] = 1; }\n", -1, -1);

  /* Stand-in runners. */
  put_script ("runner-dies.sh", "head -n 300 @DIR@/s.jsonl\nexit 0\n", 0755);
  put_script ("runner-killed.sh", "head -n 300 @DIR@/s.jsonl\nkill -9 $$\n", 0755);
  put_script ("runner-hangs.sh", "head -n 300 @DIR@/s.jsonl\nsleep 100000\n", 0755);
  put_script ("wrapper-hangs.sh", "\"$@\"\nsleep 100000\n", 0755);
  put_script ("runner-leaves-child.sh", "sleep 100000 &\ncat @DIR@/s.jsonl\n", 0755);
  put_script ("runner-banner.sh", "echo 'Welcome to gpu-box'\ncat @DIR@/s.jsonl\n", 0755);
  put_script ("runner-banner-long.sh",
              "for i in $(seq 100); do echo 'Welcome to gpu-box'; done\ncat @DIR@/s.jsonl\n", 0755);
  put_script ("runner-nan.sh", "head -n 300 @DIR@/s.jsonl\necho NaN\nexit 0\n", 0755);
  put_script ("runner-endless-line.sh",
              "head -n 300 @DIR@/s.jsonl\nhead -c 20000000 /dev/zero | tr '\\0' x\n", 0755);
  put_script ("runner-stderr.sh",
              "head -c 1000000 /dev/zero | tr '\\0' e >&2\nhead -n 300 @DIR@/s.jsonl\nexit 5\n",
              0755);
  put_script ("runner-interrupts.sh",
              "head -n 300 @DIR@/s.jsonl\nkill -INT $PPID\nsleep 100000\n", 0755);
  put_script ("runner-no-gpu.sh",
              "head -n 1 @DIR@/s.jsonl\n"
              "echo '{\"type\":\"error\",\"t\":1,\"run\":null,\"severity\":\"fatal\","
              "\"code\":\"no_driver\",\"message\":\"No NVIDIA driver was found\"}'\n"
              "echo '{\"type\":\"done\",\"t\":2,\"runs\":0,\"failed\":0,\"dropped_records\":0,"
              "\"exit_code\":3}'\nexit 3\n",
              0755);
  put_script ("not-executable.sh", "cat @DIR@/s.jsonl\n", 0644);
  build_attack_fixtures (vadd, hello, kernel);
}
