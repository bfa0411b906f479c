#!/usr/bin/env bash
# A real single-node Slurm on this machine, for the launcher tests: munged and
# slurmctld/slurmd with a generated slurm.conf in DIR (no systemd, no root-owned
# state outside DIR; the daemons run as the current user).
#   slurm_cluster.sh start DIR   # prints the SLURM_CONF to export
#   slurm_cluster.sh stop DIR
set -euo pipefail
cmd=${1:?usage: slurm_cluster.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: slurm_cluster.sh start|stop DIR}")
case "$cmd" in
start)
  mkdir -p "$dir"/{state,spool,munge}
  # munge: its own key and socket, so that no system munge is needed.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 700 "$dir/munge" && chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
  host=$(hostname -s)
  user=$(id -un)
  # Ports away from Slurm's defaults, so that a test does not meet a real cluster's daemons.
  cat >"$dir/slurm.conf" <<CONF
ClusterName=ccsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
MaxArraySize=1001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -c -f "$SLURM_CONF"
  slurmd -c -f "$SLURM_CONF" -N "$host"
  # Ready when the node is idle.
  for _ in $(seq 1 60); do
    state=$(sinfo -h -N -o "%t" 2>/dev/null | head -1 || true)
    [ "$state" = "idle" ] && { echo "$SLURM_CONF"; exit 0; }
    sleep 0.5
  done
  echo "slurm_cluster: the node did not come up (state '${state:-none}'); see $dir/slurmctld.log and $dir/slurmd.log" >&2
  tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  exit 1
  ;;
stop)
  pids=()
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
    [ -f "$pidfile" ] && pids+=("$(cat "$pidfile")")
  done
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
  # Gone before the caller removes DIR: slurmctld saves its state as it stops.
  for _ in $(seq 1 100); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  ;;
*)
  echo "usage: slurm_cluster.sh start|stop DIR" >&2
  exit 2
  ;;
esac
