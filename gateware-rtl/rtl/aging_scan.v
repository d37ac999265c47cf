// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"
`include "splicenic_regs.vh"

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
 * The free (docs/aging.md, "The free in hardware"): with cfg_free set, a slot found expired
 * in the LINGER class (both FINs acknowledged, no RST: the clean close, the common path) is
 * freed here, from the entry the scan just read: DELETE of the client half's key, DELETE of
 * the server half's key (flow-table port; a key not found is no error), WRITE_STATIC of a
 * FREE entry (generation 0; the dynamic words stay, a FREE entry ages in no class), then it
 * is queued with FREED set and what the firmware's bookkeeping needs (the entry's real
 * server, its ACTIVE flag (cleared when cfg_fin_counted and a FIN is in the teardown view: the
 * card counted that FIN, DP.FIN_COUNT), the client's address). The free follows the scan's READ within
 * the few cycles of the check and three commands; a segment of the flow forwarded in that
 * window is the linger's business like one a cycle after the free (docs/aging.md). Other
 * classes are queued for the firmware as before (FREED clear, RS/ACTIVE/CLIENT 0).
 *
 * The flow-state port: m_fs_valid/m_fs_ready, m_fs_op (READ, or WRITE_STATIC of the free),
 * m_fs_slot, m_fs_static; fs_rsp_valid with fs_rsp_static/fs_rsp_dyn is the response to
 * this master's command (cmd_arb routes each response to the master it answers). The
 * flow-table port the same way: m_ft_valid/m_ft_ready, m_ft_op (DELETE), m_ft_key;
 * ft_rsp_valid.
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
    input  wire                     cfg_free,
    input  wire                     cfg_fin_counted,
    input  wire [15:0]              cfg_interval,
    input  wire [31:0]              cfg_limit,
    input  wire [31:0]              cfg_now,
    input  wire                     cfg_to_wr_en,
    input  wire [`SNIC_TIMEOUT_CLASS_W-1:0] cfg_to_wr_idx,
    input  wire [31:0]              cfg_to_wr_ticks,

    // flow-state command port (READ, WRITE_STATIC)
    output wire                     m_fs_valid,
    input  wire                     m_fs_ready,
    output wire [1:0]               m_fs_op,
    output wire [SLOT_BITS-1:0]     m_fs_slot,
    output wire [STATIC_WIDTH-1:0]  m_fs_static,
    input  wire                     fs_rsp_valid,
    input  wire [STATIC_WIDTH-1:0]  fs_rsp_static,
    input  wire [DYN_WIDTH-1:0]     fs_rsp_dyn,

    // flow-table command port (DELETE)
    output wire                     m_ft_valid,
    input  wire                     m_ft_ready,
    output wire [1:0]               m_ft_op,
    output wire [`SNIC_FLOW_KEY_W-1:0] m_ft_key,
    input  wire                     ft_rsp_valid,

    // expired-slot queue
    output wire                     q_valid,
    input  wire                     q_pop,
    output wire [SLOT_BITS-1:0]     q_slot,
    output wire [`SNIC_TIMEOUT_CLASS_W-1:0] q_class,
    output wire                     q_freed,
    output wire                     q_active,
    output wire [7:0]               q_rs,
    output wire [31:0]              q_client,
    output wire [7:0]               q_level,

    output wire [SLOT_BITS-1:0]     stat_pos,
    output wire [31:0]              stat_sweeps,
    output wire [31:0]              stat_expired,
    output wire [31:0]              stat_freed
);

`include "splicenic_records_fn.vh"

localparam CW = `SNIC_TIMEOUT_CLASS_W;
// queue entry: {client, rs, active, freed, class, slot}
localparam QW = 32 + 8 + 1 + 1 + CW + SLOT_BITS;
localparam [2:0] ST_IDLE = 3'd0, ST_CMD = 3'd1, ST_RSP = 3'd2, ST_CHECK = 3'd3,
                 ST_DEL = 3'd4, ST_DEL_RSP = 3'd5, ST_WR = 3'd6, ST_WR_RSP = 3'd7;
localparam [1:0] FT_DELETE = `SNIC_FLOW_CMD_OP_DELETE;   // FLOW.CMD.OP (splicenic.svd)

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

reg  [2:0]           st_reg = ST_IDLE;
reg  [SLOT_BITS-1:0] pos_reg = {SLOT_BITS{1'b0}};
reg  [15:0]          wait_reg = 16'd0;
reg  [31:0]          sweeps_reg = 32'd0;
reg  [31:0]          expired_reg = 32'd0;
reg  [SLOT_BITS:0]   limit_reg = SLOTS;
reg  [15:0]          interval_reg = `SNIC_AGE_MIN_INTERVAL;
reg                  chk_valid_reg = 1'b0;
reg  [7:0]           chk_state_reg = 8'd0, chk_flags_reg = 8'd0, chk_td_reg = 8'd0;
reg  [31:0]          chk_last_reg = 32'd0;
// the entry's keys and bookkeeping, kept from the READ for a free
reg  [`SNIC_FLOW_KEY_W-1:0] key_c_reg = {`SNIC_FLOW_KEY_W{1'b0}}, key_s_reg = {`SNIC_FLOW_KEY_W{1'b0}};
reg  [7:0]           rs_reg = 8'd0;
reg  [31:0]          client_reg = 32'd0;
reg                  del_s_reg = 1'b0;      // the DELETE in flight is the server key's
reg  [CW-1:0]        cls_reg = {CW{1'b0}};
reg  [31:0]          freed_reg = 32'd0;
reg                  free_en_reg = 1'b0;
reg                  fin_counted_reg = 1'b0;

// the walk's limit and interval, registered from the configuration
always @(posedge clk) begin
    limit_reg <= (cfg_limit == 32'd0 || cfg_limit > SLOTS) ? SLOTS[SLOT_BITS:0]
                                                           : cfg_limit[SLOT_BITS:0];
    interval_reg <= cfg_interval < `SNIC_AGE_MIN_INTERVAL ? `SNIC_AGE_MIN_INTERVAL
                                                          : cfg_interval;
    free_en_reg <= cfg_free;
    fin_counted_reg <= cfg_fin_counted;
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

// the entry's halves (record FlowHalfEntry) as the READ returns them
wire [`SNIC_FLOW_HALF_ENTRY_W-1:0] rsp_client = `SNIC_FLOW_STATIC_CLIENT(fs_rsp_static);
wire [`SNIC_FLOW_HALF_ENTRY_W-1:0] rsp_server = `SNIC_FLOW_STATIC_SERVER(fs_rsp_static);

// an expired LINGER slot is freed here when cfg_free is set; every other expired one is
// queued as the check gives it
reg                  active_reg = 1'b0;
wire free_it = res_expired && res_class == `SNIC_TIMEOUT_CLASS_LINGER && free_en_reg;
wire push_plain = st_reg == ST_CHECK && res_valid && res_expired && !free_it;
wire push_freed = st_reg == ST_WR_RSP && fs_rsp_valid;

dp_fifo #(
    .WIDTH(QW),
    .DEPTH(DEPTH)
)
queue_inst (
    .clk(clk),
    .rst(rst),
    .s_data(push_freed ? {client_reg, rs_reg, active_reg, 1'b1, cls_reg, pos_reg}
                       : {32'd0, 8'd0, 1'b0, 1'b0, res_class, res_slot}),
    .s_valid(push_plain || push_freed),
    .s_ready(qin_ready),
    .m_data({q_client, q_rs, q_active, q_freed, q_class, q_slot}),
    .m_valid(q_valid),
    .m_ready(q_pop),
    .count(q_count)
);

// a READ only while the queue has room for its result (nothing else pushes)
wire room = q_count < DEPTH;
// the slot after this one and whether the walk wraps there, registered: they are used in
// ST_CHECK and ST_WR_RSP, cycles after pos_reg last moved; a limit written in the cycle
// before is caught by ST_IDLE's own compare
wire [SLOT_BITS:0] pos_next = {1'b0, pos_reg} + 1'b1;
reg                  wrap = 1'b0;
reg  [SLOT_BITS-1:0] pos_adv = {SLOT_BITS{1'b0}};
always @(posedge clk) begin
    wrap <= pos_next >= limit_reg;
    pos_adv <= pos_next >= limit_reg ? {SLOT_BITS{1'b0}} : pos_next[SLOT_BITS-1:0];
end

assign m_fs_valid = st_reg == ST_CMD || st_reg == ST_WR;
assign m_fs_op = st_reg == ST_WR ? `SNIC_FLOW_OP_WRITE_STATIC : `SNIC_FLOW_OP_READ;
assign m_fs_slot = pos_reg;
// a FREE entry: every field 0 (generation 0)
assign m_fs_static = snic_flow_static_pack(`SNIC_FLOW_STATE_FREE, 8'd0, 8'd0, 8'd0, 32'd0,
                                           32'd0, 32'd0, 144'd0, 144'd0, 32'd0, 8'd0);
assign m_ft_valid = st_reg == ST_DEL;
assign m_ft_op = FT_DELETE;
assign m_ft_key = del_s_reg ? key_s_reg : key_c_reg;

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
                // a half's key as its peer's segments carry it: peer -> local
                key_c_reg <= snic_flow_key_pack(
                    `SNIC_FLOW_HALF_ENTRY_LOCAL_PORT(rsp_client),
                    `SNIC_FLOW_HALF_ENTRY_PEER_PORT(rsp_client),
                    `SNIC_FLOW_HALF_ENTRY_LOCAL_IP(rsp_client),
                    `SNIC_FLOW_HALF_ENTRY_PEER_IP(rsp_client));
                key_s_reg <= snic_flow_key_pack(
                    `SNIC_FLOW_HALF_ENTRY_LOCAL_PORT(rsp_server),
                    `SNIC_FLOW_HALF_ENTRY_PEER_PORT(rsp_server),
                    `SNIC_FLOW_HALF_ENTRY_LOCAL_IP(rsp_server),
                    `SNIC_FLOW_HALF_ENTRY_PEER_IP(rsp_server));
                rs_reg <= `SNIC_FLOW_STATIC_REAL_SERVER(fs_rsp_static);
                // ACTIVE, and no FIN yet when the card counts the FINs (cfg_fin_counted:
                // a FIN moved the flow off its server's active count already, DP.FIN_COUNT;
                // with FIN events the firmware clears ACTIVE itself)
                active_reg <= (`SNIC_FLOW_STATIC_FLAGS(fs_rsp_static)
                               & `SNIC_ENTRY_FLAGS_ACTIVE) != 8'd0 &&
                              !(fin_counted_reg &&
                                (`SNIC_FLOW_DYN_TEARDOWN(fs_rsp_dyn)
                                 & (`SNIC_TEARDOWN_FIN_CS | `SNIC_TEARDOWN_FIN_SC)) != 8'd0);
                client_reg <= `SNIC_FLOW_HALF_ENTRY_PEER_IP(rsp_client);
                st_reg <= ST_CHECK;
            end
        end
        ST_CHECK: begin
            if (res_valid) begin
                if (res_expired) begin
                    expired_reg <= expired_reg + 1'b1;
                end
                cls_reg <= res_class;
                del_s_reg <= 1'b0;
                st_reg <= free_it ? ST_DEL : ST_IDLE;
                if (!free_it) begin
                    pos_reg <= pos_adv;
                    sweeps_reg <= sweeps_reg + {31'd0, wrap};
                end
            end
        end
        ST_DEL: begin
            if (m_ft_ready) begin
                st_reg <= ST_DEL_RSP;
            end
        end
        ST_DEL_RSP: begin
            if (ft_rsp_valid) begin
                del_s_reg <= 1'b1;
                st_reg <= del_s_reg ? ST_WR : ST_DEL;
            end
        end
        ST_WR: begin
            if (m_fs_ready) begin
                st_reg <= ST_WR_RSP;
            end
        end
        default: begin
            if (fs_rsp_valid) begin
                freed_reg <= freed_reg + 1'b1;
                pos_reg <= pos_adv;
                sweeps_reg <= sweeps_reg + {31'd0, wrap};
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
        freed_reg <= 32'd0;
        chk_valid_reg <= 1'b0;
    end
end

wire [31:0] q_count32 = {{30 - $clog2(DEPTH){1'b0}}, q_count};
assign q_level = q_count32[7:0];
assign stat_pos = pos_reg;
assign stat_sweeps = sweeps_reg;
assign stat_expired = expired_reg;
assign stat_freed = freed_reg;

// verilator lint_off UNUSEDSIGNAL
wire unused = chk_ready ^ qin_ready ^ ^fs_rsp_static ^ ^fs_rsp_dyn ^ ^cfg_limit ^ ^q_count32
              ^ ^rsp_client ^ ^rsp_server;
// verilator lint_on UNUSEDSIGNAL

endmodule

`resetall
