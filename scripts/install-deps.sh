#!/usr/bin/env bash
# Installs the Debian packages ccsim needs; does nothing when all are present.
set -euo pipefail
PKGS=(build-essential cmake ccache pkg-config verilator yosys libsystemc-dev
      libfmt-dev libgtest-dev libgmock-dev libcli11-dev libtomlplusplus-dev
      nlohmann-json3-dev gtkwave python3 python3-matplotlib clang-format
      libopenmpi-dev openmpi-bin slurm-wlm munge qflow-tech-osu018 opensta)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
