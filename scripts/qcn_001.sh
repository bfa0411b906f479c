#!/bin/bash
# Paper 001 (QCN-Switch) experiments: scripts/qcn_001.sh STAGE [OUT_DIR]
#   steady72  variant matrix of Figs. 6-9 + sensitivity (5.3) on p=2,a=4,h=2 (72 nodes)
#   steady342 final design and references (Figs. 8, 9, 18) on p=3,a=6,h=3 (342 nodes)
#   rp72      the QCN reaction point (congestion.protocol = "qcn") with MIN routing, 72 nodes
#   transient UN->ADV and ADV->UN at 0.4 (Fig. 10) on 342 nodes, CPC sensitivity of Fig. 12
# One seed per point (001 averages 10). Summaries: scripts/qcn_summary.py OUT_DIR
set -e
cd "$(dirname "$0")/.."
stage=$1
out=${2:-results/q001}
mkdir -p "$out"
ccsim="nice -n 10 build/ccsim run"
run() {  # name config sets...
  local name=$1 cfg=$2; shift 2
  [ -f "$out/$name.json" ] && return 0
  local args=() s
  for s in "$@"; do args+=(--set "$s"); done
  $ccsim "$cfg" "${args[@]}" -o "$out/$name.json" > /dev/null
  echo "$name done"
}
small="topology.p=2 topology.a=4 topology.h=2"
adv_steady="sim.warmup=100000 sim.measure=50000"
case $stage in
steady72)
  declare -A variants=(
    [out_fb]="" [out]="routing.qcn_fb_compare=false"
    [in]="routing.qcn_sampling=input routing.qcn_fb_compare=false"
    [in_sp]="routing.qcn_sampling=input routing.qcn_fb_compare=false routing.qcn_source_processing=true"
    [in_fb]="routing.qcn_sampling=input"
    [in_sp_fb]="routing.qcn_sampling=input routing.qcn_source_processing=true")
  for v in out_fb out in in_sp in_fb in_sp_fb; do
    for l in 0.4 0.7 0.9 1.0; do run s72_${v}_un_$l experiments/qcn_001.toml $small ${variants[$v]} traffic.load=$l; done
    for l in 0.2 0.4 0.5; do run s72_${v}_adv_$l experiments/qcn_001.toml $small ${variants[$v]} traffic.pattern=adv traffic.load=$l $adv_steady; done
  done
  for a in min val pb; do
    for l in 0.4 0.7 0.9 1.0; do run s72_${a}_un_$l experiments/qcn_001.toml $small routing.algorithm=$a traffic.load=$l; done
    for l in 0.2 0.4 0.5; do run s72_${a}_adv_$l experiments/qcn_001.toml $small routing.algorithm=$a traffic.pattern=adv traffic.load=$l $adv_steady; done
  done
  # 5.3 sensitivity (final design): CPC/%CNMs, L_f, PI, Th_2; UN at 1.0 and ADV at 0.4
  for s in "cpc=100 routing.qcn_cnm_percent=10" "cpc=25 routing.qcn_cnm_percent=80" "cpc=50 routing.qcn_cnm_percent=30" \
           "lf=0.00390625" "lf=0.0078125" "pi=0.1" "pi=5" "th2=0" "th2=50"; do
    tag=$(echo "$s" | tr ' =' '__' | sed 's/routing.qcn_//g')
    run s72_sens_${tag}_un_1.0 experiments/qcn_001.toml $small routing.qcn_$s traffic.load=1.0
    run s72_sens_${tag}_adv_0.4 experiments/qcn_001.toml $small routing.qcn_$s traffic.pattern=adv traffic.load=0.4 $adv_steady
  done
  ;;
steady342)
  for a in qcn_switch min val pb; do
    run s342_${a}_un_1.0 experiments/qcn_001.toml routing.algorithm=$a traffic.load=1.0
    run s342_${a}_adv_0.4 experiments/qcn_001.toml routing.algorithm=$a traffic.pattern=adv traffic.load=0.4 $adv_steady
  done
  run s342_qcn_nofb_un_1.0 experiments/qcn_001.toml routing.qcn_fb_compare=false traffic.load=1.0
  run s342_in_adv_0.4 experiments/qcn_001.toml routing.qcn_sampling=input routing.qcn_fb_compare=false traffic.pattern=adv traffic.load=0.4 $adv_steady
  run s342_in_sp_adv_0.4 experiments/qcn_001.toml routing.qcn_sampling=input routing.qcn_fb_compare=false routing.qcn_source_processing=true traffic.pattern=adv traffic.load=0.4 $adv_steady
  for a in qcn_switch pb; do
    for pat in hot_region permutation; do run s342_${a}_${pat}_0.8 experiments/qcn_001.toml routing.algorithm=$a traffic.pattern=$pat traffic.load=0.8; done
  done
  ;;
transient)
  sed -e 's/^pattern = "uniform"/pattern = "TMP"/' -e 's/^pattern = "adv"/pattern = "uniform"/' -e 's/^pattern = "TMP"/pattern = "adv"/' -e '/^offset = 1/d' \
    experiments/qcn_001_transient.toml > "$out/adv_un.toml"
  run tr_un_adv experiments/qcn_001_transient.toml
  run tr_adv_un "$out/adv_un.toml"
  run tr_un_adv_pb experiments/qcn_001_transient.toml routing.algorithm=pb
  run tr_un_adv_cpc_packets experiments/qcn_001_transient.toml routing.qcn_cpc_unit=packets
  run tr_un_adv_lf128 experiments/qcn_001_transient.toml routing.qcn_lf=0.0078125
  run tr_un_adv_cnm10 experiments/qcn_001_transient.toml routing.qcn_cnm_percent=10
  run tr_un_adv_cpc25_cnm80 experiments/qcn_001_transient.toml routing.qcn_cpc=25 routing.qcn_cnm_percent=80
  ;;
rp72)  # the QCN reaction point (protocol qcn) beside no congestion control, MIN routing
  for pat in adv hot_region; do
    for cc in none qcn; do
      run s72_rp_${cc}_${pat}_0.8 experiments/qcn_001.toml $small routing.algorithm=min congestion.protocol=$cc traffic.pattern=$pat traffic.load=0.8
    done
  done
  ;;
*) echo "usage: $0 steady72|steady342|transient|rp72 [OUT_DIR]"; exit 1 ;;
esac
