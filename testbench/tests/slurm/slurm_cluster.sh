#!/usr/bin/env bash
# A single-node Slurm cluster on localhost, from Debian's slurm-wlm and munge, living entirely
# under STATE_DIR: its own munge key and munged, a generated slurm.conf, slurmctld and slurmd on
# free ports, their state, spool, logs and pid files. Nothing under /etc, /run or /var is used,
# so a second cluster (another STATE_DIR) or a system Slurm on the same machine does not clash.
#
#   slurm_cluster.sh start  STATE_DIR   starts the daemons, waits (bounded) until the node is
#                                       idle, prints `export SLURM_CONF=...` on stdout:
#                                         eval "$(slurm_cluster.sh start "$dir")"
#   slurm_cluster.sh stop   STATE_DIR   cancels the cluster's jobs, stops its daemons and job
#                                       steps; leaves nothing of this cluster running
#   slurm_cluster.sh status STATE_DIR   the daemons' pids and `sinfo`; exit 0 when all run and
#                                       the node answers, 3 otherwise
#   slurm_cluster.sh wait   STATE_DIR JOBID [SECONDS]
#                                       waits (default 300 s) until job JOBID (an array job:
#                                       all its tasks) has left the queue, prints one line per
#                                       task "<task> <state> <exit code>", exit 0 when every
#                                       task COMPLETED with exit code 0:0, 1 otherwise
#
# start exits 77 (the CTest skip status) with the reason when the daemons cannot run here:
# missing binaries (scripts/install-deps.sh installs them), or a daemon refused by the system
# (permission). Any other failure exits 1 with the daemons' log tails.
# Configuration: docs/experiments.md "Running on Slurm"; slurm.conf(5) of Slurm 22.05.
set -euo pipefail

me=slurm_cluster.sh
usage() {
  echo "usage: $me start|stop|status STATE_DIR | $me wait STATE_DIR JOBID [SECONDS]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
if [ "$cmd" = start ]; then
  mkdir -p -- "$2"
elif ! [ -d "$2" ]; then
  echo "$me: $2: no such directory (no cluster there)" >&2
  [ "$cmd" = stop ] && exit 0
  exit 3
fi
state=$(cd -- "$2" && pwd -P)
conf=$state/slurm.conf
sock=$state/munge/munge.socket
node=$(hostname -s 2>/dev/null || hostname)

say() { echo "$me: $*" >&2; }

# --- processes of this cluster ------------------------------------------------------------------
# The daemons are found by their command lines (which name this cluster's slurm.conf or munge
# socket), not only by pid files, so that stop also cleans up after a start that failed half-way.
# /proc is read with bash builtins only: these scans run in polling loops.
# Both set REPLY (no command substitution: no fork per process).
cmdline_of() {  # the command line of pid $1, arguments joined by spaces ("" when gone)
  local -a args=()
  { mapfile -d '' args <"/proc/$1/cmdline"; } 2>/dev/null || true
  REPLY="${args[*]}"
}
stat_field() {  # field $2 (3 = state, 4 = ppid, 6 = session) of /proc/$1/stat ("" when gone)
  local line="" rest
  local -a f=()
  REPLY=""
  { read -r line <"/proc/$1/stat"; } 2>/dev/null || return 0
  rest=${line##*) }  # the fields after the parenthesised command name, from field 3 on
  read -r -a f <<<"$rest"
  REPLY=${f[$2 - 3]:-}
}
daemon_pids() {  # $1: munged | slurmctld | slurmd
  local p
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    cmdline_of "$p"
    case "$1:$REPLY" in
      munged:"munged "*"--socket=$sock "*) echo "$p" ;;
      slurmctld:"slurmctld -f $conf "*) echo "$p" ;;
      slurmd:"slurmd -f $conf "*) echo "$p" ;;
    esac
  done
}
# Job steps: slurmstepd processes whose working directory or open files lie under STATE_DIR
# (slurmd's log is open in every step it forks), and every process of their sessions (the batch
# script and what it runs).
step_session_pids() {
  local p sids="" f
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    cmdline_of "$p"
    [[ $REPLY == slurmstepd* ]] || continue
    for f in "/proc/$p/cwd" "/proc/$p"/fd/*; do
      if [[ $(readlink "$f" 2>/dev/null) == "$state"/* ]]; then
        stat_field "$p" 6
        sids+=" $REPLY"
        break
      fi
    done
  done
  [ -n "${sids// /}" ] || return 0
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    stat_field "$p" 6
    [[ -n $REPLY && "$sids " == *" $REPLY "* ]] && echo "$p"
  done
  return 0
}
children_of() {  # direct children of the pids given
  local p
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    stat_field "$p" 4
    [[ -n $REPLY && " $* " == *" $REPLY "* ]] && echo "$p"
  done
  return 0
}
alive() {  # the pids given that still run (zombies do not: a container's init may not reap them)
  local p
  for p in "$@"; do
    stat_field "$p" 3
    [[ -n $REPLY && $REPLY != Z ]] && echo "$p"
  done
  return 0
}
# Sends TERM, waits up to $1 seconds, then KILL.
terminate() {
  local secs=$1 i left
  shift
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for ((i = 0; i < secs * 10; i++)); do
    left=$(alive "$@")
    [ -n "$left" ] || return 0
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -KILL $left 2>/dev/null || true
  sleep 0.2
}

client() { timeout 15 env SLURM_CONF="$conf" "$@"; }

stop_cluster() {
  local ids pids i
  if [ -f "$conf" ] && [ -n "$(daemon_pids slurmctld)" ]; then
    ids=$(client squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
    if [ -n "${ids// /}" ]; then
      # shellcheck disable=SC2086
      client scancel $ids 2>/dev/null || true
      for ((i = 0; i < 300; i++)); do  # KillWait=5 in slurm.conf; 30 s at most
        [ -z "$(step_session_pids)" ] && break
        sleep 0.1
      done
    fi
  fi
  # slurmctld's helper (slurmscriptd) is its child; collect it before its parent goes.
  pids="$(daemon_pids slurmd) $(daemon_pids slurmctld)"
  # shellcheck disable=SC2086
  pids="$pids $(children_of $pids)"
  # shellcheck disable=SC2086
  terminate 15 $pids
  # shellcheck disable=SC2046
  terminate 5 $(step_session_pids)
  # shellcheck disable=SC2046
  terminate 10 $(daemon_pids munged)
  rm -f "$sock" "$sock.lock"
  local left
  left=$(
    daemon_pids munged
    daemon_pids slurmctld
    daemon_pids slurmd
    step_session_pids
  )
  if [ -n "$left" ]; then
    say "could not stop processes: ${left//$'\n'/ }"
    return 1
  fi
}

log_tails() {
  local f
  for f in "$state/log/slurmctld.log" "$state/log/slurmd.log" "$state/munge/munged.log"; do
    [ -f "$f" ] || continue
    echo "--- last lines of $f" >&2
    tail -n 25 "$f" >&2
  done
}

# A failure while starting: everything started is stopped. Exit 77 when the system refused a
# daemon (no permission), 1 otherwise.
fail_start() {
  say "$*"
  log_tails
  local refused=0
  if grep -qsE 'Operation not permitted|Permission denied|must be run as root|Unable to set(u|g)id' \
    "$state/log/slurmctld.log" "$state/log/slurmd.log" "$state/munge/munged.log"; then
    refused=1
  fi
  stop_cluster || true
  if [ $refused -eq 1 ]; then
    say "skipping: the system refused to run a Slurm daemon here (see the log lines above)"
    exit 77
  fi
  exit 1
}

# --- free ports -----------------------------------------------------------------------------------
# Ports in use (any state) from /proc/net/tcp{,6}, in decimal.
used_ports() {
  local f sl local_addr rest
  for f in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$f" ] || continue
    while read -r sl local_addr rest; do
      [ "$sl" = sl ] && continue
      echo $((16#${local_addr##*:}))
    done <"$f"
  done
}
# Two consecutive free ports in [20000, 60000), randomly placed so that clusters started at the
# same time rarely pick the same ones (a clash is retried by start).
pick_ports() {
  local used p i
  used=" $(used_ports | tr '\n' ' ') "
  for ((i = 0; i < 100; i++)); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 39999))
    [[ $used == *" $p "* || $used == *" $((p + 1)) "* ]] && continue
    echo "$p"
    return 0
  done
  say "no free TCP port pair found in 20000-59999"
  return 1
}

write_conf() {  # $1: slurmctld port (slurmd uses $1 + 1)
  local cpus mem user
  cpus=$(nproc)
  # The memory slurmd itself measures: a larger RealMemory would make it mark the node invalid.
  mem=$(slurmd -C 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -n 1)
  [ -n "$mem" ] || mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  user=$(id -un)
  cat >"$conf.tmp" <<EOF
# Generated by $me: a single-node test cluster under $state.
ClusterName=drivevp
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$(($1 + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups (containers often have none): processes are tracked through /proc, tasks not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=5
# Finished jobs stay visible to scontrol for 10 minutes (the wait command reads their states).
MinJobAge=600
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.tmp" "$conf"
}

# Waits up to $2 seconds for daemon $1 to be running (its pid file written, the process alive).
wait_daemon() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    [ -s "$state/run/$1.pid" ] && [ -n "$(daemon_pids "$1")" ] && return 0
    [ -z "$(daemon_pids "$1")" ] && [ $i -gt 10 ] && return 1
    sleep 0.1
  done
  return 1
}

start_cluster() {
  local b missing=()
  for b in munged munge unmunge slurmctld slurmd sinfo squeue scontrol sbatch scancel; do
    command -v "$b" >/dev/null 2>&1 || missing+=("$b")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "skipping: ${missing[*]} not found (install slurm-wlm and munge: scripts/install-deps.sh)"
    exit 77
  fi
  if [ -n "$(daemon_pids slurmctld)$(daemon_pids slurmd)$(daemon_pids munged)" ]; then
    say "a cluster is already running under $state (stop it first: $me stop $state)"
    exit 1
  fi
  stop_cluster >/dev/null 2>&1 || true  # leftover job steps of an earlier cluster here
  rm -rf "$state/ctld" "$state/spool" "$state/run" "$state/log" "$state/munge"
  mkdir -p "$state/ctld" "$state/spool" "$state/run" "$state/log"
  mkdir -m 0755 "$state/munge"

  # munge: a fresh key (1024 random bits) and a daemon on this cluster's own socket. --force lets
  # munged run when STATE_DIR or a parent is not world-searchable (mktemp -d makes 0700
  # directories): munged then warns that other users cannot reach the socket, which a cluster
  # used by one user does not need.
  local key=$state/munge/munge.key
  if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --bits=1024 --keyfile="$key" 2>"$state/log/mungekey.err" ||
      fail_start "mungekey failed: $(cat "$state/log/mungekey.err")"
  else  # munge before 0.5.13 has no mungekey
    (umask 077 && dd if=/dev/urandom of="$key" bs=128 count=1 status=none) || fail_start "cannot write $key"
  fi
  if ! munged --force --socket="$sock" --key-file="$state/munge/munge.key" \
    --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
    --seed-file="$state/munge/munged.seed" 2>"$state/log/munged.err"; then
    cat "$state/log/munged.err" >&2
    fail_start "munged did not start"
  fi
  if ! munge -S "$sock" -n </dev/null | unmunge -S "$sock" >/dev/null 2>&1; then
    fail_start "munge credentials do not round-trip through $sock"
  fi

  # slurmctld then slurmd; on a port clash (another cluster took the port meanwhile), new ports.
  local attempt port ok=0
  for ((attempt = 1; attempt <= 3; attempt++)); do
    port=$(pick_ports)
    write_conf "$port"
    : >"$state/log/slurmctld.log"
    : >"$state/log/slurmd.log"
    slurmctld -f "$conf" -i 2>>"$state/log/slurmctld.log" || fail_start "slurmctld did not start"
    if ! wait_daemon slurmctld 20; then
      if grep -qs 'Address already in use' "$state/log/slurmctld.log"; then
        say "port $port taken meanwhile; trying other ports"
        stop_cluster_daemons_only
        continue
      fi
      fail_start "slurmctld exited during start-up"
    fi
    slurmd -f "$conf" -N "$node" 2>>"$state/log/slurmd.log" || fail_start "slurmd did not start"
    if ! wait_daemon slurmd 20; then
      if grep -qs 'Address already in use' "$state/log/slurmd.log"; then
        say "port $((port + 1)) taken meanwhile; trying other ports"
        stop_cluster_daemons_only
        continue
      fi
      fail_start "slurmd exited during start-up"
    fi
    ok=1
    break
  done
  [ $ok -eq 1 ] || fail_start "no free ports after 3 attempts"

  # Bounded wait until the node registered and is idle.
  local i st=""
  for ((i = 0; i < 120; i++)); do
    st=$(client sinfo -h -N -n "$node" -o %T 2>/dev/null | head -n 1 || true)
    [ "$st" = idle ] && break
    [ -n "$(daemon_pids slurmctld)" ] || fail_start "slurmctld exited"
    [ -n "$(daemon_pids slurmd)" ] || fail_start "slurmd exited"
    sleep 0.5
  done
  [ "$st" = idle ] || fail_start "node $node not idle after 60 s (state: '${st:-no answer}')"
  say "cluster up under $state: node $node ($(nproc) CPUs), slurmctld port $port, slurmd port $((port + 1))"
  printf 'export SLURM_CONF=%q\n' "$conf"
}

stop_cluster_daemons_only() {
  local pids
  pids="$(daemon_pids slurmd) $(daemon_pids slurmctld)"
  # shellcheck disable=SC2086
  pids="$pids $(children_of $pids)"
  # shellcheck disable=SC2086
  terminate 10 $pids
}

status_cluster() {
  local d pids rc=0
  for d in munged slurmctld slurmd; do
    pids=$(daemon_pids "$d" | tr '\n' ' ')
    if [ -n "$pids" ]; then
      echo "$d: running (pid ${pids% })"
    else
      echo "$d: not running"
      rc=3
    fi
  done
  if [ $rc -eq 0 ]; then
    echo "SLURM_CONF=$conf"
    client sinfo -N -l || rc=3
  fi
  return $rc
}

wait_job() {
  local job=$1 secs=${2:-300} i lines
  [[ $job =~ ^[0-9]+$ ]] || {
    say "wait: expected a numeric job id, found '$job'"
    exit 2
  }
  # The controller keeps a finished job's record for MinJobAge (600 s), so squeue knows the job
  # for the whole wait: a failing squeue or scontrol (a time-out on a loaded machine) is
  # transient and retried, never taken for "finished".
  local out done=0
  for ((i = 0; i < secs * 2; i++)); do
    if out=$(client squeue -h -j "$job" 2>/dev/null) && [ -z "$out" ]; then
      done=1
      break
    fi
    sleep 0.5
  done
  if [ $done -eq 0 ]; then
    say "job $job still queued or running after $secs s:"
    client squeue -j "$job" >&2 || true
    return 1
  fi
  local shown=""
  for ((i = 0; i < 20; i++)); do
    shown=$(client scontrol -o show job "$job" 2>/dev/null) && [ -n "$shown" ] && break
    sleep 0.5
  done
  # One line per task: "<array task id or -> <JobState> <ExitCode>".
  lines=$(awk '{
      t = "-"; s = "?"; e = "?"
      for (i = 1; i <= NF; i++) {
        if ($i ~ /^ArrayTaskId=/) t = substr($i, 13)
        else if ($i ~ /^JobState=/) s = substr($i, 10)
        else if ($i ~ /^ExitCode=/) e = substr($i, 10)
      }
      print t, s, e
    }' <<<"$shown" | sort -n)
  echo "$lines"
  [ -n "$lines" ] && ! grep -qv ' COMPLETED 0:0$' <<<"$lines"
}

case "$cmd" in
  start) [ $# -eq 2 ] || usage; start_cluster ;;
  stop) [ $# -eq 2 ] || usage; stop_cluster ;;
  status) [ $# -eq 2 ] || usage; status_cluster ;;
  wait)
    [[ $# -ge 3 && $# -le 4 ]] || usage
    wait_job "$3" "${4:-300}"
    ;;
  *) usage ;;
esac
