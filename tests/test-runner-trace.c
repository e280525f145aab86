/* test-runner-trace.c: warpscope-runner --trace on a machine without a GPU, with stand-in
 * programs that write a trace recorded on an H200 to the descriptor the runner names in
 * WARPSCOPE_TRACE_FD (as libwarpscope-inject does): every line relayed whole with its program
 * run; the program started with the library's variables and its output kept off the stream;
 * a sweep's substitution in arguments, --env and --cwd; exit statuses and signals; a program
 * that cannot be found or run, one that never uses CUDA, no driver; lines that are not the
 * library's; --timeout; SIGTERM stopping the program's group and still ending the stream;
 * what the program leaves behind holding the pipe.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-util.h"

typedef struct
{
  GPtrArray *records; /* JsonObject */
  char *out;
  char *err;
  int status;         /* exit status; 128 + N for signal N */
  double seconds;
} Output;

static void
output_clear (Output *o)
{
  g_clear_pointer (&o->records, g_ptr_array_unref);
  g_clear_pointer (&o->out, g_free);
  g_clear_pointer (&o->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Output, output_clear)

static GPtrArray *
parse_lines (const char *text)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;

      if (lines[i][0] == '\0')
        continue;
      json_parser_load_from_data (parser, lines[i], -1, &error);
      if (error != NULL)
        g_error ("line %u is not JSON (%s): %s", i + 1, error->message, lines[i]);
      JsonNode *root = json_parser_get_root (parser);

      g_ptr_array_add (records, json_object_ref (json_node_get_object (root)));
    }
  return records;
}

static GStrv
environment (const char *const *extra)
{
  GStrv env = g_get_environ ();

  /* The stand-in for the driver answers the runner's check; the library is not loaded. */
  env = g_environ_setenv (env, "WARPSCOPE_LIBCUDA", g_getenv ("WS_FAKE_CUDA"), TRUE);
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    {
      g_auto (GStrv) pair = g_strsplit (extra[i], "=", 2);

      env = g_environ_setenv (env, pair[0], pair[1], TRUE);
    }
  return env;
}

static void
run_trace (Output *o, const char *const *args, const char *const *env)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = environment (env);
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  int status = 0;

  g_ptr_array_add (argv, (gpointer) g_getenv ("WS_RUNNER"));
  g_ptr_array_add (argv, "--trace");
  g_ptr_array_add (argv, "--no-ceilings");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  memset (o, 0, sizeof *o);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &o->out, &o->err, &status, &error));
  g_assert_no_error (error);
  o->seconds = (g_get_monotonic_time () - start) / 1e6;
  o->status = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
  o->records = parse_lines (o->out);
  g_test_message ("runner → %d in %.2f s\n%s", o->status, o->seconds, o->err);
}

/* A program standing in for a traced one: @SAMPLE@ is the vector add's trace. */
static char *
write_program (const char *dir, const char *name, const char *body)
{
  return ws_test_write_script (dir, name, body, "trace-vector-add-h200.jsonl");
}

static const char *
type_of (JsonObject *o)
{
  return json_object_get_string_member (o, "type");
}

static GPtrArray *
of_type (Output *o, const char *type)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < o->records->len; i++)
    if (g_str_equal (type_of (g_ptr_array_index (o->records, i)), type))
      g_ptr_array_add (out, g_ptr_array_index (o->records, i));
  return out;
}

static JsonObject *
first_of (Output *o, const char *type)
{
  g_autoptr (GPtrArray) all = of_type (o, type);

  return all->len > 0 ? g_ptr_array_index (all, 0) : NULL;
}

static JsonObject *
error_with (Output *o, const char *code)
{
  g_autoptr (GPtrArray) errors = of_type (o, "error");

  for (guint i = 0; i < errors->len; i++)
    if (g_str_equal (json_object_get_string_member (g_ptr_array_index (errors, i), "code"), code))
      return g_ptr_array_index (errors, i);
  return NULL;
}

/* The hello first, done last, the done's exit code the runner's. */
static void
check_frame (Output *o)
{
  JsonObject *hello, *done;

  g_assert_cmpuint (o->records->len, >=, 2);
  hello = g_ptr_array_index (o->records, 0);
  done = g_ptr_array_index (o->records, o->records->len - 1);
  g_assert_cmpstr (type_of (hello), ==, "hello");
  g_assert_cmpint (json_object_get_int_member (hello, "protocol"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (hello, "source"), ==, "trace");
  g_assert_false (json_object_has_member (hello, "pid"));
  g_assert_cmpstr (type_of (done), ==, "done");
  g_assert_cmpint (json_object_get_int_member (done, "exit_code"), ==, o->status);
}

/* A record without the members the runner sets, as text to compare. */
static char *
without_frame (JsonObject *o)
{
  g_autoptr (JsonObject) copy = json_object_new ();
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr (GList) members = json_object_get_members (o);

  for (GList *m = members; m != NULL; m = m->next)
    if (!g_str_equal (m->data, "t") && !g_str_equal (m->data, "program_run"))
      json_object_set_member (copy, m->data, json_node_copy (json_object_get_member (o, m->data)));
  json_node_set_object (node, copy);
  return json_to_string (node, FALSE);
}

/* Every line of the recording comes out whole, in order, with the program run it belongs to. */
static void
test_relay (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *program = write_program (dir, "prog.sh",
                                            "echo 'the program says hello'\n"
                                            "echo 'and on stderr' >&2\n"
                                            "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n");
  g_autofree char *path = ws_test_sample ("trace-vector-add-h200.jsonl");
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) original = NULL;
  g_autoptr (GPtrArray) relayed = g_ptr_array_new ();
  const char *args[] = { "--", program, NULL };
  g_auto (Output) o = { 0 };
  JsonObject *end, *start;
  double t = 0;

  run_trace (&o, args, NULL);
  g_assert_cmpint (o.status, ==, 0);
  check_frame (&o);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  original = parse_lines (text);
  for (guint i = 0; i < o.records->len; i++)
    {
      JsonObject *r = g_ptr_array_index (o.records, i);

      /* The stream's t rises as the lines arrived: a replay keeps its pacing. */
      g_assert_cmpfloat (json_object_get_double_member (r, "t"), >=, t);
      t = json_object_get_double_member (r, "t");
      if (json_object_has_member (r, "pid"))
        {
          g_assert_cmpint (json_object_get_int_member (r, "program_run"), ==, 1);
          g_ptr_array_add (relayed, r);
        }
    }
  g_assert_cmpuint (relayed->len, ==, original->len);
  for (guint i = 0; i < original->len; i++)
    {
      g_autofree char *a = without_frame (g_ptr_array_index (original, i));
      g_autofree char *b = without_frame (g_ptr_array_index (relayed, i));

      g_assert_cmpstr (a, ==, b);
    }
  start = first_of (&o, "program");
  g_assert_nonnull (start);
  g_assert_cmpint (json_object_get_int_member (start, "program_run"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (start, "of"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (start, "path"), ==, program);
  end = first_of (&o, "program_end");
  g_assert_cmpstr (json_object_get_string_member (end, "reason"), ==, "exit");
  g_assert_cmpint (json_object_get_int_member (end, "exit_status"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (end, "processes"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (end, "ended_processes"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (end, "records"), ==, original->len);
  g_assert_cmpint (json_object_get_int_member (end, "dropped_lines"), ==, 0);
  /* The program's own output is not the stream's. */
  g_assert_null (strstr (o.out, "hello\n"));
  g_assert_nonnull (strstr (o.err, "the program says hello"));
  g_assert_nonnull (strstr (o.err, "and on stderr"));
  ws_test_remove_dir (dir);
}

/* The program gets the library and the descriptor, not a trace file set around the runner. */
static void
test_environment (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *program = write_program (dir, "prog.sh",
                                            "printf '%s\\n' \"$CUDA_INJECTION64_PATH\" "
                                            "\"$NVTX_INJECTION64_PATH\" "
                                            "\"${WARPSCOPE_TRACE_FILE-unset}\" \"$MY_VAR\" "
                                            "\"$WARPSCOPE_TRACE_FD\" "
                                            "\"$WARPSCOPE_TRACE_FD_INODE\" > '@DIR@/env'\n"
                                            "stat -L -c '%d:%i' /proc/self/fd/$WARPSCOPE_TRACE_FD"
                                            " >> '@DIR@/env'\n"
                                            "pwd >> '@DIR@/env'\n"
                                            "head -3 '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n");
  g_autofree char *env_path = g_build_filename (dir, "env", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  const char *args[] = { "--env", "MY_VAR=set by --env", "--cwd", "/", "--", program, NULL };
  const char *env[] = { "WARPSCOPE_TRACE_FILE=/tmp/must-not-be-used.jsonl", "MY_VAR=outer",
                        NULL };
  g_auto (Output) o = { 0 };

  run_trace (&o, args, env);
  g_assert_cmpint (o.status, ==, 0);
  g_assert_true (g_file_get_contents (env_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, g_getenv ("WS_INJECT_LIB"));
  g_assert_cmpstr (lines[1], ==, g_getenv ("WS_INJECT_LIB"));
  g_assert_cmpstr (lines[2], ==, "unset");
  g_assert_cmpstr (lines[3], ==, "set by --env");
  g_assert_cmpint (atoi (lines[4]), >, 2);
  /* DEV:INO of the descriptor, as the library checks it. */
  g_assert_cmpstr (lines[5], ==, lines[6]);
  g_assert_cmpstr (lines[7], ==, "/");
  g_assert_cmpstr (json_object_get_string_member (first_of (&o, "program"), "cwd"), ==, "/");
  ws_test_remove_dir (dir);
}

/* A sweep: one program run per combination, the first --sweep slowest, {NAME} replaced in
 * the arguments, --env values and --cwd. */
static void
test_sweep (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *program = write_program (dir, "prog.sh",
                                            "echo \"run $1 $2 $WS_MODE $(pwd)\" >> '@DIR@/runs'\n"
                                            "head -5 '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n");
  g_autofree char *runs_path = g_build_filename (dir, "runs", NULL);
  g_autofree char *cwd = g_build_filename (dir, "{MODE}", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GString) expected = g_string_new (NULL);
  const char *args[] = { "--sweep", "TPB=32,64", "--sweep", "MODE=a,b,c", "--env",
                         "WS_MODE=m{MODE}", "--cwd", cwd, "--", program, "--tpb={TPB}",
                         "{TPB}{MODE}{OTHER}", NULL };
  static const char *const modes[] = { "a", "b", "c" }, *const envs[] = { "ma", "mb", "mc" };
  g_autoptr (GPtrArray) programs = NULL;
  g_autoptr (GPtrArray) ends = NULL;
  g_auto (Output) o = { 0 };

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *sub = g_build_filename (dir, modes[i], NULL);

      g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
    }
  run_trace (&o, args, NULL);
  g_assert_cmpint (o.status, ==, 0);
  check_frame (&o);
  g_assert_true (g_file_get_contents (runs_path, &text, NULL, NULL));
  for (guint i = 0; i < 6; i++)
    g_string_append_printf (expected, "run --tpb=%s %s%s{OTHER} m%s %s/%s\n", i < 3 ? "32" : "64",
                            i < 3 ? "32" : "64", modes[i % 3], modes[i % 3], dir, modes[i % 3]);
  g_assert_cmpstr (text, ==, expected->str);
  programs = of_type (&o, "program");
  ends = of_type (&o, "program_end");
  g_assert_cmpuint (programs->len, ==, 6);
  g_assert_cmpuint (ends->len, ==, 6);
  for (guint i = 0; i < programs->len; i++)
    {
      JsonObject *p = g_ptr_array_index (programs, i);
      JsonArray *params = json_object_get_array_member (p, "params");
      JsonArray *argv = json_object_get_array_member (p, "argv");
      JsonObject *tpb = json_array_get_object_element (params, 0);
      JsonObject *mode = json_array_get_object_element (params, 1);

      g_assert_cmpint (json_object_get_int_member (p, "program_run"), ==, i + 1);
      g_assert_cmpint (json_object_get_int_member (p, "of"), ==, 6);
      g_assert_cmpstr (json_object_get_string_member (tpb, "name"), ==, "TPB");
      g_assert_cmpstr (json_object_get_string_member (tpb, "value"), ==, i < 3 ? "32" : "64");
      g_assert_cmpstr (json_object_get_string_member (mode, "value"), ==, modes[i % 3]);
      g_assert_true (g_str_has_prefix (json_array_get_string_element (argv, 1), "--tpb="));
      g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (p, "env"),
                                                      "WS_MODE"),
                       ==, envs[i % 3]);
    }
  /* The records of each run carry its number. */
  for (guint i = 0; i < o.records->len; i++)
    {
      JsonObject *r = g_ptr_array_index (o.records, i);

      if (json_object_has_member (r, "pid"))
        g_assert_cmpint (json_object_get_int_member (r, "program_run"), >=, 1);
    }
  ws_test_remove_dir (dir);
}

static void
test_exit_status (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *fails = write_program (dir, "fails.sh",
                                          "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\nexit 3\n");
  g_autofree char *crashes = write_program (dir, "crashes.sh",
                                            "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n"
                                            "kill -SEGV $$\n");
  struct
  {
    const char *program;
    const char *reason;
    int exit_status;
    const char *signal;
  } cases[] = {
    { fails, "exit", 3, NULL },
    { crashes, "signal", -1, "SIGSEGV" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "--", cases[i].program, NULL };
      g_auto (Output) o = { 0 };
      JsonObject *end;

      run_trace (&o, args, NULL);
      /* The program failed; the trace is complete. */
      g_assert_cmpint (o.status, ==, 1);
      check_frame (&o);
      end = first_of (&o, "program_end");
      g_assert_cmpstr (json_object_get_string_member (end, "reason"), ==, cases[i].reason);
      if (cases[i].exit_status >= 0)
        g_assert_cmpint (json_object_get_int_member (end, "exit_status"), ==,
                         cases[i].exit_status);
      else
        {
          g_assert_true (json_object_get_null_member (end, "exit_status"));
          g_assert_cmpstr (json_object_get_string_member (end, "signal_name"), ==,
                           cases[i].signal);
        }
      g_assert_null (error_with (&o, "no_cuda_activity"));
    }
  ws_test_remove_dir (dir);
}

/* What cannot run says so, in its own code, and nothing starts. */
static void
test_cannot_run (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *not_executable = g_build_filename (dir, "plain.py", NULL);
  g_autofree char *bad_interpreter = write_program (dir, "bad.sh", "exit 0\n");
  struct
  {
    const char *program;
    const char *code;
    int status;
  } cases[] = {
    { "no-such-program-of-warpscope", "program_not_found", 2 },
    { "/no/such/dir/prog", "program_not_found", 2 },
    { not_executable, "program_not_executable", 2 },
    { dir, "program_not_executable", 2 },
    { bad_interpreter, "program_not_found", 2 },
  };

  g_assert_true (g_file_set_contents (not_executable, "print(1)\n", -1, NULL));
  {
    /* A #! line naming an interpreter that is not there. */
    g_assert_true (g_file_set_contents (bad_interpreter, "#!/no/such/interpreter\n", -1, NULL));
    g_assert_cmpint (g_chmod (bad_interpreter, 0755), ==, 0);
  }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "--", cases[i].program, "arg", NULL };
      g_auto (Output) o = { 0 };
      JsonObject *e, *end;

      run_trace (&o, args, NULL);
      g_assert_cmpint (o.status, ==, cases[i].status);
      check_frame (&o);
      e = error_with (&o, cases[i].code);
      g_assert_nonnull (e);
      g_assert_cmpint (json_object_get_int_member (e, "program_run"), ==, 1);
      g_assert_nonnull (strstr (json_object_get_string_member (e, "message"), cases[i].program));
      end = first_of (&o, "program_end");
      g_assert_cmpstr (json_object_get_string_member (end, "reason"), ==, "not_started");
    }
  ws_test_remove_dir (dir);
}

static void
test_no_cuda (void)
{
  const char *args[] = { "--", "true", NULL };
  g_auto (Output) o = { 0 };
  JsonObject *e;

  run_trace (&o, args, NULL);
  g_assert_cmpint (o.status, ==, 1);
  check_frame (&o);
  e = error_with (&o, "no_cuda_activity");
  g_assert_nonnull (e);
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"),
                            "true ran and exited with status 0, but no process of it reported "
                            "to the trace"));
  g_assert_cmpint (json_object_get_int_member (first_of (&o, "program_end"), "processes"), ==, 0);
}

static void
test_no_driver (void)
{
  const char *args[] = { "--", "true", NULL };
  const char *env[] = { "WARPSCOPE_LIBCUDA=/nonexistent/libcuda.so.1", NULL };
  g_auto (Output) o = { 0 };

  run_trace (&o, args, env);
  g_assert_cmpint (o.status, ==, 3);
  check_frame (&o);
  g_assert_nonnull (error_with (&o, "no_driver"));
  g_assert_null (first_of (&o, "program"));
}

static void
test_bad_arguments (void)
{
  const char *const cases[][6] = {
    { "--sweep", "TPB=32,64", "--", "true", NULL },         /* {TPB} used nowhere */
    { "--sweep", "TPB=32,,64", "--", "echo", "{TPB}", },    /* an empty value */
    { "--sweep", "1X=2", "--", "echo", "{1X}", },           /* not a name */
    { "--env", "NOEQUALS", "--", "true", NULL },
    { "--timeout", "soon", "--", "true", NULL },
    { "--bogus", "--", "true", NULL },
    { "--", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Output) o = { 0 };

      run_trace (&o, cases[i], NULL);
      g_assert_cmpint (o.status, ==, 2);
      check_frame (&o);
      g_assert_nonnull (error_with (&o, "bad_argument"));
      g_assert_null (first_of (&o, "program"));
    }
}

/* The limits whose commands would not fit a row of docs/errors.md: 65 variables, a parameter
 * of 1,001 values. Each refusal says what to do instead. */
static void
test_too_many (void)
{
  for (int c = 0; c < 2; c++)
    {
      g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GString) values = g_string_new ("N=");
      g_auto (Output) o = { 0 };

      if (c == 0)
        for (int i = 0; i < 65; i++)
          {
            g_ptr_array_add (args, g_strdup ("--env"));
            g_ptr_array_add (args, g_strdup_printf ("V%d=1", i));
          }
      else
        {
          for (int i = 0; i < 1001; i++)
            g_string_append_printf (values, "%s%d", i ? "," : "", i);
          g_ptr_array_add (args, g_strdup ("--sweep"));
          g_ptr_array_add (args, g_strdup (values->str));
        }
      g_ptr_array_add (args, g_strdup ("--"));
      g_ptr_array_add (args, g_strdup ("echo"));
      g_ptr_array_add (args, g_strdup ("{N}"));
      g_ptr_array_add (args, NULL);
      run_trace (&o, (const char *const *) args->pdata, NULL);
      g_assert_cmpint (o.status, ==, 2);
      check_frame (&o);
      g_assert_nonnull (error_with (&o, "bad_argument"));
      g_assert_nonnull (strstr (o.err, c == 0 ? "--env: at most 64 variables; set the others in "
                                                "the environment warpscope-runner starts in"
                                              : "--sweep N gives more than 1000 values: sweep "
                                                "fewer"));
    }
}

/* Lines that are not the library's whole records are left out, and counted. */
static void
test_foreign_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *program = write_program (dir, "prog.sh",
                                            "fd=$WARPSCOPE_TRACE_FD\n"
                                            "head -2 '@SAMPLE@' >&$fd\n"
                                            "echo 'not a record' >&$fd\n"
                                            "echo '{\"type\":\"hello\" cut short' >&$fd\n"
                                            "head -c 2000000 /dev/zero | tr '\\0' x >&$fd\n"
                                            "echo >&$fd\n"
                                            "tail -1 '@SAMPLE@' >&$fd\n"
                                            "printf '{\"type\":\"trace_end\",\"t\":1,\"pid\":7}' "
                                            ">&$fd\n");
  const char *args[] = { "--", program, NULL };
  g_auto (Output) o = { 0 };
  JsonObject *end;

  run_trace (&o, args, NULL);
  g_assert_cmpint (o.status, ==, 0);
  check_frame (&o);
  end = first_of (&o, "program_end");
  g_assert_cmpint (json_object_get_int_member (end, "dropped_lines"), ==, 3);
  /* Two lines of the head, the trace's end, and the last without its newline. */
  g_assert_cmpint (json_object_get_int_member (end, "records"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (end, "ended_processes"), ==, 2);
  ws_test_remove_dir (dir);
}

static void
test_timeout (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *program = write_program (dir, "prog.sh",
                                            "head -10 '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n"
                                            "exec sleep 60\n");
  const char *args[] = { "--timeout", "0.5", "--", program, NULL };
  g_auto (Output) o = { 0 };
  JsonObject *end;

  run_trace (&o, args, NULL);
  g_assert_cmpint (o.status, ==, 1);
  g_assert_cmpfloat (o.seconds, <, 5);
  check_frame (&o);
  g_assert_nonnull (error_with (&o, "program_timeout"));
  end = first_of (&o, "program_end");
  g_assert_cmpstr (json_object_get_string_member (end, "reason"), ==, "timeout");
  g_assert_cmpstr (json_object_get_string_member (end, "signal_name"), ==, "SIGTERM");
  g_assert_cmpint (json_object_get_int_member (end, "records"), ==, 10);
  ws_test_remove_dir (dir);
}

/* A program in `dir` that leads its group (its $$ in @DIR@/pgid), writes the trace's first
 * `records` records, then does `then`. */
static char *
write_group_program (const char *dir, guint records, const char *then)
{
  g_autofree char *body = g_strdup_printf ("echo $$ > '@DIR@/pgid'\n"
                                           "head -%u '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n%s",
                                           records, then);

  return write_program (dir, "prog.sh", body);
}

/* What the program started and left behind with the pipe open does not hold the runner:
 * after the drain it is stopped, and the stream ends. */
static void
test_left_behind (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *program = write_group_program (dir, 3, "sleep 60 &\nexit 0\n");
  const char *args[] = { "--", program, NULL };
  g_auto (Output) o = { 0 };

  run_trace (&o, args, NULL);
  g_assert_cmpint (o.status, ==, 0);
  g_assert_cmpfloat (o.seconds, <, 6);
  check_frame (&o);
  g_assert_cmpint (json_object_get_int_member (first_of (&o, "program_end"), "records"), ==, 3);
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  ws_test_remove_dir (dir);
}

/* SIGTERM (what a client sends to stop it): the program's group is stopped, the stream still
 * ends with the run's end and done, the runner exits 143, well within 2 s. */
static void
test_stopped (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-XXXXXX", NULL);
  g_autofree char *program = write_group_program (dir, 20, "sleep 60\n");
  g_autofree char *pgid_path = g_build_filename (dir, "pgid", NULL);
  const char *argv[] = { g_getenv ("WS_RUNNER"), "--trace", "--", program, NULL };
  g_auto (GStrv) env = environment (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  GPid pid;
  int out_fd, status;
  gint64 stopped;
  g_auto (Output) o = { 0 };
  JsonObject *end;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, &out_fd, NULL, &error));
  g_assert_no_error (error);
  for (int i = 0; i < 500 && !g_file_test (pgid_path, G_FILE_TEST_EXISTS); i++)
    g_usleep (10000);
  g_usleep (300000);
  stopped = g_get_monotonic_time ();
  kill (pid, SIGTERM);
  {
    g_autoptr (GIOChannel) channel = g_io_channel_unix_new (out_fd);
    gsize length;

    g_io_channel_set_close_on_unref (channel, TRUE);
    g_io_channel_read_to_end (channel, &out, &length, NULL);
  }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_cmpfloat ((g_get_monotonic_time () - stopped) / 1e6, <, 1.9);
  o.status = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
  g_assert_cmpint (o.status, ==, 143);
  o.records = parse_lines (out);
  check_frame (&o);
  end = first_of (&o, "program_end");
  g_assert_cmpstr (json_object_get_string_member (end, "reason"), ==, "stopped");
  g_assert_cmpint (json_object_get_int_member (end, "records"), ==, 20);
  g_assert_true (ws_test_wait_group_gone (ws_test_read_number (dir, "pgid"), 3));
  ws_test_remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WS_RUNNER") == NULL || g_getenv ("WS_FAKE_CUDA") == NULL)
    g_error ("WS_RUNNER and WS_FAKE_CUDA must name the runner and the stand-in driver");
  g_test_add_func ("/runner-trace/relay", test_relay);
  g_test_add_func ("/runner-trace/environment", test_environment);
  g_test_add_func ("/runner-trace/sweep", test_sweep);
  g_test_add_func ("/runner-trace/exit-status", test_exit_status);
  g_test_add_func ("/runner-trace/cannot-run", test_cannot_run);
  g_test_add_func ("/runner-trace/no-cuda", test_no_cuda);
  g_test_add_func ("/runner-trace/no-driver", test_no_driver);
  g_test_add_func ("/runner-trace/bad-arguments", test_bad_arguments);
  g_test_add_func ("/runner-trace/too-many", test_too_many);
  g_test_add_func ("/runner-trace/foreign-lines", test_foreign_lines);
  g_test_add_func ("/runner-trace/timeout", test_timeout);
  g_test_add_func ("/runner-trace/left-behind", test_left_behind);
  g_test_add_func ("/runner-trace/stopped", test_stopped);
  return g_test_run ();
}
