#!/bin/sh
# with-servers.sh KIND PROGRAM [ARG…]: runs a test PROGRAM against real servers that it starts
# on this machine and stops afterwards, on failure too, leaving nothing running.
#   KIND ssh:   Debian's sshd on 127.0.0.1, a free port, a host key and a user key made here;
#               PROGRAM gets WS_SSH_PORT, WS_SSH_KEY, WS_SSH_KNOWN_HOSTS.
#   KIND slurm: a one-node Slurm cluster (munged, slurmctld, slurmd; no cgroups), its
#               slurm.conf in SLURM_CONF.
#   KIND all:   both (tools/bench-targets.py measures through them).
# Both get WS_SERVER_DIR, a folder of their own. Skips (77) when not root or a program is
# missing. Every daemon starts in a session of its own; at the end the daemons are stopped
# and every process that names the folder (the stand-in runners, Slurm's job steps) or lives
# in a daemon's session is looked for: one still there fails the test (and is killed).
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
KIND=$1
shift

skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "the $KIND servers run as root here (sshd, slurmd); run the tests as root"
case $KIND in
  ssh) need="/usr/sbin/sshd ssh ssh-keygen" ;;
  slurm) need="munged slurmctld slurmd srun sbatch squeue scancel" ;;
  all) need="/usr/sbin/sshd ssh ssh-keygen munged slurmctld slurmd srun sbatch squeue scancel" ;;
  *) echo "with-servers.sh: unknown kind $KIND" >&2; exit 2 ;;
esac
for p in $need; do
  command -v "$p" >/dev/null 2>&1 ||
    skip "$p is missing: install openssh-server openssh-client slurmctld slurmd slurm-client munge (./dev does)"
done

DIR=$(mktemp -d /tmp/ws-servers-XXXXXX) || exit 1
# munged wants every folder up to its socket searchable by all.
chmod 755 "$DIR"
export WS_SERVER_DIR=$DIR
SESSIONS=""
status=1

log() { echo "with-servers: $*" >&2; }

# A TCP port nothing listens on now, from the unprivileged range.
free_port() {
  while :; do
    p=$(( $(od -An -N2 -tu2 /dev/urandom) % 30000 + 20000 ))
    if ! grep -qi ":$(printf '%04X' "$p") " /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
      echo "$p"
      return
    fi
  done
}

# Starts "$@" in a session of its own, in the background; its pid (= its session) is noted.
daemon() {
  name=$1
  shift
  setsid "$@" >"$DIR/$name.log" 2>&1 </dev/null &
  SESSIONS="$SESSIONS $!"
  eval "PID_$name=$!"
}

# Alive and not a zombie (this script reaps its background jobs only when it waits).
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  state=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  state=${state##*) }
  [ "${state%% *}" != Z ]
}

# Processes that are this run's: in a daemon's session, or naming the folder in their
# command line or environment (the runners the CLI starts in sessions of their own, Slurm's
# job steps). This script's own session (the test program, the helpers below) is not
# looked at; zombies only wait to be reaped.
MY_SID=$(rest=$(cat /proc/$$/stat); rest=${rest##*) }; set -- $rest; echo "$4")
ours() {
  for d in /proc/[0-9]*; do
    stat=$(cat "$d/stat" 2>/dev/null) || continue
    rest=${stat##*) }
    set -- $rest
    [ "$1" = Z ] || [ "$4" = "$MY_SID" ] && continue
    mine=
    for s in $SESSIONS; do [ "$4" = "$s" ] && mine=1; done
    if [ -z "$mine" ] && { tr '\0' ' ' <"$d/cmdline"; tr '\0' '\n' <"$d/environ"; } 2>/dev/null |
        grep -qF "$DIR"; then
      mine=1
    fi
    [ -n "$mine" ] && echo "${d#/proc/}"
  done
}

stop_all() {
  trap - EXIT INT TERM HUP
  if [ "$KIND" != ssh ] && [ -n "${SLURM_CONF:-}" ]; then
    scancel --quiet --full --user=root 2>/dev/null
  fi
  for s in $SESSIONS; do kill -TERM "-$s" 2>/dev/null; done
  n=0
  for s in $SESSIONS; do
    while [ $n -lt 50 ] && alive "$s"; do sleep 0.1; n=$((n + 1)); done
  done
  # What the daemons started may take a moment longer to go.
  n=0
  while [ $n -lt 10 ] && left=$(ours) && [ -n "$left" ]; do sleep 0.5; n=$((n + 1)); done
  if [ -n "$left" ]; then
    log "left running after the test (killed now):"
    for pid in $left; do
      log "  $pid $(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null)"
      kill -KILL "$pid" 2>/dev/null
    done
    status=1
  fi
  if [ "$status" != 0 ]; then
    for f in "$DIR"/*.log; do [ -f "$f" ] && { log "--- $f"; tail -n 20 "$f" >&2; }; done
  fi
  rm -rf "$DIR"
  exit "$status"
}
trap stop_all EXIT
trap 'status=130; exit' INT TERM HUP

start_ssh() {
  # sshd checks for its privilege separation folder, which Debian's service makes.
  mkdir -p /run/sshd 2>/dev/null && chmod 755 /run/sshd || skip "sshd needs /run/sshd, which cannot be made here"
  ssh-keygen -q -t ed25519 -N '' -f "$DIR/host_key" || return 1
  ssh-keygen -q -t ed25519 -N '' -f "$DIR/user_key" || return 1
  cp "$DIR/user_key.pub" "$DIR/authorized_keys"
  for try in 1 2 3 4 5; do
    port=$(free_port)
    cat >"$DIR/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $DIR/host_key
PidFile $DIR/sshd.pid
AuthorizedKeysFile $DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
UseDNS no
PrintMotd no
AcceptEnv WS_*
CONF
    daemon sshd /usr/sbin/sshd -f "$DIR/sshd_config" -D -e
    n=0
    while [ $n -lt 50 ] && alive "$PID_sshd" && ! grep -q "Server listening" "$DIR/sshd.log"; do
      sleep 0.1; n=$((n + 1))
    done
    if grep -q "Server listening" "$DIR/sshd.log"; then
      export WS_SSH_PORT=$port WS_SSH_KEY=$DIR/user_key WS_SSH_KNOWN_HOSTS=$DIR/known_hosts
      return 0
    fi
    kill "$PID_sshd" 2>/dev/null
  done
  log "sshd did not start:"; cat "$DIR/sshd.log" >&2
  return 1
}

start_slurm() {
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/munge" "$DIR/run"
  chmod 700 "$DIR/munge"
  chmod 755 "$DIR/run"
  dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 2>/dev/null
  chmod 600 "$DIR/munge/munge.key"
  daemon munged munged -F --socket="$DIR/run/munge.sock" --key-file="$DIR/munge/munge.key" \
    --log-file="$DIR/munge/munged.log" --pid-file="$DIR/run/munged.pid" \
    --seed-file="$DIR/munge/munged.seed"
  cpus=$(nproc)
  [ "$cpus" -gt 2 ] && cpus=2
  export SLURM_CONF=$DIR/slurm.conf
  for try in 1 2 3 4 5; do
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    cat >"$SLURM_CONF" <<CONF
ClusterName=warpscope-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/run/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld-file.log
SlurmdLogFile=$DIR/slurmd-file.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=localhost CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
    daemon slurmctld slurmctld -D -f "$SLURM_CONF"
    daemon slurmd slurmd -D -f "$SLURM_CONF" -N localhost
    n=0
    while [ $n -lt 200 ] && alive "$PID_slurmctld" && alive "$PID_slurmd"; do
      [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
      sleep 0.1; n=$((n + 1))
    done
    kill "$PID_slurmctld" "$PID_slurmd" 2>/dev/null
    sleep 0.5
  done
  log "the Slurm cluster did not come up"
  return 1
}

case $KIND in
  ssh) start_ssh || exit 1 ;;
  slurm) start_slurm || exit 1 ;;
  all) { start_ssh && start_slurm; } || exit 1 ;;
esac
"$@"
status=$?
exit "$status"
