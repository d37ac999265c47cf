#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Gateware checks: Verilator lint (-Wall on our files), Icarus compile and smoke test,
# Yosys generic synthesis.
# Core sources: PICORV32_DIR / VEXRISCV_DIR, else the project virtualenv packages.
set -u

GW="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$GW/.." && pwd)"
PY="$ROOT/.venv/bin/python"

pkg_dir() {
    "$PY" -c "import $1 as p; print(p.data_location)" 2>/dev/null
}

PICORV32_DIR="${PICORV32_DIR:-$(pkg_dir pythondata_cpu_picorv32)}"
VEXRISCV_DIR="${VEXRISCV_DIR:-$(pkg_dir pythondata_cpu_vexriscv)}"
PICO="$PICORV32_DIR/picorv32.v"
VEX="$VEXRISCV_DIR/VexRiscv_IMAC.v"

if [ -z "$PICORV32_DIR" ] || [ ! -f "$PICO" ]; then
    echo "FAIL: PicoRV32 sources not found (set PICORV32_DIR or run \`cargo xtask setup\`)"
    exit 1
fi

cd "$GW"
mapfile -t FILES < <(grep -v '^\s*\(#\|$\)' rtl/files.f)
INC=(-Irtl/generated)
LOG="$(mktemp -d)"
trap 'rm -rf "$LOG"' EXIT
failed=0

step() {
    local name="$1"
    shift
    local start=$SECONDS
    if "$@" >"$LOG/$name.log" 2>&1; then
        echo "PASS: $name ($((SECONDS - start)) s)"
    else
        echo "FAIL: $name ($((SECONDS - start)) s)"
        tail -n 30 "$LOG/$name.log" | sed 's/^/    /'
        failed=1
    fi
}

step "verilator lint (PicoRV32)" \
    verilator --lint-only -Wall "${INC[@]}" --top-module card_top syn/lint_cores.vlt "${FILES[@]}" "$PICO"

step "verilator lint (PicoRV32, DATA_WIDTH=512)" \
    verilator --lint-only -Wall "${INC[@]}" --top-module card_top -GDATA_WIDTH=512 syn/lint_cores.vlt "${FILES[@]}" "$PICO"

if [ -n "$VEXRISCV_DIR" ] && [ -f "$VEX" ]; then
    step "verilator lint (VexRiscv)" \
        verilator --lint-only -Wall "${INC[@]}" --top-module card_top -GCPU='"VEXRISCV"' \
        syn/lint_cores.vlt "${FILES[@]}" "$VEX"
else
    echo "SKIP: verilator lint (VexRiscv): sources not found"
fi

step "iverilog compile (PicoRV32)" \
    iverilog -g2012 "${INC[@]}" -s card_top -o "$LOG/card_top.vvp" "${FILES[@]}" "$PICO"

tb_run() {
    iverilog -g2012 "${INC[@]}" -s tb_card_top -o "$LOG/tb.vvp" tb/tb_card_top.v "${FILES[@]}" "$PICO" &&
        vvp -n "$LOG/tb.vvp" | tee "$LOG/tb.out" && grep -q '^PASS' "$LOG/tb.out" && ! grep -q '^FAIL' "$LOG/tb.out"
}
step "icarus tb_card_top" tb_run

# Generic synthesis up to the fine stage, then gate mapping without memory_map: the
# memories stay memory cells (block RAM in a device flow) instead of ~800k flip-flops.
# card_top with the data path as a black box (synthesised below on its own).
DPBB=(rtl/eth_tcp_parser.v rtl/tcp_classifier.v rtl/flow_table.v rtl/flow_state_mem.v
    rtl/splice_rewriter.v rtl/l7_matcher.v rtl/stats_counters.v rtl/evt_queue.v
    rtl/pkt_punt_buf.v rtl/pkt_inject_buf.v rtl/syn_responder.v rtl/ack_validator.v rtl/sched_unit.v
    rtl/load_sched.v rtl/load_sched_cmp.v rtl/engine_obs.v rtl/aging_check.v rtl/aging_scan.v
    rtl/tcp_tx_gen.v rtl/fin_count.v rtl/head_buf.v rtl/head_replay.v rtl/absorb_engine.v)
SOC=(); for f in "${FILES[@]}"; do case "$f" in rtl/card_top.v|rtl/soc_*|rtl/csr_*) SOC+=("$f");; esac; done
YS="read_verilog ${INC[*]} ${SOC[*]} $PICO; read_verilog -lib ${INC[*]} rtl/splice_datapath.v; \
synth -top card_top -flatten -run begin:fine; \
opt -fast -full; techmap; opt -fast; abc -fast; opt -fast; check -assert; tee -o $LOG/stat.txt stat"
step "yosys synth (PicoRV32)" yosys -q -p "$YS"
if [ -f "$LOG/stat.txt" ]; then
    cells=$(awk '/Number of cells:/ {n=$4} END {print n}' "$LOG/stat.txt")
    mems=$(awk '/\$mem_v2/ {n=$2} END {print n}' "$LOG/stat.txt")
    echo "      card_top (SoC): ${cells:-?} cells, ${mems:-0} memories kept as \$mem_v2"
fi

# Data path integration (splice_datapath and its glue: length guard, FIFOs, frame
# arbiters, command arbiters, the SYN-ACK option layouts, CSR blocks): lint at DATA_WIDTH 64 and 512, Icarus compile, Yosys generic
# synthesis with the big modules (each synthesised on its own below) as black boxes.
DPF=(); for f in "${FILES[@]}"; do case "$f" in rtl/card_top.v|rtl/soc_*|rtl/csr_*) ;; *) DPF+=("$f");; esac; done
for w in 64 512; do
    step "verilator lint (splice_datapath DATA_WIDTH=$w)" \
        verilator --lint-only -Wall "${INC[@]}" --top-module splice_datapath -GDATA_WIDTH=$w "${DPF[@]}"
done
step "iverilog compile (splice_datapath)" \
    iverilog -g2012 "${INC[@]}" -s splice_datapath -o "$LOG/splice_datapath.vvp" "${DPF[@]}"
step "yosys synth (splice_datapath glue, DATA_WIDTH=64)" yosys -q -p "read_verilog ${INC[*]} \
rtl/splice_datapath.v rtl/dp_fifo.v rtl/axis_frame_arb.v rtl/axis_len_guard.v rtl/cmd_arb.v \
rtl/synack_opts.v; \
read_verilog -lib ${INC[*]} ${DPBB[*]}; \
chparam -set FLOW_BUCKETS 1024 -set FLOW_SLOTS 1024 splice_datapath; \
synth -top splice_datapath -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; \
opt -fast; check -assert"

# Flow lookup and flow state memory, each as its own top: lint at the test size and the
# default (64K-entry) size, Icarus compile, Yosys generic synthesis at the default size.
for m in "flow_table -GBUCKETS=256" "flow_table" "flow_state_mem -GSLOTS=256" "flow_state_mem"; do
    step "verilator lint ($m)" verilator --lint-only -Wall "${INC[@]}" --top-module $m rtl/${m%% *}.v
done
for m in flow_table flow_state_mem; do
    step "iverilog compile ($m)" iverilog -g2012 "${INC[@]}" -s $m -o "$LOG/$m.vvp" rtl/$m.v
    step "yosys synth ($m)" yosys -q -p "read_verilog ${INC[*]} rtl/$m.v; synth -top $m -flatten -run begin:fine; \
opt -fast -full; techmap; opt -fast; abc -fast; opt -fast; check -assert"
done

# RX parser (lint at DATA_WIDTH 64 and 512) and classifier, each as its own top: lint,
# Icarus compile, Yosys generic synthesis (parser at DATA_WIDTH 64).
for w in 64 512; do
    step "verilator lint (eth_tcp_parser DATA_WIDTH=$w)" \
        verilator --lint-only -Wall "${INC[@]}" --top-module eth_tcp_parser -GDATA_WIDTH=$w rtl/eth_tcp_parser.v
done
step "iverilog compile (eth_tcp_parser)" \
    iverilog -g2012 "${INC[@]}" -s eth_tcp_parser -o "$LOG/eth_tcp_parser.vvp" rtl/eth_tcp_parser.v
step "verilator lint (tcp_classifier)" \
    verilator --lint-only -Wall "${INC[@]}" --top-module tcp_classifier rtl/tcp_classifier.v
step "iverilog compile (tcp_classifier)" \
    iverilog -g2012 "${INC[@]}" -s tcp_classifier -o "$LOG/tcp_classifier.vvp" rtl/tcp_classifier.v
step "yosys synth (tcp_classifier)" yosys -q -p "read_verilog ${INC[*]} rtl/tcp_classifier.v; \
synth -top tcp_classifier -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; \
opt -fast; check -assert"
step "yosys synth (eth_tcp_parser)" yosys -q -p "read_verilog ${INC[*]} rtl/eth_tcp_parser.v; \
synth -top eth_tcp_parser -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; \
opt -fast; check -assert"

# Splice rewriter and its RFC 1624 checksum unit: lint at DATA_WIDTH 64 and 512, Icarus
# compile, Yosys generic synthesis of the checksum unit and of the rewriter at DATA_WIDTH 64
# (~40 s).
SPLICE=(rtl/splice_rewriter.v rtl/splice_csum_update.v)
for w in 64 512; do
    step "verilator lint (splice_rewriter DATA_WIDTH=$w)" \
        verilator --lint-only -Wall "${INC[@]}" --top-module splice_rewriter -GDATA_WIDTH=$w "${SPLICE[@]}"
done
step "iverilog compile (splice_rewriter)" \
    iverilog -g2012 "${INC[@]}" -s splice_rewriter -o "$LOG/splice_rewriter.vvp" "${SPLICE[@]}"
step "yosys synth (splice_csum_update WORDS=17)" yosys -q -p "read_verilog ${INC[*]} rtl/splice_csum_update.v; \
chparam -set WORDS 17 splice_csum_update; synth -top splice_csum_update; check -assert"
step "yosys synth (splice_rewriter DATA_WIDTH=64)" yosys -q -p "read_verilog ${INC[*]} ${SPLICE[*]}; \
synth -top splice_rewriter -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; \
opt -fast; check -assert"

# L7 matcher: lint at DATA_WIDTH 64 and 512, Icarus compile, Yosys generic synthesis at
# DATA_WIDTH 64 up to the fine stage with a reduced table (RULES 8, LANES 2, PAT_MAX 16,
# ~25 s); the default-size gate-level synthesis takes ~3 min (see l7_matcher.v header).
L7=(rtl/l7_matcher.v rtl/l7_req_scan.v rtl/l7_rule_bank.v)
for w in 64 512; do
    step "verilator lint (l7_matcher DATA_WIDTH=$w)" \
        verilator --lint-only -Wall "${INC[@]}" --top-module l7_matcher -GDATA_WIDTH=$w "${L7[@]}"
done
step "iverilog compile (l7_matcher)" \
    iverilog -g2012 "${INC[@]}" -s l7_matcher -o "$LOG/l7_matcher.vvp" "${L7[@]}"
step "yosys synth (l7_matcher DATA_WIDTH=64, reduced table)" yosys -q -p "read_verilog ${INC[*]} ${L7[*]}; \
chparam -set DATA_WIDTH 64 -set RULES 8 -set LANES 2 -set PAT_MAX 16 -set WINDOW 256 l7_matcher; \
synth -top l7_matcher -flatten -noshare -run begin:fine; check -assert"

# Stats block, event queue, punt / inject buffers, each as its own top: lint (buffers at
# DATA_WIDTH 64 and 512), Icarus compile, Yosys generic synthesis with small parameters
# (DATA_WIDTH 64; a few seconds each).
for m in stats_counters evt_queue "pkt_punt_buf -GDATA_WIDTH=64" "pkt_punt_buf -GDATA_WIDTH=512" \
    "pkt_inject_buf -GDATA_WIDTH=64" "pkt_inject_buf -GDATA_WIDTH=512"; do
    step "verilator lint ($m)" verilator --lint-only -Wall "${INC[@]}" --top-module $m rtl/${m%% *}.v
done
for m in stats_counters evt_queue pkt_punt_buf pkt_inject_buf; do
    step "iverilog compile ($m)" iverilog -g2012 "${INC[@]}" -s $m -o "$LOG/$m.vvp" rtl/$m.v
done
for m in "stats_counters -set COUNTERS 64 -set INPUTS 2" "evt_queue -set DEPTH 16" \
    "pkt_punt_buf -set SLOTS 4 -set SLOT_BYTES 256" "pkt_inject_buf -set SLOTS 2 -set SLOT_BYTES 256"; do
    top=${m%% *}
    step "yosys synth ($m)" yosys -q -p "read_verilog ${INC[*]} rtl/$top.v; chparam ${m#* } $top; \
synth -top $top -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; opt -fast; \
check -assert"
done

# A unit on its own: Verilator lint (-Wall), Icarus compile and Yosys generic synthesis up
# to the fine stage, with TOP as the top module and the given sources.
unit() {
    local top="$1"
    shift
    step "verilator lint ($top)" verilator --lint-only -Wall "${INC[@]}" --top-module "$top" "$@"
    step "iverilog compile ($top)" iverilog -g2012 "${INC[@]}" -s "$top" -o "$LOG/$top.vvp" "$@"
    step "yosys synth ($top)" yosys -q -p "read_verilog ${INC[*]} $*; \
synth -top $top -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; \
opt -fast; check -assert"
}

# SYN-cookie unit (also inside the SYN responder, so in files.f; a few seconds).
unit syn_cookie rtl/syn_cookie.v
# Decision supply, table schedulers (sched_unit with its response FIFO; inside
# splice_datapath, so in files.f; ~20 s).
unit sched_unit rtl/sched_unit.v rtl/dp_fifo.v
# Decision supply, least-load schedulers (load_sched with its comparator; inside
# splice_datapath, so in files.f).
unit load_sched rtl/load_sched.v rtl/load_sched_cmp.v
# Request-head buffer (head_buf with its replay FIFO; inside splice_datapath, so in
# files.f).
unit head_buf rtl/head_buf.v rtl/dp_fifo.v
# Server connection: TCP frame generator (inside splice_datapath behind DP.TXGEN_*, so in
# files.f) and SYN-ACK absorber (inside absorb_engine, below); the generator at both
# widths.
unit tcp_tx_gen rtl/tcp_tx_gen.v
step "verilator lint (tcp_tx_gen, DATA_WIDTH=512)" \
    verilator --lint-only -Wall "${INC[@]}" --top-module tcp_tx_gen -GDATA_WIDTH=512 rtl/tcp_tx_gen.v
unit synack_absorb rtl/synack_absorb.v
# The absorber in the data path (absorb_engine: its synack_absorb and candidate FIFO; the
# option layouts of a SYN-ACK, synack_opts; inside splice_datapath, so in files.f).
unit absorb_engine rtl/absorb_engine.v rtl/synack_absorb.v rtl/dp_fifo.v
unit synack_opts rtl/synack_opts.v
# Request path decision (req_ack: a client segment against the head, the ACK; a block of
# the connection engine, not yet inside splice_datapath).
unit req_ack rtl/req_ack.v
# Request-head replay (head_replay with its tcp_tx_gen; inside splice_datapath, so in
# files.f), lint at both widths.
unit head_replay rtl/head_replay.v rtl/tcp_tx_gen.v
step "verilator lint (head_replay, DATA_WIDTH=512)" \
    verilator --lint-only -Wall "${INC[@]}" --top-module head_replay -GDATA_WIDTH=512 rtl/head_replay.v rtl/tcp_tx_gen.v
# Aging check and scanner (the scanner walks the flow state through its command port, the
# check decides per slot; inside splice_datapath, so in files.f).
unit aging_check rtl/aging_check.v
unit aging_scan rtl/aging_scan.v rtl/aging_check.v rtl/dp_fifo.v
# Per-server counts of first FINs (inside splice_datapath, so in files.f).
unit fin_count rtl/fin_count.v
# Engine observability (trace ring, setup-latency histogram; inside splice_datapath, so in
# files.f).
unit engine_obs rtl/engine_obs.v
# TCP option decoder (inside the SYN responder, so in files.f; ~25 s).
unit tcp_opt_decoder rtl/tcp_opt_decoder.v

# SYN responder (in the data path): lint at both widths, Icarus compile and Yosys generic
# synthesis on its own (its cookie units and option decoder, synthesised above, as black
# boxes; the data path's glue synthesis above has the responder as a black box).
SR=(rtl/syn_responder.v rtl/syn_cookie.v rtl/tcp_opt_decoder.v rtl/dp_fifo.v)
step "verilator lint (syn_responder)" \
    verilator --lint-only -Wall "${INC[@]}" --top-module syn_responder "${SR[@]}"
step "verilator lint (syn_responder, DATA_WIDTH=512, UNITS=8)" \
    verilator --lint-only -Wall "${INC[@]}" -GDATA_WIDTH=512 -GUNITS=8 \
    --top-module syn_responder "${SR[@]}"
step "iverilog compile (syn_responder)" \
    iverilog -g2012 "${INC[@]}" -s syn_responder -o "$LOG/syn_responder.vvp" "${SR[@]}"
step "yosys synth (syn_responder)" yosys -q -p "read_verilog ${INC[*]} rtl/syn_responder.v \
rtl/dp_fifo.v; read_verilog -lib ${INC[*]} rtl/syn_cookie.v rtl/tcp_opt_decoder.v; \
synth -top syn_responder -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; \
opt -fast; check -assert"

# ACK validator (in the data path): lint, Icarus compile, Yosys generic synthesis on its own
# (its cookie units as black boxes; the data path's glue synthesis has it as a black box).
AV=(rtl/ack_validator.v rtl/syn_cookie.v rtl/dp_fifo.v)
step "verilator lint (ack_validator)" \
    verilator --lint-only -Wall "${INC[@]}" --top-module ack_validator "${AV[@]}"
step "verilator lint (ack_validator, UNITS=1, SLOT_BITS=14)" \
    verilator --lint-only -Wall "${INC[@]}" -GUNITS=1 -GSLOT_BITS=14 --top-module ack_validator "${AV[@]}"
step "iverilog compile (ack_validator)" \
    iverilog -g2012 "${INC[@]}" -s ack_validator -o "$LOG/ack_validator.vvp" "${AV[@]}"
step "yosys synth (ack_validator)" yosys -q -p "read_verilog ${INC[*]} rtl/ack_validator.v \
rtl/dp_fifo.v; read_verilog -lib ${INC[*]} rtl/syn_cookie.v; \
synth -top ack_validator -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; abc -fast; \
opt -fast; check -assert"

# Command-port arbiter (the flow table's and flow state's ports in the data path): lint,
# Icarus compile, Yosys generic synthesis.
step "verilator lint (cmd_arb)" verilator --lint-only -Wall --top-module cmd_arb rtl/cmd_arb.v
step "iverilog compile (cmd_arb)" iverilog -g2012 -s cmd_arb -o "$LOG/cmd_arb.vvp" rtl/cmd_arb.v
step "yosys synth (cmd_arb)" yosys -q -p "read_verilog rtl/cmd_arb.v; chparam -set WIDTH 115 cmd_arb; \
synth -top cmd_arb -flatten; check -assert"

exit $failed
