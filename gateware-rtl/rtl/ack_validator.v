// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"
`include "splicenic_regs.vh"

/*
 * ACK validator and slot allocator (docs/engine.md): the second half of the handshake in
 * hardware. A flowless client ACK to a VIP whose SYNs the card answers (a candidate, chosen
 * by the data path's decide stage) is checked against the SYN-ACK cookie it acknowledges;
 * when it checks, a slot is popped from the free list, the client's key is inserted into the
 * flow table and the slot's flow-state entry is written (state HANDSHAKE, the client half
 * without its MAC), and the verdict goes back to the data path, which punts the frame to
 * the firmware with it (PuntMeta word 4: EngineVerdict, MSS class, slot generation). The
 * entry carries the slot's generation (FlowStatic.gen) as the firmware pushed it.
 *
 * Candidate (s_cand_*): client IP, VIP, client port, VIP port, seq, ack of the segment.
 * Verdict (m_res_*, one per candidate, in candidate order; record EngineVerdict):
 *   NEW        the cookie checked; slot m_res_slot of generation m_res_gen was popped,
 *              the key inserted, the entry written; m_res_mss the MSS class.
 *   FOUND      the key was already in the table (a segment decided before an earlier
 *              candidate's insert, whatever its cookie): m_res_slot is its slot and
 *              m_res_gen the generation its entry holds (a READ); no slot popped.
 *   BAD_COOKIE the hash does not match; STALE the cookie names a key slot no longer valid.
 *   NO_SLOT    the cookie checked and the free list is empty.
 *   TABLE_FULL the cookie checked and every way of the key's bucket is in use.
 * Only NEW takes a slot, so a flood of forged ACKs allocates nothing.
 *
 * Lookup-or-insert is atomic: the verdicts are made one at a time by the allocator through
 * the flow table's command port: a checked candidate with a free slot INSERTs (EXISTS
 * returns the stored slot), every other one LOOKs its key UP; so of two candidates for one
 * key the first gets NEW and every later one FOUND, and no frame of a flow the engine
 * inserted reaches the firmware without its slot.
 *
 * Pipeline: candidate FIFO (CAND_DEPTH) -> UNITS syn_cookie units (CHECK) round robin, the
 * record in the unit's tag -> allocator (one candidate at a time: INSERT, then the
 * WRITE_STATIC of the entry, or a found slot's READ) -> verdict FIFO (CAND_DEPTH). A candidate takes
 * `SNIC_COOKIE_LATENCY cycles in a unit, and a NEW about 12 more in the allocator (the
 * table's 5-cycle command, the state write); the units take one candidate per
 * ceil(`SNIC_COOKIE_INTERVAL / UNITS) cycles. The data path holds at most DEC_DEPTH + 2
 * candidates (one per undispatched decision), below CAND_DEPTH + 2: s_cand_ready never
 * drops for it; a candidate offered while it is low is counted in stat_cand_lost.
 *
 * Command masters (m_ft_*, m_fs_*): valid/ready requests, one outstanding each; the
 * response is the next ft_rsp_valid / fs_rsp_valid pulse addressed to this block (the
 * data path's arbiter routes a port's response to the master it granted).
 *
 * Free list: a FIFO of FREE_DEPTH {generation, slot} words the firmware pushes
 * (free_push_*; a push to a full list is refused and counted in stat_push_refused) and
 * flushes (free_flush: empties it; the slots in it go back to the firmware's ownership).
 * A slot is the engine's until the allocator pops it: a flush between reading the list's
 * head for a candidate and popping it gives the slot back, so the candidate's INSERT is
 * undone (DELETE) and its verdict is NO_SLOT; nothing is popped or written for it.
 * free_level: words held. A slot in the list belongs to the engine until a NEW verdict
 * hands it, with its generation, to the firmware (docs/engine.md, "Slot ownership").
 *
 * Keys and epochs: key_wr_* and cfg_* as in syn_cookie (the same keys as the SYN
 * responder's units; a unit samples them when it accepts a candidate).
 *
 * Every output is a register or a FIFO's registered output; no variable shifts.
 */
module ack_validator #
(
    // flow slot index width (at most 16: the table's value and PuntMeta.flow_slot)
    parameter SLOT_BITS = 16,
    // slot generation width
    parameter GEN_BITS = 8,
    // free-list words (power of two)
    parameter FREE_DEPTH = 512,
    // candidate and verdict FIFO RAM entries (power of two)
    parameter CAND_DEPTH = 32,
    // cookie units working in parallel
    parameter UNITS = 2,
    parameter FS_W = `SNIC_FLOW_STATIC_W,
    parameter FREE_AW = $clog2(FREE_DEPTH),
    parameter UB = UNITS > 1 ? $clog2(UNITS) : 1
)
(
    input  wire                          clk,
    input  wire                          rst,

    // candidate
    input  wire                          s_cand_valid,
    output wire                          s_cand_ready,
    input  wire [31:0]                   s_cand_client_ip,
    input  wire [31:0]                   s_cand_vip,
    input  wire [15:0]                   s_cand_client_port,
    input  wire [15:0]                   s_cand_vip_port,
    input  wire [31:0]                   s_cand_seq,
    input  wire [31:0]                   s_cand_ack,

    // verdict
    output wire                          m_res_valid,
    input  wire                          m_res_ready,
    output wire [`SNIC_ENGINE_VERDICT_W-1:0] m_res_verdict,
    output wire [15:0]                   m_res_slot,
    output wire [GEN_BITS-1:0]           m_res_gen,
    output wire [`SNIC_COOKIE_MSS_CLASS_BITS-1:0] m_res_mss,
    // each verdict as it enters the verdict FIFO (one per candidate, at most one per
    // allocator pass): for observers that must not depend on when the FIFO is read
    output wire                          out_valid,
    output wire [`SNIC_ENGINE_VERDICT_W-1:0] out_verdict,
    output wire [15:0]                   out_slot,
    output wire [GEN_BITS-1:0]           out_gen,

    // flow-table command master (INSERT key -> slot, client half; LOOKUP key)
    output wire                          m_ft_valid,
    input  wire                          m_ft_ready,
    output wire [1:0]                    m_ft_op,
    output wire [`SNIC_FLOW_KEY_W-1:0]   m_ft_key,
    output wire [15:0]                   m_ft_value,
    input  wire                          ft_rsp_valid,
    input  wire [1:0]                    ft_rsp_status,
    input  wire [15:0]                   ft_rsp_value,

    // flow-state command master (WRITE_STATIC of a slot handed over, READ of a found one)
    output wire                          m_fs_valid,
    input  wire                          m_fs_ready,
    output wire [1:0]                    m_fs_op,
    output wire [SLOT_BITS-1:0]          m_fs_slot,
    output wire [FS_W-1:0]               m_fs_static,
    input  wire                          fs_rsp_valid,
    // the read entry's generation (FlowStatic.gen)
    input  wire [GEN_BITS-1:0]           fs_rsp_gen,

    // free list
    input  wire                          free_push_valid,
    input  wire [GEN_BITS+15:0]          free_push_data,
    input  wire                          free_flush,
    output wire [FREE_AW+1:0]            free_level,

    // keys and epoch
    input  wire                          key_wr_en,
    input  wire                          key_wr_slot,
    input  wire [`SNIC_COOKIE_KEY_BITS-1:0] key_wr_data,
    input  wire                          cfg_cur_epoch,
    input  wire                          cfg_prev_valid,

    // counters (cleared by reset)
    output wire [31:0]                   stat_new,
    output wire [31:0]                   stat_found,
    output wire [31:0]                   stat_bad_cookie,
    output wire [31:0]                   stat_stale,
    output wire [31:0]                   stat_no_slot,
    output wire [31:0]                   stat_table_full,
    output wire [31:0]                   stat_push_refused,
    output wire [31:0]                   stat_cand_lost
);

localparam MSS_W = `SNIC_COOKIE_MSS_CLASS_BITS;
localparam V_W = `SNIC_ENGINE_VERDICT_W;
localparam C_W = 32 + 32 + 16 + 16 + 32 + 32;   // candidate record
localparam T_W = 96;                            // unit tag: {client IP, VIP, ports}
localparam F_W = GEN_BITS + 16;                 // free-list word
localparam R_W = V_W + 16 + GEN_BITS + MSS_W;   // verdict record
// flow-table codes: FLOW.CMD.OP and FLOW.STATUS.RESULT (registers/splicenic.svd)
localparam [1:0] FT_OK = `SNIC_FLOW_STATUS_RESULT_OK, FT_EXISTS = `SNIC_FLOW_STATUS_RESULT_EXISTS,
                 FT_LOOKUP = `SNIC_FLOW_CMD_OP_LOOKUP, FT_INSERT = `SNIC_FLOW_CMD_OP_INSERT,
                 FT_DELETE = `SNIC_FLOW_CMD_OP_DELETE;

`include "splicenic_records_fn.vh"

initial begin
    if (SLOT_BITS > 16 || UNITS < 1 || (1 << FREE_AW) != FREE_DEPTH) begin
        $error("Error: SLOT_BITS must be at most 16, UNITS at least 1, FREE_DEPTH a power of two (instance %m)");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// Candidate FIFO

wire             cq_valid;
wire [C_W-1:0]   cq_data;
wire             cq_take;
reg  [31:0]      cand_lost_reg = 32'd0;

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(C_W),
    .DEPTH(CAND_DEPTH)
)
cand_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data({s_cand_client_ip, s_cand_vip, s_cand_client_port, s_cand_vip_port, s_cand_seq,
             s_cand_ack}),
    .s_valid(s_cand_valid),
    .s_ready(s_cand_ready),
    .m_data(cq_data),
    .m_valid(cq_valid),
    .m_ready(cq_take),
    .count()
);
// verilator lint_on PINCONNECTEMPTY

always @(posedge clk) begin
    if (s_cand_valid && !s_cand_ready) begin
        cand_lost_reg <= cand_lost_reg + 1'b1;
    end
    if (rst) begin
        cand_lost_reg <= 32'd0;
    end
end

// ---------------------------------------------------------------------------------------
// Cookie units, round robin in and out (each keeps one candidate; equal latency keeps the
// order)

localparam integer LAST_I = UNITS - 1;
localparam [UB-1:0] LAST_U = LAST_I[UB-1:0];
reg  [UB-1:0]           in_ptr_reg = {UB{1'b0}};
reg  [UB-1:0]           out_ptr_reg = {UB{1'b0}};
wire [UNITS-1:0]        u_req_ready, u_rsp_valid, u_rsp_ready;
wire [UNITS*2-1:0]      u_rsp_status;
wire [UNITS*MSS_W-1:0]  u_rsp_mss;
wire [UNITS*T_W-1:0]    u_rsp_tag;
wire                    u_take;

assign cq_take = cq_valid && u_req_ready[in_ptr_reg];

genvar gu;
generate
for (gu = 0; gu < UNITS; gu = gu + 1) begin : g_unit
    localparam [UB-1:0] U_IDX = gu;
    // verilator lint_off PINCONNECTEMPTY
    syn_cookie #(
        .TAG_WIDTH(T_W)
    )
    cookie_inst (
        .clk(clk),
        .rst(rst),
        .s_req_valid(cq_valid && in_ptr_reg == U_IDX),
        .s_req_ready(u_req_ready[gu]),
        .s_req_op(`SNIC_COOKIE_OP_CHECK),
        .s_req_client_ip(cq_data[C_W-1 -: 32]),
        .s_req_vip(cq_data[C_W-33 -: 32]),
        .s_req_client_port(cq_data[C_W-65 -: 16]),
        .s_req_vip_port(cq_data[C_W-81 -: 16]),
        .s_req_client_isn(cq_data[63:32] - 32'd1),
        .s_req_cookie(cq_data[31:0] - 32'd1),
        .s_req_mss({MSS_W{1'b0}}),
        .s_req_tag(cq_data[C_W-1 -: T_W]),
        .m_rsp_valid(u_rsp_valid[gu]),
        .m_rsp_ready(u_rsp_ready[gu]),
        .m_rsp_op(),
        .m_rsp_isn(),
        .m_rsp_status(u_rsp_status[gu*2 +: 2]),
        .m_rsp_mss(u_rsp_mss[gu*MSS_W +: MSS_W]),
        .m_rsp_tag(u_rsp_tag[gu*T_W +: T_W]),
        .key_wr_en(key_wr_en),
        .key_wr_slot(key_wr_slot),
        .key_wr_data(key_wr_data),
        .cfg_cur_epoch(cfg_cur_epoch),
        .cfg_prev_valid(cfg_prev_valid)
    );
    // verilator lint_on PINCONNECTEMPTY
    assign u_rsp_ready[gu] = u_take && out_ptr_reg == U_IDX;
end
endgenerate

always @(posedge clk) begin
    if (cq_take) begin
        in_ptr_reg <= in_ptr_reg == LAST_U ? {UB{1'b0}} : in_ptr_reg + 1'b1;
    end
    if (u_take) begin
        out_ptr_reg <= out_ptr_reg == LAST_U ? {UB{1'b0}} : out_ptr_reg + 1'b1;
    end
    if (rst) begin
        in_ptr_reg <= {UB{1'b0}};
        out_ptr_reg <= {UB{1'b0}};
    end
end

// ---------------------------------------------------------------------------------------
// Free list

wire             fl_valid;
wire [F_W-1:0]   fl_data;
wire             fl_ready;
wire             fl_pop;
reg  [31:0]      push_refused_reg = 32'd0;
reg              flush_reg = 1'b0;

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(F_W),
    .DEPTH(FREE_DEPTH)
)
free_fifo_inst (
    .clk(clk),
    .rst(rst || flush_reg),
    .s_data(free_push_data),
    .s_valid(free_push_valid && !flush_reg),
    .s_ready(fl_ready),
    .m_data(fl_data),
    .m_valid(fl_valid),
    .m_ready(fl_pop),
    .count(free_level)
);
// verilator lint_on PINCONNECTEMPTY

always @(posedge clk) begin
    flush_reg <= free_flush;
    if (free_push_valid && (!fl_ready || flush_reg)) begin
        push_refused_reg <= push_refused_reg + 1'b1;
    end
    if (rst) begin
        flush_reg <= 1'b0;
        push_refused_reg <= 32'd0;
    end
end

// ---------------------------------------------------------------------------------------
// Allocator: one checked candidate at a time

localparam [3:0] A_IDLE = 4'd0, A_INSERT = 4'd1, A_INS_WAIT = 4'd2, A_WRITE = 4'd3,
                 A_WR_WAIT = 4'd4, A_OUT = 4'd5, A_UNDO = 4'd6, A_UNDO_WAIT = 4'd7,
                 A_READ = 4'd8, A_RD_WAIT = 4'd9;

reg  [3:0]        a_state_reg = A_IDLE;
reg  [T_W-1:0]    a_tag_reg = {T_W{1'b0}};
reg  [MSS_W-1:0]  a_mss_reg = {MSS_W{1'b0}};
reg  [F_W-1:0]    a_free_reg = {F_W{1'b0}};
reg  [R_W-1:0]    a_res_reg = {R_W{1'b0}};
reg  [1:0]        a_op_reg = FT_LOOKUP;
// the verdict of a candidate that gets no slot, unless its LOOKUP finds the key
reg  [V_W-1:0]    a_fail_reg = {V_W{1'b0}};
reg               ft_valid_reg = 1'b0;
reg               fs_valid_reg = 1'b0;
// the flow-state command is the READ of a found slot (else the WRITE_STATIC of a new one)
reg               fs_read_reg = 1'b0;
reg               pop_reg = 1'b0;
// the list was flushed after this candidate's slot was read (before it was popped): the
// slot went back to the firmware, so an INSERT made with it is undone
reg               a_flushed_reg = 1'b0;
wire              rq_ready;
reg  [31:0]       n_new_reg = 32'd0, n_found_reg = 32'd0, n_bad_reg = 32'd0,
                  n_stale_reg = 32'd0, n_noslot_reg = 32'd0, n_full_reg = 32'd0;

wire [1:0]       u_st = u_rsp_status[out_ptr_reg*2 +: 2];
wire [T_W-1:0]   u_tag = u_rsp_tag[out_ptr_reg*T_W +: T_W];
wire [MSS_W-1:0] u_mss = u_rsp_mss[out_ptr_reg*MSS_W +: MSS_W];

assign u_take = a_state_reg == A_IDLE && u_rsp_valid[out_ptr_reg];
assign fl_pop = pop_reg;

wire [31:0] a_cip = a_tag_reg[95:64];
wire [31:0] a_vip = a_tag_reg[63:32];
wire [15:0] a_cport = a_tag_reg[31:16];
wire [15:0] a_vport = a_tag_reg[15:0];

function [R_W-1:0] res(input [V_W-1:0] v, input [15:0] slot, input [GEN_BITS-1:0] gen,
                       input [MSS_W-1:0] mss);
    res = {v, slot, gen, mss};
endfunction

always @(posedge clk) begin
    pop_reg <= 1'b0;
    if (ft_valid_reg && m_ft_ready) begin
        ft_valid_reg <= 1'b0;
    end
    if (fs_valid_reg && m_fs_ready) begin
        fs_valid_reg <= 1'b0;
    end
    case (a_state_reg)
        A_IDLE: begin
            if (u_take) begin
                a_tag_reg <= u_tag;
                a_mss_reg <= u_mss;
                a_free_reg <= fl_data;
                a_flushed_reg <= 1'b0;
                ft_valid_reg <= 1'b1;
                a_state_reg <= A_INSERT;
                // A checked cookie with a slot to give inserts; any other candidate looks
                // its key up (a segment decided before an earlier candidate's insert finds
                // that flow whatever its cookie says).
                a_op_reg <= u_st == `SNIC_COOKIE_STATUS_OK && fl_valid && !flush_reg
                            ? FT_INSERT : FT_LOOKUP;
                a_fail_reg <= u_st == `SNIC_COOKIE_STATUS_BAD_HASH ? `SNIC_ENGINE_VERDICT_BAD_COOKIE
                              : u_st != `SNIC_COOKIE_STATUS_OK ? `SNIC_ENGINE_VERDICT_STALE
                              : `SNIC_ENGINE_VERDICT_NO_SLOT;
            end
        end
        A_INSERT: begin
            if (m_ft_ready) begin
                a_state_reg <= A_INS_WAIT;
            end
        end
        A_INS_WAIT: begin
            if (ft_rsp_valid) begin
                a_state_reg <= A_OUT;
                if (a_op_reg == FT_INSERT && ft_rsp_status == FT_OK
                    && (a_flushed_reg || flush_reg)) begin
                    // the slot is the firmware's again: delete the key, no slot handed out
                    a_op_reg <= FT_DELETE;
                    ft_valid_reg <= 1'b1;
                    a_state_reg <= A_UNDO;
                end else if (a_op_reg == FT_INSERT && ft_rsp_status == FT_OK) begin
                    // the slot is ours now: pop it, write its entry
                    pop_reg <= 1'b1;
                    fs_read_reg <= 1'b0;
                    fs_valid_reg <= 1'b1;
                    a_res_reg <= res(`SNIC_ENGINE_VERDICT_NEW, a_free_reg[15:0],
                                     a_free_reg[F_W-1 -: GEN_BITS], a_mss_reg);
                    n_new_reg <= n_new_reg + 1'b1;
                    a_state_reg <= A_WRITE;
                end else if ((a_op_reg == FT_INSERT && ft_rsp_status == FT_EXISTS)
                             || (a_op_reg == FT_LOOKUP && ft_rsp_status == FT_OK)) begin
                    // the found slot's generation comes from its entry
                    a_res_reg <= res(`SNIC_ENGINE_VERDICT_FOUND, ft_rsp_value, {GEN_BITS{1'b0}},
                                     a_mss_reg);
                    n_found_reg <= n_found_reg + 1'b1;
                    fs_read_reg <= 1'b1;
                    fs_valid_reg <= 1'b1;
                    a_state_reg <= A_READ;
                end else if (a_op_reg == FT_INSERT) begin
                    a_res_reg <= res(`SNIC_ENGINE_VERDICT_TABLE_FULL, 16'd0, {GEN_BITS{1'b0}},
                                     a_mss_reg);
                    n_full_reg <= n_full_reg + 1'b1;
                end else begin
                    a_res_reg <= res(a_fail_reg, 16'd0, {GEN_BITS{1'b0}},
                                     a_fail_reg == `SNIC_ENGINE_VERDICT_NO_SLOT ? a_mss_reg
                                                                              : {MSS_W{1'b0}});
                    if (a_fail_reg == `SNIC_ENGINE_VERDICT_BAD_COOKIE) begin
                        n_bad_reg <= n_bad_reg + 1'b1;
                    end else if (a_fail_reg == `SNIC_ENGINE_VERDICT_STALE) begin
                        n_stale_reg <= n_stale_reg + 1'b1;
                    end else begin
                        n_noslot_reg <= n_noslot_reg + 1'b1;
                    end
                end
            end
        end
        A_WRITE: begin
            if (m_fs_ready) begin
                a_state_reg <= A_WR_WAIT;
            end
        end
        A_WR_WAIT: begin
            if (fs_rsp_valid) begin
                a_state_reg <= A_OUT;
            end
        end
        A_READ: begin
            if (m_fs_ready) begin
                a_state_reg <= A_RD_WAIT;
            end
        end
        A_RD_WAIT: begin
            if (fs_rsp_valid) begin
                a_res_reg[MSS_W +: GEN_BITS] <= fs_rsp_gen;
                a_state_reg <= A_OUT;
            end
        end
        A_UNDO: begin
            if (m_ft_ready) begin
                a_state_reg <= A_UNDO_WAIT;
            end
        end
        A_UNDO_WAIT: begin
            if (ft_rsp_valid) begin
                a_res_reg <= res(`SNIC_ENGINE_VERDICT_NO_SLOT, 16'd0, {GEN_BITS{1'b0}}, a_mss_reg);
                n_noslot_reg <= n_noslot_reg + 1'b1;
                a_state_reg <= A_OUT;
            end
        end
        default: begin   // A_OUT
            if (rq_ready) begin
                a_state_reg <= A_IDLE;
            end
        end
    endcase
    if (flush_reg && (a_state_reg == A_INSERT || a_state_reg == A_INS_WAIT)) begin
        a_flushed_reg <= 1'b1;
    end
    if (rst) begin
        a_state_reg <= A_IDLE;
        a_flushed_reg <= 1'b0;
        ft_valid_reg <= 1'b0;
        fs_valid_reg <= 1'b0;
        fs_read_reg <= 1'b0;
        pop_reg <= 1'b0;
        n_new_reg <= 32'd0;
        n_found_reg <= 32'd0;
        n_bad_reg <= 32'd0;
        n_stale_reg <= 32'd0;
        n_noslot_reg <= 32'd0;
        n_full_reg <= 32'd0;
    end
end

assign m_ft_valid = ft_valid_reg;
assign m_ft_op = a_op_reg;
assign m_ft_key = snic_flow_key_pack(a_vport, a_cport, a_vip, a_cip);
assign m_ft_value = a_free_reg[15:0];
assign m_fs_valid = fs_valid_reg;
assign m_fs_op = fs_read_reg ? `SNIC_FLOW_OP_READ : `SNIC_FLOW_OP_WRITE_STATIC;
assign m_fs_slot = fs_read_reg ? a_res_reg[MSS_W + GEN_BITS +: SLOT_BITS] : a_free_reg[SLOT_BITS-1:0];
assign m_fs_static = snic_flow_static_pack(`SNIC_FLOW_STATE_HANDSHAKE, 8'd0, 8'd0, 8'd0,
                                           32'd0, 32'd0, 32'd0,
                                           snic_flow_half_entry_pack(48'd0, a_cip, a_cport,
                                                                     a_vip, a_vport),
                                           144'd0, 32'd0, a_free_reg[F_W-1 -: GEN_BITS]);

// ---------------------------------------------------------------------------------------
// Verdict FIFO

wire [R_W-1:0] rq_data;

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(R_W),
    .DEPTH(CAND_DEPTH)
)
res_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data(a_res_reg),
    .s_valid(a_state_reg == A_OUT),
    .s_ready(rq_ready),
    .m_data(rq_data),
    .m_valid(m_res_valid),
    .m_ready(m_res_ready),
    .count()
);
// verilator lint_on PINCONNECTEMPTY

assign {m_res_verdict, m_res_slot, m_res_gen, m_res_mss} = rq_data;
assign out_valid = a_state_reg == A_OUT && rq_ready;
// verilator lint_off UNUSEDSIGNAL
wire [MSS_W-1:0] out_mss_unused;
// verilator lint_on UNUSEDSIGNAL
assign {out_verdict, out_slot, out_gen, out_mss_unused} = a_res_reg;

assign stat_new = n_new_reg;
assign stat_found = n_found_reg;
assign stat_bad_cookie = n_bad_reg;
assign stat_stale = n_stale_reg;
assign stat_no_slot = n_noslot_reg;
assign stat_table_full = n_full_reg;
assign stat_push_refused = push_refused_reg;
assign stat_cand_lost = cand_lost_reg;

endmodule

`resetall
