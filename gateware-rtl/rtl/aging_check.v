// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Aging check (docs/aging.md): the decision of the card's aging scan for one flow slot per
 * cycle: the slot's timeout class from its state, flags and teardown view, and whether it has
 * been idle for its class's timeout. The reference is the firmware's own scan
 * (`Splicer::timeout_class` and `flowmgr::aging::is_expired`, firmware/logic/src); test-aging
 * runs both on random entries.
 *
 * In (one per cycle, s_valid/s_ready): a slot number and what its entry holds: FlowStatic
 * state and flags, FlowDyn teardown and last_seen. The timeout table (TIMEOUT_CLASSES entries
 * of DP.NOW ticks) is written through cfg_to_wr_*; cfg_now is DP.NOW, sampled with each slot.
 * Out (m_valid/m_ready, in order): the slot, its class (TimeoutClass; NONE for a slot that is
 * neither SPLICED nor CLOSING: it does not age here) and m_expired: a class other than NONE
 * and age >= the class's timeout, where age = cfg_now - last_seen modulo 2^32, taken as 0
 * when that difference is at least 2^31 (a segment seen after now was sampled).
 *
 * Classes (the firmware's timeout_class), where a side's FIN is its entry flag (FIN_CLIENT,
 * FIN_SERVER: the firmware's FIN events) or its teardown-view flag (FIN_CS, FIN_SC: the
 * card's own, with DP.FIN_CTRL.EVENTS 0): SPLICED or CLOSING with both ACKED_CS and ACKED_SC
 * and no RST flag: LINGER; else SPLICED without a FIN: ESTABLISHED; CLOSING with RST: CLOSE;
 * both FINs: TIME_WAIT; other: FIN_WAIT.
 *
 * Pipeline (a global enable: every stage moves when the result register is empty or taken):
 *   S1 inputs and now -> S2 class, age (the 32-bit difference) -> S3 the class's timeout
 *   (a TIMEOUT_CLASSES:1 multiplexer of registers) -> S4 (result) the 32-bit compare.
 * A table write takes effect for the slots in S2 from the next cycle on.
 */
module aging_check #
(
    parameter SLOT_BITS = 16
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  s_valid,
    output wire                  s_ready,
    input  wire [SLOT_BITS-1:0]  s_slot,
    input  wire [7:0]            s_state,
    input  wire [7:0]            s_flags,
    input  wire [7:0]            s_teardown,
    input  wire [31:0]           s_last_seen,

    output wire                  m_valid,
    input  wire                  m_ready,
    output wire [SLOT_BITS-1:0]  m_slot,
    output wire [`SNIC_TIMEOUT_CLASS_W-1:0] m_class,
    output wire                  m_expired,

    input  wire [31:0]           cfg_now,
    input  wire                  cfg_to_wr_en,
    input  wire [`SNIC_TIMEOUT_CLASS_W-1:0] cfg_to_wr_idx,
    input  wire [31:0]           cfg_to_wr_ticks
);

localparam CW = `SNIC_TIMEOUT_CLASS_W;
localparam N = `SNIC_TIMEOUT_CLASSES;
localparam [7:0] ACKED = `SNIC_TEARDOWN_ACKED_CS | `SNIC_TEARDOWN_ACKED_SC;

// the timeout table (DP.NOW ticks per class)
reg [31:0] to_reg [0:N-1];
integer ti;
initial begin
    for (ti = 0; ti < N; ti = ti + 1) begin
        to_reg[ti] = 32'd0;
    end
end
always @(posedge clk) begin
    if (cfg_to_wr_en && cfg_to_wr_idx < N) begin
        to_reg[cfg_to_wr_idx] <= cfg_to_wr_ticks;
    end
end

reg  v1_reg = 1'b0, v2_reg = 1'b0, v3_reg = 1'b0, v4_reg = 1'b0;
wire en = !v4_reg || m_ready;
assign s_ready = en;

reg [SLOT_BITS-1:0] s1_slot_reg = {SLOT_BITS{1'b0}}, s2_slot_reg = {SLOT_BITS{1'b0}},
                    s3_slot_reg = {SLOT_BITS{1'b0}}, s4_slot_reg = {SLOT_BITS{1'b0}};
reg [7:0]  s1_state_reg = 8'd0, s1_flags_reg = 8'd0, s1_td_reg = 8'd0;
reg [31:0] s1_last_reg = 32'd0, s1_now_reg = 32'd0;
reg [CW-1:0] s2_class_reg = {CW{1'b0}}, s3_class_reg = {CW{1'b0}}, s4_class_reg = {CW{1'b0}};
reg [31:0] s2_age_reg = 32'd0, s3_age_reg = 32'd0, s3_to_reg = 32'd0;
reg        s4_exp_reg = 1'b0;

wire       w_spliced = s1_state_reg == `SNIC_FLOW_STATE_SPLICED;
wire       w_closing = s1_state_reg == `SNIC_FLOW_STATE_CLOSING;
wire       w_rst = (s1_flags_reg & `SNIC_ENTRY_FLAGS_RST) != 8'd0;
wire       w_acked = (s1_td_reg & ACKED) == ACKED;
// each side's FIN: the entry's flag or the teardown view's
wire       w_fin_c = |(s1_flags_reg & `SNIC_ENTRY_FLAGS_FIN_CLIENT) || |(s1_td_reg & `SNIC_TEARDOWN_FIN_CS);
wire       w_fin_s = |(s1_flags_reg & `SNIC_ENTRY_FLAGS_FIN_SERVER) || |(s1_td_reg & `SNIC_TEARDOWN_FIN_SC);
wire [CW-1:0] w_class =
      !(w_spliced || w_closing) ? `SNIC_TIMEOUT_CLASS_NONE
    : !w_rst && w_acked ? `SNIC_TIMEOUT_CLASS_LINGER
    : w_spliced && !w_fin_c && !w_fin_s ? `SNIC_TIMEOUT_CLASS_ESTABLISHED
    : w_closing && w_rst ? `SNIC_TIMEOUT_CLASS_CLOSE
    : w_fin_c && w_fin_s ? `SNIC_TIMEOUT_CLASS_TIME_WAIT
    : `SNIC_TIMEOUT_CLASS_FIN_WAIT;
wire [31:0] w_diff = s1_now_reg - s1_last_reg;

always @(posedge clk) begin
    if (en) begin
        v1_reg <= s_valid;
        v2_reg <= v1_reg;
        v3_reg <= v2_reg;
        v4_reg <= v3_reg;
        // S1
        s1_slot_reg <= s_slot;
        s1_state_reg <= s_state;
        s1_flags_reg <= s_flags;
        s1_td_reg <= s_teardown;
        s1_last_reg <= s_last_seen;
        s1_now_reg <= cfg_now;
        // S2
        s2_slot_reg <= s1_slot_reg;
        s2_class_reg <= w_class;
        s2_age_reg <= w_diff[31] ? 32'd0 : w_diff;
        // S3
        s3_slot_reg <= s2_slot_reg;
        s3_class_reg <= s2_class_reg;
        s3_age_reg <= s2_age_reg;
        s3_to_reg <= to_reg[s2_class_reg];
        // S4
        s4_slot_reg <= s3_slot_reg;
        s4_class_reg <= s3_class_reg;
        s4_exp_reg <= s3_class_reg != `SNIC_TIMEOUT_CLASS_NONE && s3_age_reg >= s3_to_reg;
    end
    if (rst) begin
        v1_reg <= 1'b0;
        v2_reg <= 1'b0;
        v3_reg <= 1'b0;
        v4_reg <= 1'b0;
    end
end

assign m_valid = v4_reg;
assign m_slot = s4_slot_reg;
assign m_class = s4_class_reg;
assign m_expired = s4_exp_reg;

endmodule

`resetall
