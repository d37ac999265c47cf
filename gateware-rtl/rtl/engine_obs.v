// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Engine observability (docs/engine.md, "Trace ring" and "Setup latency"): a ring of the
 * engine's last 2^TRACE_AW decisions and a histogram of connection-setup latencies.
 *
 * Trace ring: five sources, each a one-cycle pulse with its fields: client SYN verdicts
 * (syn_*), the ACK validator's verdicts (ack_*), flow-state writes (fs_*, after the setup
 * clock below, so a SPLICED entry carries its latency), forwarded FINs (fin_*) and the
 * decision supply's answers (pick_*). Each source has one holding register; one entry is
 * written per cycle, the sources in that priority order, stamped with the cycle it is
 * written (a decision at most a few cycles earlier). A decision arriving while its source's
 * holding register still waits is counted in trace_lost. Entries are TraceEntry records
 * (128 bits, four DP16KD at 512 entries); the n-th written is at index n mod 2^TRACE_AW.
 * Read port: rd_stb with rd_idx reads the entry (block RAM, registered) into rd_entry the
 * next cycle, where it stays until the next read.
 *
 * Setup latency: per flow slot modulo SETUP_TIMING_SLOTS (one DP16KD, 512 x 36: valid, slot
 * bits 15:9, start time in units of 2^SETUP_TIME_SHIFT cycles) a start time. A flow-state
 * write of state HANDSHAKE starts the slot's clock, a write of REQUEST or CONNECTING starts it
 * when the slot has none (replacing another slot's start is counted in setup_overwritten);
 * the first SPLICED write of the slot stops it and counts the latency
 * in the histogram; a FREE write drops it. Flow-state writes come at most every other cycle
 * (flow_state_mem's command port), so the read-modify-write (read, decide on the registered
 * output and write the next cycle) needs no forwarding. Histogram: SETUP_BUCKETS counters in
 * LUT RAM, bucket 0 below one unit, bucket b >= 1 [2^(b-1), 2^b) units; hist_idx selects
 * the counter on hist_data (asynchronous read; bucket b at address b - 1, bucket 0 at 31).
 *
 * The counters, the ring and the histogram count since power-up (rst does not clear them, as
 * it cannot clear the memories), so the histogram's total is always setup_timed.
 *
 * Pipeline of a flow-state write: F0 (inputs, timing RAM read), F1 (registered start, the
 * timing entry written back), F2 (difference), F3 (bucket, saturated detail, the trace
 * holding register), F4 (histogram increment).
 */
module engine_obs #
(
    parameter SLOT_BITS = 16,
    parameter TRACE_AW = `SNIC_TRACE_DEPTH_LOG2
)
(
    input  wire                 clk,
    input  wire                 rst,
    input  wire [31:0]          cycles,
    input  wire                 trace_en,

    // client SYN verdicts: kind SYN_ANSWERED / SYN_PUNTED / SYN_DROPPED
    input  wire                 syn_valid,
    input  wire [3:0]           syn_kind,
    input  wire [31:0]          syn_ip,
    input  wire [15:0]          syn_port,

    // ACK validator verdicts
    input  wire                 ack_valid,
    input  wire [2:0]           ack_verdict,
    input  wire [15:0]          ack_slot,
    input  wire [7:0]           ack_gen,

    // flow-state static writes (at most every other cycle)
    input  wire                 fs_valid,
    input  wire                 fs_engine,
    input  wire [SLOT_BITS-1:0] fs_slot,
    input  wire [7:0]           fs_state,
    input  wire [7:0]           fs_gen,
    input  wire [31:0]          fs_ip,
    input  wire [15:0]          fs_port,

    // forwarded FINs
    input  wire                 fin_valid,
    input  wire                 fin_port,
    input  wire [7:0]           fin_flags,
    input  wire [15:0]          fin_slot,
    input  wire [7:0]           fin_gen,

    // decision-supply answers
    input  wire                 pick_valid,
    input  wire [15:0]          pick_detail,

    // trace ring read
    input  wire                 rd_stb,
    input  wire [TRACE_AW-1:0]  rd_idx,
    output wire [127:0]         rd_entry,
    output reg  [31:0]          trace_count = 32'd0,
    output reg  [31:0]          trace_lost = 32'd0,

    // histogram read
    input  wire [4:0]           hist_idx,
    output wire [31:0]          hist_data,
    output reg  [31:0]          setup_timed = 32'd0,
    output reg  [31:0]          setup_overwritten = 32'd0
);

localparam TS = `SNIC_SETUP_TIME_SHIFT;
localparam TW = 32 - TS;                      // start-time bits
localparam TM_AW = $clog2(`SNIC_SETUP_TIMING_SLOTS);
localparam TAG_W = 16 - TM_AW;                // slot bits above the timing index
localparam TM_W = 1 + TAG_W + TW;             // 36: one DP16KD at 512
localparam NB = `SNIC_SETUP_BUCKETS;

`include "splicenic_records_fn.vh"

initial begin
    if (TM_W != 36 || TW != 28) begin
        $error("engine_obs: the timing entry must be 36 bits (valid, tag, 28-bit time)");
        $finish;
    end
    if (SLOT_BITS > 16 || NB > 32 || NB != TW + 1) begin
        $error("engine_obs: SLOT_BITS <= 16, SETUP_BUCKETS = start-time bits + 1 <= 32");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// Setup clock

reg [TM_W-1:0] tm_mem [0:(1<<TM_AW)-1];
reg [TM_W-1:0] tm_q = {TM_W{1'b0}};
integer ti;
initial begin
    for (ti = 0; ti < (1 << TM_AW); ti = ti + 1) begin
        tm_mem[ti] = {TM_W{1'b0}};
    end
end

wire [15:0] fs_slot16 = {{16-SLOT_BITS{1'b0}}, fs_slot};

// F0 registers
reg         f1_valid = 1'b0;
reg         f1_engine = 1'b0;
reg [15:0]  f1_slot = 16'd0;
reg [7:0]   f1_state = 8'd0;
reg [7:0]   f1_gen = 8'd0;
reg [31:0]  f1_ip = 32'd0;
reg [15:0]  f1_port = 16'd0;
reg [TW-1:0] f1_now = {TW{1'b0}};

always @(posedge clk) begin
    if (fs_valid) begin
        tm_q <= tm_mem[fs_slot16[TM_AW-1:0]];
    end
    f1_valid <= fs_valid && fs_state <= `SNIC_FLOW_STATE_CLOSING;
    if (fs_valid) begin
        f1_engine <= fs_engine;
        f1_slot <= fs_slot16;
        f1_state <= fs_state;
        f1_gen <= fs_gen;
        f1_ip <= fs_ip;
        f1_port <= fs_port;
        f1_now <= cycles[31:TS];
    end
    if (rst) begin
        f1_valid <= 1'b0;
    end
end

// F1: the slot's start (registered RAM output) and the write back
wire              f1_tag_hit = tm_q[TM_W-1] && tm_q[TW +: TAG_W] == f1_slot[15:TM_AW];
// HANDSHAKE starts the clock; REQUEST or CONNECTING start it when the slot has none (a
// handshake the firmware completed without writing HANDSHAKE: the card's SYN-ACK, the
// firmware's check of the ACK)
wire              f1_start = f1_state == `SNIC_FLOW_STATE_HANDSHAKE ||
                             ((f1_state == `SNIC_FLOW_STATE_REQUEST ||
                               f1_state == `SNIC_FLOW_STATE_CONNECTING) && !f1_tag_hit);
wire              f1_stop = f1_state == `SNIC_FLOW_STATE_SPLICED && f1_tag_hit;
wire              f1_drop = f1_state == `SNIC_FLOW_STATE_FREE && f1_tag_hit;

reg         f2_valid = 1'b0;
reg         f2_timed = 1'b0;
reg         f2_engine = 1'b0;
reg [15:0]  f2_slot = 16'd0;
reg [3:0]   f2_kind = 4'd0;
reg [7:0]   f2_gen = 8'd0;
reg [31:0]  f2_ip = 32'd0;
reg [15:0]  f2_port = 16'd0;
reg [TW-1:0] f2_now = {TW{1'b0}};
reg [TW-1:0] f2_start = {TW{1'b0}};

always @(posedge clk) begin
    if (f1_valid && (f1_start || f1_stop || f1_drop)) begin
        tm_mem[f1_slot[TM_AW-1:0]] <= {f1_start, f1_slot[15:TM_AW], f1_now};
    end
    if (f1_valid && f1_start && tm_q[TM_W-1] && !f1_tag_hit) begin
        setup_overwritten <= setup_overwritten + 1'b1;
    end
    f2_valid <= f1_valid;
    if (f1_valid) begin
        f2_timed <= f1_stop;
        f2_engine <= f1_engine;
        f2_slot <= f1_slot;
        // FlowState 0..5 -> TraceKind FREE, HANDSHAKE .. CLOSING
        f2_kind <= f1_state == `SNIC_FLOW_STATE_FREE ? `SNIC_TRACE_KIND_FREE
                 : f1_state[3:0] + (`SNIC_TRACE_KIND_HANDSHAKE - 4'd1);
        f2_gen <= f1_gen;
        f2_ip <= f1_ip;
        f2_port <= f1_port;
        f2_now <= f1_now;
        f2_start <= tm_q[TW-1:0];
    end
    if (rst) begin
        f2_valid <= 1'b0;
    end
end

// F2: the latency in units
reg         f3_valid = 1'b0;
reg         f3_timed = 1'b0;
reg         f3_engine = 1'b0;
reg [15:0]  f3_slot = 16'd0;
reg [3:0]   f3_kind = 4'd0;
reg [7:0]   f3_gen = 8'd0;
reg [31:0]  f3_ip = 32'd0;
reg [15:0]  f3_port = 16'd0;
reg [TW-1:0] f3_diff = {TW{1'b0}};

always @(posedge clk) begin
    f3_valid <= f2_valid;
    if (f2_valid) begin
        f3_timed <= f2_timed;
        f3_engine <= f2_engine;
        f3_slot <= f2_slot;
        f3_kind <= f2_kind;
        f3_gen <= f2_gen;
        f3_ip <= f2_ip;
        f3_port <= f2_port;
        f3_diff <= f2_now - f2_start;
    end
    if (rst) begin
        f3_valid <= 1'b0;
    end
end

// F3: the leading one of the latency (a binary-search detector, five levels) and whether
// it is zero, and the saturated detail. The histogram's address is the leading one's
// position (bucket b >= 1 at address b - 1) and address 31 for bucket 0 (a latency below
// one unit; positions end at TW - 1 = 27), so no adder follows the detector.
// (bit 0 of the last pair decides nothing: position 0 is the default)
// verilator lint_off UNUSEDSIGNAL
function [4:0] msb_of(input [TW-1:0] d);
    reg [31:0] x;
    reg [15:0] x16;
    reg [7:0]  x8;
    reg [3:0]  x4;
    begin
        x = {{32-TW{1'b0}}, d};
        msb_of[4] = |x[31:16];
        x16 = msb_of[4] ? x[31:16] : x[15:0];
        msb_of[3] = |x16[15:8];
        x8 = msb_of[3] ? x16[15:8] : x16[7:0];
        msb_of[2] = |x8[7:4];
        x4 = msb_of[2] ? x8[7:4] : x8[3:0];
        msb_of[1] = |x4[3:2];
        msb_of[0] = msb_of[1] ? x4[3] : x4[1];
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

reg        f4_inc = 1'b0;
reg [4:0]  f4_msb = 5'd0;
reg        f4_nz = 1'b0;

always @(posedge clk) begin
    f4_inc <= f3_valid && f3_timed;
    f4_msb <= msb_of(f3_diff);
    f4_nz <= |f3_diff;
    if (rst) begin
        f4_inc <= 1'b0;
    end
end

// F4: the histogram (LUT RAM, two asynchronous read ports: the increment and hist_idx)
reg [31:0] hist_mem [0:31];
integer hi;
initial begin
    for (hi = 0; hi < 32; hi = hi + 1) begin
        hist_mem[hi] = 32'd0;
    end
end

wire [4:0] f4_addr = f4_nz ? f4_msb : 5'd31;

always @(posedge clk) begin
    if (f4_inc) begin
        hist_mem[f4_addr] <= hist_mem[f4_addr] + 1'b1;
        setup_timed <= setup_timed + 1'b1;
    end
end
assign hist_data = hist_mem[hist_idx == 5'd0 ? 5'd31 : hist_idx - 5'd1];

// ---------------------------------------------------------------------------------------
// Trace ring: holding registers, a fixed-priority pick, one write per cycle

reg         h_syn = 1'b0, h_ack = 1'b0, h_fs = 1'b0, h_fin = 1'b0, h_pick = 1'b0;
reg [3:0]   hs_kind = 4'd0;
reg [31:0]  hs_ip = 32'd0;
reg [15:0]  hs_port = 16'd0;
reg [2:0]   ha_verdict = 3'd0;
reg [15:0]  ha_slot = 16'd0;
reg [7:0]   ha_gen = 8'd0;
reg [3:0]   hf_kind = 4'd0;
reg         hf_engine = 1'b0, hf_timed = 1'b0;
reg [15:0]  hf_slot = 16'd0, hf_detail = 16'd0, hf_port = 16'd0;
reg [7:0]   hf_gen = 8'd0;
reg [31:0]  hf_ip = 32'd0;
reg         hn_port = 1'b0;
reg [7:0]   hn_flags = 8'd0, hn_gen = 8'd0;
reg [15:0]  hn_slot = 16'd0;
reg [15:0]  hp_detail = 16'd0;

// which holding register is written this cycle
wire w_fs = h_fs;
wire w_ack = h_ack && !h_fs;
wire w_syn = h_syn && !h_fs && !h_ack;
wire w_fin = h_fin && !h_fs && !h_ack && !h_syn;
wire w_pick = h_pick && !h_fs && !h_ack && !h_syn && !h_fin;
wire w_any = h_fs || h_ack || h_syn || h_fin || h_pick;

wire f3_push = f3_valid && trace_en;
wire [15:0] f3_detail = f3_timed ? (|f3_diff[TW-1:16] ? 16'hffff : f3_diff[15:0]) : 16'd0;

reg [127:0] tr_mem [0:(1<<TRACE_AW)-1];
reg [127:0] tr_q = 128'd0;
integer ri;
initial begin
    for (ri = 0; ri < (1 << TRACE_AW); ri = ri + 1) begin
        tr_mem[ri] = 128'd0;
    end
end

// the entry written this cycle, field by field
wire [3:0]  e_kind = w_fs ? hf_kind : w_ack ? `SNIC_TRACE_KIND_ACK : w_syn ? hs_kind
                   : w_fin ? `SNIC_TRACE_KIND_FIN : `SNIC_TRACE_KIND_PICK;
wire        e_port = w_fs ? hf_engine : w_fin && hn_port;
wire [7:0]  e_gen = w_fs ? hf_gen : w_ack ? ha_gen : w_fin ? hn_gen : 8'd0;
wire [15:0] e_slot = w_fs ? hf_slot : w_ack ? ha_slot : w_fin ? hn_slot : 16'd0;
wire [15:0] e_detail = w_fs ? hf_detail : w_ack ? {13'd0, ha_verdict}
                     : w_fin ? {8'd0, hn_flags} : w_pick ? hp_detail : 16'd0;
wire [31:0] e_ip = w_fs ? hf_ip : w_syn ? hs_ip : 32'd0;
wire [15:0] e_cport = w_fs ? hf_port : w_syn ? hs_port : 16'd0;

always @(posedge clk) begin
    if (w_any) begin
        tr_mem[trace_count[TRACE_AW-1:0]] <= snic_trace_entry_pack(cycles, e_kind, e_port,
            w_fs && hf_timed, e_gen, e_slot, e_detail, e_ip, e_cport);
    end
    if (rd_stb) begin
        tr_q <= tr_mem[rd_idx];
    end
end
assign rd_entry = tr_q;

// the lost decisions of a cycle (one per source at most)
function [2:0] lost_of(input a, input b, input c, input d, input e);
    lost_of = {2'd0, a} + {2'd0, b} + {2'd0, c} + {2'd0, d} + {2'd0, e};
endfunction

always @(posedge clk) begin
    if (w_any) begin
        trace_count <= trace_count + 1'b1;
    end
    trace_lost <= trace_lost + {29'd0, lost_of(
        trace_en && syn_valid && h_syn && !w_syn,
        trace_en && ack_valid && h_ack && !w_ack,
        f3_push && h_fs && !w_fs,
        trace_en && fin_valid && h_fin && !w_fin,
        trace_en && pick_valid && h_pick && !w_pick)};

    if (w_syn) h_syn <= 1'b0;
    if (w_ack) h_ack <= 1'b0;
    if (w_fs) h_fs <= 1'b0;
    if (w_fin) h_fin <= 1'b0;
    if (w_pick) h_pick <= 1'b0;

    if (trace_en && syn_valid && (!h_syn || w_syn)) begin
        h_syn <= 1'b1;
        hs_kind <= syn_kind;
        hs_ip <= syn_ip;
        hs_port <= syn_port;
    end
    if (trace_en && ack_valid && (!h_ack || w_ack)) begin
        h_ack <= 1'b1;
        ha_verdict <= ack_verdict;
        ha_slot <= ack_slot;
        ha_gen <= ack_gen;
    end
    if (f3_push && (!h_fs || w_fs)) begin
        h_fs <= 1'b1;
        hf_kind <= f3_kind;
        hf_engine <= f3_engine;
        hf_timed <= f3_timed;
        hf_slot <= f3_slot;
        hf_detail <= f3_detail;
        hf_gen <= f3_gen;
        hf_ip <= f3_ip;
        hf_port <= f3_port;
    end
    if (trace_en && fin_valid && (!h_fin || w_fin)) begin
        h_fin <= 1'b1;
        hn_port <= fin_port;
        hn_flags <= fin_flags;
        hn_slot <= fin_slot;
        hn_gen <= fin_gen;
    end
    if (trace_en && pick_valid && (!h_pick || w_pick)) begin
        h_pick <= 1'b1;
        hp_detail <= pick_detail;
    end

    if (rst) begin
        h_syn <= 1'b0;
        h_ack <= 1'b0;
        h_fs <= 1'b0;
        h_fin <= 1'b0;
        h_pick <= 1'b0;
    end
end

endmodule

`resetall
