// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * The SYN-ACK absorber in the data path (docs/server-open.md, "The absorber in the data
 * path"): a server's SYN-ACK that hit a CONNECTING entry armed by the firmware (record
 * SetupCtx) completes the server handshake in the card.
 *
 * One candidate at a time, in order (a 4-deep candidate FIFO; the data path offers a
 * candidate only when there is room, else the SYN-ACK goes to the firmware as before):
 *
 *   READ the slot's static words through the engine's flow-state port -> check: CONNECTING,
 *   armed, the generation the decision read -> synack_absorb (the context from the words,
 *   the segment from the candidate) -> SPLICE, the head no longer than the replay chunk ->
 *   WRITE_STATIC the SPLICED entry (synack_absorb's words 0-3, the client half, the server
 *   half with the SYN-ACK's destination as its local address and port, the generation) ->
 *   the replay request (the handshake ACK with the head from its buffer) -> verdict.
 *
 * Any failed step gives verdict 0 (the firmware handles the SYN-ACK, counted in
 * stat_punted with the candidates not offered, s_skip); verdict 1 (absorbed) in stat_done.
 * A firmware command that writes the same slot after this block's READ was taken and before
 * its WRITE is (fw_wr_valid/fw_wr_slot: a command the port accepted) fails the candidate:
 * the firmware's write stands. The port
 * takes one command at a time, so a firmware write taken before the READ is in what it
 * reads, and none lands between the WRITE's accept and its execution.
 *
 * A disarm (the firmware taking an armed entry back before it writes it) runs in the same
 * sequence between two candidates: READ; CONNECTING, armed, the generation given -> WRITE
 * it back unarmed (DISARMED); SPLICED or CLOSING of that generation: ABSORBED; else
 * NOT_ARMED. So a SYN-ACK is absorbed or its entry disarmed, never both: the firmware that
 * disarms before every write of an armed entry never overwrites the card's.
 *
 * The verdict (m_valid/m_ready) is held until the data path's dispatch takes it with the
 * SYN-ACK's frame (the frame waits for it): verdicts come in candidate order.
 */
module absorb_engine #
(
    parameter SLOT_BITS = 16,
    parameter FS_W = `SNIC_FLOW_STATIC_W,
    parameter IW = 5
)
(
    input  wire                  clk,
    input  wire                  rst,

    // candidate: an armed-entry SYN-ACK at the data path's decision
    input  wire                  s_valid,
    output wire                  s_ready,
    input  wire [SLOT_BITS-1:0]  s_slot,
    input  wire [7:0]            s_gen,
    input  wire [7:0]            s_flags,
    input  wire [31:0]           s_seq,
    input  wire [31:0]           s_ack,
    input  wire [31:0]           s_local_ip,
    input  wire [15:0]           s_local_port,
    input  wire [15:0]           s_mss,
    input  wire                  s_ws,
    input  wire [7:0]            s_ws_shift,
    input  wire                  s_sack_perm,
    input  wire                  s_ts,
    input  wire [31:0]           s_tsval,
    // an armed-entry SYN-ACK not offered (options in another layout, no room): counted
    input  wire                  s_skip,

    // disarm (DP.ABSORB_DISARM): the firmware takes an armed entry back; dis_busy until
    // dis_result (DisarmResult) holds what was found
    input  wire                  dis_valid,
    input  wire [SLOT_BITS-1:0]  dis_slot,
    input  wire [7:0]            dis_gen,
    output wire                  dis_busy,
    output wire [`SNIC_DISARM_RESULT_W-1:0] dis_result,

    // verdict, in candidate order
    output wire                  m_valid,
    input  wire                  m_ready,
    output wire                  m_absorbed,

    // flow-state command master (READ, WRITE_STATIC)
    output wire                  fs_valid,
    input  wire                  fs_ready,
    output wire [1:0]            fs_op,
    output wire [SLOT_BITS-1:0]  fs_slot,
    output wire [FS_W-1:0]       fs_static,
    input  wire                  fs_rsp_valid,
    input  wire [FS_W-1:0]       fs_rsp_static,
    // the firmware's writes as the port accepts them
    input  wire                  fw_wr_valid,
    input  wire [SLOT_BITS-1:0]  fw_wr_slot,

    // replay request (head_replay's request, the ACK form)
    output wire                  rp_valid,
    input  wire                  rp_ready,
    output wire [IW-1:0]         rp_buf,
    output wire [15:0]           rp_max_len,
    output wire [47:0]           rp_dst_mac,
    output wire [31:0]           rp_src_ip,
    output wire [31:0]           rp_dst_ip,
    output wire [15:0]           rp_sport,
    output wire [15:0]           rp_dport,
    output wire [31:0]           rp_seq,
    output wire [31:0]           rp_ack,
    output wire [15:0]           rp_window,
    output wire                  rp_ts,
    output wire [31:0]           rp_tsval,
    output wire [31:0]           rp_tsecr,

    output wire [31:0]           stat_done,
    output wire [31:0]           stat_punted
);

`include "splicenic_records_fn.vh"

localparam CW = SLOT_BITS + 8 + 8 + 32 + 32 + 32 + 16 + 16 + 1 + 8 + 1 + 1 + 32;

initial begin
    if (FS_W != `SNIC_FLOW_STATIC_W || `SNIC_SETUP_CTX_W != `SNIC_FLOW_STATIC_W) begin
        $error("Error: the setup context lies over the static words (records.toml)");
        $finish;
    end
    if (IW > `SNIC_SETUP_CTX_HEAD_ID_W) begin
        $error("Error: SetupCtx.head_id is narrower than a head-buffer id");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// candidates
wire          cq_valid;
wire [CW-1:0] cq_data;
wire          cq_take;

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(CW),
    .DEPTH(4)
)
cand_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data({s_slot, s_gen, s_flags, s_seq, s_ack, s_local_ip, s_local_port, s_mss, s_ws,
             s_ws_shift, s_sack_perm, s_ts, s_tsval}),
    .s_valid(s_valid),
    .s_ready(s_ready),
    .m_data(cq_data),
    .m_valid(cq_valid),
    .m_ready(cq_take),
    .count()
);
// verilator lint_on PINCONNECTEMPTY

localparam [3:0] ST_IDLE = 4'd0, ST_RD = 4'd1, ST_RDW = 4'd2, ST_CHK = 4'd3, ST_ABS = 4'd4,
                 ST_ABW = 4'd5, ST_DEC = 4'd6, ST_WR = 4'd7, ST_WRW = 4'd8, ST_RP = 4'd9,
                 ST_OUT = 4'd10;
reg [3:0] st_reg = ST_IDLE;
// a disarm waits for the sequence to be idle; candidates go first
reg       dis_pend_reg = 1'b0, dis_mode_reg = 1'b0;
reg [SLOT_BITS-1:0] dis_slot_reg = {SLOT_BITS{1'b0}};
reg [7:0] dis_gen_reg = 8'd0;
reg [`SNIC_DISARM_RESULT_W-1:0] dis_result_reg = `SNIC_DISARM_RESULT_NOT_ARMED;
assign cq_take = st_reg == ST_IDLE && cq_valid;
assign dis_busy = dis_pend_reg;
assign dis_result = dis_result_reg;

// the candidate being absorbed
reg [SLOT_BITS-1:0] c_slot_reg = {SLOT_BITS{1'b0}};
reg [7:0]   c_gen_reg = 8'd0, c_flags_reg = 8'd0;
reg [31:0]  c_seq_reg = 32'd0, c_ack_reg = 32'd0, c_lip_reg = 32'd0;
reg [15:0]  c_lport_reg = 16'd0, c_mss_reg = 16'd0;
reg         c_ws_reg = 1'b0, c_sackp_reg = 1'b0, c_ts_reg = 1'b0;
reg [7:0]   c_shift_reg = 8'd0;
reg [31:0]  c_tsval_reg = 32'd0;
// its entry as read, then the SPLICED one to write
reg [FS_W-1:0] ctx_reg = {FS_W{1'b0}};
reg [FS_W-1:0] wr_reg = {FS_W{1'b0}};
reg         dirty_reg = 1'b0;
reg         absorbed_reg = 1'b0;
reg [31:0]  seq1_reg = 32'd0;
// synack_absorb's result
reg         a_splice_reg = 1'b0;
reg [127:0] a_entry_reg = 128'd0;
reg [31:0]  a_ack_reg = 32'd0;
reg [15:0]  a_window_reg = 16'd0, a_chunk_reg = 16'd0;
reg [31:0]  done_reg = 32'd0, punted_reg = 32'd0;

wire ctx_ok = `SNIC_SETUP_CTX_STATE(ctx_reg) == `SNIC_FLOW_STATE_CONNECTING
              && `SNIC_SETUP_CTX_ARMED(ctx_reg) && `SNIC_SETUP_CTX_GEN(ctx_reg) == c_gen_reg;
wire ctx_spliced = (`SNIC_SETUP_CTX_STATE(ctx_reg) == `SNIC_FLOW_STATE_SPLICED
                    || `SNIC_SETUP_CTX_STATE(ctx_reg) == `SNIC_FLOW_STATE_CLOSING)
                   && `SNIC_SETUP_CTX_GEN(ctx_reg) == c_gen_reg;
// the entry read with the armed bit cleared (a disarm's WRITE)
function [FS_W-1:0] unarmed(input [FS_W-1:0] ctx);
    begin
        unarmed = ctx;
        unarmed[`SNIC_SETUP_CTX_ARMED_LSB] = 1'b0;
    end
endfunction
wire hit_me = fw_wr_valid && fw_wr_slot == c_slot_reg;

// ---------------------------------------------------------------------------------------
// synack_absorb, fed from the context and the candidate
wire                               ab_s_ready, ab_m_valid;
wire [`SNIC_SYN_ACK_VERDICT_W-1:0] ab_verdict;
wire [127:0]                       ab_entry;
wire [31:0]                        ab_ack;
wire [15:0]                        ab_window, ab_chunk;

// verilator lint_off PINCONNECTEMPTY
synack_absorb absorb_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(st_reg == ST_ABS),
    .s_ready(ab_s_ready),
    .s_client_isn(`SNIC_SETUP_CTX_CLIENT_ISN(ctx_reg)),
    .s_card_isn(`SNIC_SETUP_CTX_CARD_ISN(ctx_reg)),
    .s_card_tsval(`SNIC_SETUP_CTX_CARD_TSVAL(ctx_reg)),
    .s_client_win(`SNIC_SETUP_CTX_CLIENT_WIN(ctx_reg)),
    .s_client_mss(`SNIC_SETUP_CTX_MSS(ctx_reg)),
    .s_mss_to_client(`SNIC_SETUP_CTX_MSS(ctx_reg)),
    .s_sack(`SNIC_SETUP_CTX_SACK(ctx_reg)),
    .s_ts(`SNIC_SETUP_CTX_TS(ctx_reg)),
    .s_client_ws(`SNIC_SETUP_CTX_WS(ctx_reg)),
    .s_client_ws_shift(`SNIC_SETUP_CTX_CLIENT_SHIFT(ctx_reg)),
    .s_server_ws_shift(`SNIC_SETUP_CTX_SERVER_SHIFT(ctx_reg)),
    .s_real_server(`SNIC_SETUP_CTX_REAL_SERVER(ctx_reg)),
    .s_client_fin(1'b0),
    .s_flags(c_flags_reg),
    .s_seq(c_seq_reg),
    .s_ack(c_ack_reg),
    .s_opts(snic_tcp_opts_pack(c_tsval_reg, 32'd0, c_mss_reg, c_shift_reg, 6'd0, 6'd0,
                               6'd0, 6'd0, 6'd0, 6'd0, 1'b1, c_ws_reg, c_sackp_reg, c_ts_reg,
                               1'b0, 1'b0, 1'b0)),
    .m_valid(ab_m_valid),
    .m_ready(st_reg == ST_ABW),
    .m_verdict(ab_verdict),
    .m_entry(ab_entry),
    .m_ack(ab_ack),
    .m_window(ab_window),
    .m_mss(),
    .m_chunk(ab_chunk)
);
// verilator lint_on PINCONNECTEMPTY

// the SPLICED entry: synack_absorb's words 0-3, the client half as armed, the server half
// with the SYN-ACK's destination as its local end, the firmware word 0, the generation
// verilator lint_off UNUSEDSIGNAL
function [FS_W-1:0] spliced_entry(input [FS_W-1:0] ctx, input [127:0] w03,
                                  input [31:0] lip, input [15:0] lport);
    begin
        spliced_entry = snic_flow_static_pack(
            w03[`SNIC_FLOW_STATIC_STATE_LSB +: `SNIC_FLOW_STATIC_STATE_W],
            w03[`SNIC_FLOW_STATIC_FLAGS_LSB +: `SNIC_FLOW_STATIC_FLAGS_W],
            w03[`SNIC_FLOW_STATIC_WSCALE_DIFF_LSB +: `SNIC_FLOW_STATIC_WSCALE_DIFF_W],
            w03[`SNIC_FLOW_STATIC_REAL_SERVER_LSB +: `SNIC_FLOW_STATIC_REAL_SERVER_W],
            w03[`SNIC_FLOW_STATIC_TS_OFFSET_LSB +: `SNIC_FLOW_STATIC_TS_OFFSET_W],
            w03[`SNIC_FLOW_STATIC_SEQ_DELTA_CS_LSB +: `SNIC_FLOW_STATIC_SEQ_DELTA_CS_W],
            w03[`SNIC_FLOW_STATIC_SEQ_DELTA_SC_LSB +: `SNIC_FLOW_STATIC_SEQ_DELTA_SC_W],
            `SNIC_SETUP_CTX_CLIENT(ctx),
            snic_flow_half_entry_pack(`SNIC_SETUP_CTX_SERVER_MAC(ctx),
                                      `SNIC_SETUP_CTX_SERVER_IP(ctx),
                                      `SNIC_SETUP_CTX_SERVER_PORT(ctx), lip, lport),
            32'd0,
            `SNIC_SETUP_CTX_GEN(ctx));
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

always @(posedge clk) begin
    if (hit_me) begin
        dirty_reg <= 1'b1;
    end
    if (dis_valid && !dis_pend_reg) begin
        dis_pend_reg <= 1'b1;
        dis_slot_reg <= dis_slot;
        dis_gen_reg <= dis_gen;
    end
    case (st_reg)
        ST_IDLE: begin
            dis_mode_reg <= 1'b0;
            if (cq_valid) begin
                {c_slot_reg, c_gen_reg, c_flags_reg, c_seq_reg, c_ack_reg, c_lip_reg,
                 c_lport_reg, c_mss_reg, c_ws_reg, c_shift_reg, c_sackp_reg, c_ts_reg,
                 c_tsval_reg} <= cq_data;
                st_reg <= ST_RD;
            end else if (dis_pend_reg) begin
                dis_mode_reg <= 1'b1;
                c_slot_reg <= dis_slot_reg;
                c_gen_reg <= dis_gen_reg;
                st_reg <= ST_RD;
            end
        end
        ST_RD: begin
            if (fs_ready) begin
                dirty_reg <= 1'b0;
                st_reg <= ST_RDW;
            end
        end
        ST_RDW: begin
            if (fs_rsp_valid) begin
                ctx_reg <= fs_rsp_static;
                st_reg <= ST_CHK;
            end
        end
        ST_CHK: begin
            seq1_reg <= `SNIC_SETUP_CTX_CLIENT_ISN(ctx_reg) + 32'd1;
            wr_reg <= unarmed(ctx_reg);
            if (dis_mode_reg) begin
                // a disarm: written back unarmed, or found absorbed, or neither
                if (ctx_ok) begin
                    st_reg <= ST_WR;
                end else begin
                    dis_result_reg <= ctx_spliced ? `SNIC_DISARM_RESULT_ABSORBED
                                                  : `SNIC_DISARM_RESULT_NOT_ARMED;
                    dis_pend_reg <= 1'b0;
                    st_reg <= ST_IDLE;
                end
            end else if (ctx_ok) begin
                st_reg <= ST_ABS;
            end else begin
                absorbed_reg <= 1'b0;
                st_reg <= ST_OUT;
            end
        end
        ST_ABS: begin
            if (ab_s_ready) begin
                st_reg <= ST_ABW;
            end
        end
        ST_ABW: begin
            if (ab_m_valid) begin
                a_splice_reg <= ab_verdict == `SNIC_SYN_ACK_VERDICT_SPLICE
                                && {5'd0, `SNIC_SETUP_CTX_HEAD_LEN(ctx_reg)} <= ab_chunk;
                a_entry_reg <= ab_entry;
                a_ack_reg <= ab_ack;
                a_window_reg <= ab_window;
                a_chunk_reg <= ab_chunk;
                st_reg <= ST_DEC;
            end
        end
        ST_DEC: begin
            wr_reg <= spliced_entry(ctx_reg, a_entry_reg, c_lip_reg, c_lport_reg);
            if (a_splice_reg && !dirty_reg && !hit_me) begin
                st_reg <= ST_WR;
            end else begin
                absorbed_reg <= 1'b0;
                st_reg <= ST_OUT;
            end
        end
        ST_WR: begin
            if (dis_mode_reg) begin
                if (fs_ready) begin
                    st_reg <= ST_WRW;
                end
            end else if (dirty_reg || hit_me) begin
                absorbed_reg <= 1'b0;
                st_reg <= ST_OUT;
            end else if (fs_ready) begin
                st_reg <= ST_WRW;
            end
        end
        ST_WRW: begin
            if (fs_rsp_valid) begin
                if (dis_mode_reg) begin
                    dis_result_reg <= `SNIC_DISARM_RESULT_DISARMED;
                    dis_pend_reg <= 1'b0;
                    st_reg <= ST_IDLE;
                end else begin
                    st_reg <= ST_RP;
                end
            end
        end
        ST_RP: begin
            if (rp_ready) begin
                absorbed_reg <= 1'b1;
                st_reg <= ST_OUT;
            end
        end
        default: begin // ST_OUT
            if (m_ready) begin
                if (absorbed_reg) begin
                    done_reg <= done_reg + 1'b1;
                end
                st_reg <= ST_IDLE;
            end
        end
    endcase
    punted_reg <= punted_reg + {31'd0, st_reg == ST_OUT && m_ready && !absorbed_reg}
                             + {31'd0, s_skip};
    if (rst) begin
        st_reg <= ST_IDLE;
        dis_pend_reg <= 1'b0;
        dis_mode_reg <= 1'b0;
        dirty_reg <= 1'b0;
        absorbed_reg <= 1'b0;
        done_reg <= 32'd0;
        punted_reg <= 32'd0;
    end
end

// the WRITE is offered only while no firmware write of the slot came since the READ (the
// firmware's command wins the port in a cycle both wait: then this one is not taken)
assign fs_valid = st_reg == ST_RD || (st_reg == ST_WR && (dis_mode_reg || (!dirty_reg && !hit_me)));
assign fs_op = st_reg == ST_RD ? `SNIC_FLOW_OP_READ : `SNIC_FLOW_OP_WRITE_STATIC;
assign fs_slot = c_slot_reg;
assign fs_static = wr_reg;

assign rp_valid = st_reg == ST_RP;
assign rp_buf = `SNIC_SETUP_CTX_HEAD_ID(ctx_reg);
assign rp_max_len = a_chunk_reg;
assign rp_dst_mac = `SNIC_SETUP_CTX_SERVER_MAC(ctx_reg);
assign rp_src_ip = c_lip_reg;
assign rp_dst_ip = `SNIC_SETUP_CTX_SERVER_IP(ctx_reg);
assign rp_sport = c_lport_reg;
assign rp_dport = `SNIC_SETUP_CTX_SERVER_PORT(ctx_reg);
assign rp_seq = seq1_reg;
assign rp_ack = a_ack_reg;
assign rp_window = a_window_reg;
assign rp_ts = `SNIC_SETUP_CTX_TS(ctx_reg);
assign rp_tsval = `SNIC_SETUP_CTX_CLIENT_TSVAL(ctx_reg);
assign rp_tsecr = c_tsval_reg;

assign m_valid = st_reg == ST_OUT;
assign m_absorbed = absorbed_reg;
assign stat_done = done_reg;
assign stat_punted = punted_reg;

endmodule

`resetall
