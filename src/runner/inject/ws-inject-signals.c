/* ws-inject-signals.c: a traced program that crashes or is killed keeps what was recorded.
 * On SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM or SIGINT with the default action (the
 * process is about to die), CUPTI's buffers are flushed and written as far as is safe, a
 * closing record says which signal ended the program, and the signal is raised again with
 * its default action, so that the program's parent sees what it would have seen untraced.
 * A watchdog (SIGALRM) writes the closing record alone if flushing hangs. A signal the
 * program handles itself (Python's SIGINT) goes to its handler untouched.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define WATCHDOG_SECONDS 3

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT };

static struct sigaction previous[NSIG];
static atomic_int dying;     /* the signal that is ending the process, 0 before */
static atomic_int finishing; /* the closing record is being written */

static int
has_handler (const struct sigaction *sa)
{
  if (sa->sa_flags & SA_SIGINFO)
    return sa->sa_sigaction != NULL;
  return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

static void
die_by (int sig)
{
  struct sigaction dfl;
  sigset_t set;

  memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset (&dfl.sa_mask);
  sigaction (sig, &dfl, NULL);
  sigemptyset (&set);
  sigaddset (&set, sig);
  sigprocmask (SIG_UNBLOCK, &set, NULL);
  raise (sig);
  /* A signal whose default is to go on (none of ours), or one still blocked elsewhere. */
  _exit (128 + sig);
}

static void
watchdog (int unused)
{
  int sig = atomic_load (&dying);

  (void) unused;
  _ws_finish_signal_raw (sig);
  die_by (sig > 0 ? sig : SIGKILL);
}

static void
fatal_handler (int sig, siginfo_t *info, void *context)
{
  const struct sigaction *prev = &previous[sig];
  int saved_errno = errno;

  if (has_handler (prev))
    {
      /* The program's own handler decides; it may well go on (Python turns SIGINT into
         KeyboardInterrupt), and an exit it chooses closes the trace as usual. */
      if (prev->sa_flags & SA_SIGINFO)
        prev->sa_sigaction (sig, info, context);
      else
        prev->sa_handler (sig);
      errno = saved_errno;
      return;
    }
  if (atomic_exchange (&finishing, 1) == 0)
    {
      struct sigaction wd;

      atomic_store (&dying, sig);
      memset (&wd, 0, sizeof wd);
      wd.sa_handler = watchdog;
      sigemptyset (&wd.sa_mask);
      wd.sa_flags = SA_NODEFER;
      sigaction (SIGALRM, &wd, NULL);
      alarm (WATCHDOG_SECONDS);
      _ws_finish_signal (sig);
      alarm (0);
    }
  else
    /* A second fatal signal while closing (a crash inside the flush): the record alone. */
    _ws_finish_signal_raw (sig);
  die_by (sig);
}

void
_ws_signals_install (void)
{
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    {
      int sig = fatal_signals[i];
      struct sigaction sa;

      if (sigaction (sig, NULL, &previous[sig]) != 0 || previous[sig].sa_handler == SIG_IGN)
        continue; /* an ignored signal stays ignored */
      memset (&sa, 0, sizeof sa);
      sa.sa_sigaction = fatal_handler;
      sa.sa_mask = previous[sig].sa_mask;
      /* The program's handler keeps its SA_RESTART choice: Python wants EINTR on SIGINT. */
      sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK | (previous[sig].sa_flags & SA_RESTART);
      sigaction (sig, &sa, NULL);
    }
}
