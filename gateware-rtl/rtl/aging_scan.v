// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Aging scanner (docs/aging.md, "The scanner"): walks the flow slots through the flow
 * state's command port, one READ every cfg_interval cycles, slots 0 .. cfg_limit - 1 in
 * turn, gives each entry to aging_check and queues every expired slot (slot and timeout
 * class) for the firmware, which frees it (DP.AGE_HEAD / DP.AGE_POP in splice_datapath).
 *
 * One slot at a time: READ issued, its response (static word 0: state and flags; dynamic
 * words: teardown view and last-seen) into aging_check, its result into the queue, then the
 * next slot once the interval since the last READ has passed. A READ is issued only while
 * the queue has room for its result, so an expired slot is never dropped: with the queue
 * full the walk waits where it is. A slot still expired at the next walk is queued again
 * (the firmware re-checks each slot before freeing it, so a repeat frees nothing twice).
 *
 * cfg_enable off stops the walk before its next READ (a READ in flight completes and its
 * result is queued); on again, it resumes at the slot it stopped at. cfg_limit 0 or above
 * SLOTS means SLOTS; a smaller limit that falls at or below the current position restarts
 * the walk at slot 0 (counted as a sweep). cfg_interval below `SNIC_AGE_MIN_INTERVAL
 * counts as `SNIC_AGE_MIN_INTERVAL.
 *
 * The flow-state port: m_fs_valid/m_fs_ready (the op is READ, the caller's constant),
 * m_fs_slot; fs_rsp_valid with fs_rsp_static/fs_rsp_dyn is the response to this master's
 * command (cmd_arb routes each response to the master it answers).
 */
module aging_scan #
(
    parameter SLOTS = 65536,
    parameter SLOT_BITS = $clog2(SLOTS),
    parameter DEPTH = `SNIC_AGE_QUEUE_DEPTH,
    parameter STATIC_WIDTH = `SNIC_FLOW_STATIC_W,
    parameter DYN_WIDTH = `SNIC_FLOW_DYN_W
)
(
    input  wire                     clk,
    input  wire                     rst,

    input  wire                     cfg_enable,
    input  wire [15:0]              cfg_interval,
    input  wire [31:0]              cfg_limit,
    input  wire [31:0]              cfg_now,
    input  wire                     cfg_to_wr_en,
    input  wire [`SNIC_TIMEOUT_CLASS_W-1:0] cfg_to_wr_idx,
    input  wire [31:0]              cfg_to_wr_ticks,

    // flow-state command port (READ)
    output wire                     m_fs_valid,
    input  wire                     m_fs_ready,
    output wire [SLOT_BITS-1:0]     m_fs_slot,
    input  wire                     fs_rsp_valid,
    input  wire [STATIC_WIDTH-1:0]  fs_rsp_static,
    input  wire [DYN_WIDTH-1:0]     fs_rsp_dyn,

    // expired-slot queue
    output wire                     q_valid,
    input  wire                     q_pop,
    output wire [SLOT_BITS-1:0]     q_slot,
    output wire [`SNIC_TIMEOUT_CLASS_W-1:0] q_class,
    output wire [7:0]               q_level,

    output wire [SLOT_BITS-1:0]     stat_pos,
    output wire [31:0]              stat_sweeps,
    output wire [31:0]              stat_expired
);

localparam CW = `SNIC_TIMEOUT_CLASS_W;
localparam QW = SLOT_BITS + CW;
localparam [1:0] ST_IDLE = 2'd0, ST_CMD = 2'd1, ST_RSP = 2'd2, ST_CHECK = 2'd3;

initial begin
    if (SLOTS < 2 || (SLOTS & (SLOTS - 1)) != 0 || (1 << SLOT_BITS) != SLOTS) begin
        $error("Error: SLOTS must be a power of two >= 2 and SLOT_BITS its log2 (instance %m)");
        $finish;
    end
    if (DEPTH < 4 || DEPTH > 64 || (DEPTH & (DEPTH - 1)) != 0) begin
        $error("Error: DEPTH must be a power of two 4..64 (instance %m)");
        $finish;
    end
end

reg  [1:0]           st_reg = ST_IDLE;
reg  [SLOT_BITS-1:0] pos_reg = {SLOT_BITS{1'b0}};
reg  [15:0]          wait_reg = 16'd0;
reg  [31:0]          sweeps_reg = 32'd0;
reg  [31:0]          expired_reg = 32'd0;
reg  [SLOT_BITS:0]   limit_reg = SLOTS;
reg  [15:0]          interval_reg = `SNIC_AGE_MIN_INTERVAL;
reg                  chk_valid_reg = 1'b0;
reg  [7:0]           chk_state_reg = 8'd0, chk_flags_reg = 8'd0, chk_td_reg = 8'd0;
reg  [31:0]          chk_last_reg = 32'd0;

// the walk's limit and interval, registered from the configuration
always @(posedge clk) begin
    limit_reg <= (cfg_limit == 32'd0 || cfg_limit > SLOTS) ? SLOTS[SLOT_BITS:0]
                                                           : cfg_limit[SLOT_BITS:0];
    interval_reg <= cfg_interval < `SNIC_AGE_MIN_INTERVAL ? `SNIC_AGE_MIN_INTERVAL
                                                          : cfg_interval;
end

wire               chk_ready;
wire               res_valid;
wire               res_expired;
wire [SLOT_BITS-1:0] res_slot;
wire [CW-1:0]      res_class;
wire               qin_ready;
wire [$clog2(DEPTH)+1:0] q_count;

aging_check #(
    .SLOT_BITS(SLOT_BITS)
)
check_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(chk_valid_reg),
    .s_ready(chk_ready),
    .s_slot(pos_reg),
    .s_state(chk_state_reg),
    .s_flags(chk_flags_reg),
    .s_teardown(chk_td_reg),
    .s_last_seen(chk_last_reg),
    .m_valid(res_valid),
    .m_ready(1'b1),
    .m_slot(res_slot),
    .m_class(res_class),
    .m_expired(res_expired),
    .cfg_now(cfg_now),
    .cfg_to_wr_en(cfg_to_wr_en),
    .cfg_to_wr_idx(cfg_to_wr_idx),
    .cfg_to_wr_ticks(cfg_to_wr_ticks)
);

dp_fifo #(
    .WIDTH(QW),
    .DEPTH(DEPTH)
)
queue_inst (
    .clk(clk),
    .rst(rst),
    .s_data({res_class, res_slot}),
    .s_valid(res_valid && res_expired),
    .s_ready(qin_ready),
    .m_data({q_class, q_slot}),
    .m_valid(q_valid),
    .m_ready(q_pop),
    .count(q_count)
);

// a READ only while the queue has room for its result (nothing else pushes)
wire room = q_count < DEPTH;
wire [SLOT_BITS:0] pos_next = {1'b0, pos_reg} + 1'b1;

assign m_fs_valid = st_reg == ST_CMD;
assign m_fs_slot = pos_reg;

always @(posedge clk) begin
    chk_valid_reg <= 1'b0;
    if (wait_reg != 16'd0) begin
        wait_reg <= wait_reg - 1'b1;
    end
    case (st_reg)
        ST_IDLE: begin
            if ({1'b0, pos_reg} >= limit_reg) begin
                pos_reg <= {SLOT_BITS{1'b0}};
                sweeps_reg <= sweeps_reg + 1'b1;
            end else if (cfg_enable && wait_reg == 16'd0 && room) begin
                st_reg <= ST_CMD;
                wait_reg <= interval_reg - 1'b1;
            end
        end
        ST_CMD: begin
            if (m_fs_ready) begin
                st_reg <= ST_RSP;
            end
        end
        ST_RSP: begin
            if (fs_rsp_valid) begin
                chk_valid_reg <= 1'b1;
                chk_state_reg <= `SNIC_FLOW_STATIC_STATE(fs_rsp_static);
                chk_flags_reg <= `SNIC_FLOW_STATIC_FLAGS(fs_rsp_static);
                chk_td_reg <= `SNIC_FLOW_DYN_TEARDOWN(fs_rsp_dyn);
                chk_last_reg <= `SNIC_FLOW_DYN_LAST_SEEN(fs_rsp_dyn);
                st_reg <= ST_CHECK;
            end
        end
        default: begin
            if (res_valid) begin
                if (res_expired) begin
                    expired_reg <= expired_reg + 1'b1;
                end
                if (pos_next >= limit_reg) begin
                    pos_reg <= {SLOT_BITS{1'b0}};
                    sweeps_reg <= sweeps_reg + 1'b1;
                end else begin
                    pos_reg <= pos_next[SLOT_BITS-1:0];
                end
                st_reg <= ST_IDLE;
            end
        end
    endcase
    if (rst) begin
        st_reg <= ST_IDLE;
        pos_reg <= {SLOT_BITS{1'b0}};
        wait_reg <= 16'd0;
        sweeps_reg <= 32'd0;
        expired_reg <= 32'd0;
        chk_valid_reg <= 1'b0;
    end
end

wire [31:0] q_count32 = {{30 - $clog2(DEPTH){1'b0}}, q_count};
assign q_level = q_count32[7:0];
assign stat_pos = pos_reg;
assign stat_sweeps = sweeps_reg;
assign stat_expired = expired_reg;

// verilator lint_off UNUSEDSIGNAL
wire unused = chk_ready ^ qin_ready ^ ^fs_rsp_static ^ ^fs_rsp_dyn ^ ^cfg_limit ^ ^q_count32;
// verilator lint_on UNUSEDSIGNAL

endmodule

`resetall
