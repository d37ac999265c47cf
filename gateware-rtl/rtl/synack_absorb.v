// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * SYN-ACK absorber (docs/server-open.md): what a server's answer to the card's SYN means for
 * a connection in setup, and when it completes the server handshake, everything the splice
 * needs from it in one result: the flow entry's translation words (state, flags, window
 * shift difference, real server, timestamp offset, both sequence deltas; seed: A = A0 - A1),
 * the handshake ACK's ack and window, and the size of the replayed request's segments. The
 * reference model is the firmware's `splicer::absorb::absorb_synack`
 * (firmware/logic/src/splicer/absorb.rs); test-open runs both on random connections.
 *
 * In (one per cycle, s_valid/s_ready): the connection's context, as the card keeps it for a
 * connection whose SYN went to the server (the client's ISN, which the card's SYN reused; the
 * card's ISN and latest TSval towards the client; the client's window; the client half's
 * options: its MSS, the MSS announced to it, SACK, timestamps, its window shift and the
 * card's shift offered to the server; the real server; whether the client already sent FIN)
 * and the server's segment: TCP flags, seq, ack and its options as tcp_opt_decoder reports
 * them (record TcpOpts).
 * Out (m_valid/m_ready, in order): m_verdict (SynAckVerdict); with SPLICE: m_entry, FlowStatic
 * bits 127:0 (word 0: state SPLICED, or CLOSING with FIN_CLIENT when the client already sent
 * FIN, else the ACTIVE flag; word 1 the timestamp offset; word 2 seq_delta_cs = 0, the
 * card's SYN reusing the client's ISN; word 3 seq_delta_sc = card ISN - server ISN), m_ack =
 * the server's seq + 1, m_window = the client's window rescaled to the server half (the
 * client's shift up, the card's server shift down when the server scales, at most 0xFFFF),
 * m_mss = min(client MSS, server MSS, MSS announced to the client), m_chunk = m_mss less 12
 * when timestamps are on, at least REPLAY_MIN_CHUNK. Other verdicts: m_entry, m_window,
 * m_mss and m_chunk are 0, m_ack the server's seq + 1.
 *
 * Verdicts: a RST is REFUSED when it has ACK and acknowledges the card's SYN (ack = client
 * ISN + 1), IGNORE otherwise; a segment without SYN and ACK, or whose ack is another, is
 * IGNORE; then DECLINED_TS when the client half uses timestamps and the SYN-ACK has none,
 * DECLINED_SACK when it uses SACK and the SYN-ACK does not permit it; else SPLICE.
 *
 * Pipeline (a global enable: every stage moves when the result register is empty or taken):
 *   S1 inputs -> S2 ISN + 1, the deltas, the server's MSS, the shifts, the window shifted up
 *   -> S3 the ack compare, min(client, server MSS), the window shifted down, the shift
 *   difference -> S4 verdict, the entry words, min with the announced MSS, window clamp ->
 *   S5 (result) the chunk. SYNACK_ABSORB_LATENCY cycles from accept to result.
 */
module synack_absorb
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  s_valid,
    output wire                  s_ready,
    // context
    input  wire [31:0]           s_client_isn,
    input  wire [31:0]           s_card_isn,
    input  wire [31:0]           s_card_tsval,
    input  wire [15:0]           s_client_win,
    input  wire [15:0]           s_client_mss,
    input  wire [15:0]           s_mss_to_client,
    input  wire                  s_sack,
    input  wire                  s_ts,
    input  wire                  s_client_ws,
    input  wire [3:0]            s_client_ws_shift,
    input  wire [3:0]            s_server_ws_shift,
    input  wire [7:0]            s_real_server,
    input  wire                  s_client_fin,
    // the server's segment
    input  wire [7:0]            s_flags,
    input  wire [31:0]           s_seq,
    input  wire [31:0]           s_ack,
    // the decoder's whole record; the absorber reads MSS, WS, SACK_PERM and TSval
    // verilator lint_off UNUSEDSIGNAL
    input  wire [`SNIC_TCP_OPTS_W-1:0] s_opts,
    // verilator lint_on UNUSEDSIGNAL

    output wire                  m_valid,
    input  wire                  m_ready,
    output wire [`SNIC_SYN_ACK_VERDICT_W-1:0] m_verdict,
    output wire [127:0]          m_entry,
    output wire [31:0]           m_ack,
    output wire [15:0]           m_window,
    output wire [15:0]           m_mss,
    output wire [15:0]           m_chunk
);

localparam [7:0] F_SYN = 8'h02, F_RST = 8'h04, F_ACK = 8'h10;
localparam [15:0] MSS_DEFAULT = `SNIC_DEFAULT_PEER_MSS;
localparam [15:0] MSS_MIN = `SNIC_MIN_MSS;
localparam [15:0] CHUNK_MIN = `SNIC_REPLAY_MIN_CHUNK;

reg  v1_reg = 1'b0, v2_reg = 1'b0, v3_reg = 1'b0, v4_reg = 1'b0, v5_reg = 1'b0;
wire en = !v5_reg || m_ready;
assign s_ready = en;

// S1: inputs
reg [31:0] s1_cisn_reg = 32'd0, s1_kisn_reg = 32'd0, s1_ktsval_reg = 32'd0;
reg [15:0] s1_cwin_reg = 16'd0, s1_cmss_reg = 16'd0, s1_mtc_reg = 16'd0;
reg        s1_sack_reg = 1'b0, s1_ts_reg = 1'b0, s1_cws_reg = 1'b0, s1_cfin_reg = 1'b0;
reg [3:0]  s1_cwsh_reg = 4'd0, s1_swsh_reg = 4'd0;
reg [7:0]  s1_rs_reg = 8'd0, s1_flags_reg = 8'd0;
reg [31:0] s1_seq_reg = 32'd0, s1_ack_reg = 32'd0;
reg [31:0] s1_tsval_reg = 32'd0;
reg [15:0] s1_mssv_reg = 16'd0;
reg        s1_omss_reg = 1'b0, s1_ows_reg = 1'b0, s1_osp_reg = 1'b0, s1_ots_reg = 1'b0;

// S2
reg [31:0] s2_isn1_reg = 32'd0, s2_ack_reg = 32'd0, s2_dsc_reg = 32'd0, s2_tso_reg = 32'd0;
reg [31:0] s2_ack1_reg = 32'd0;
reg [15:0] s2_smss_reg = 16'd0, s2_cmss_reg = 16'd0, s2_mtc_reg = 16'd0;
reg [29:0] s2_winup_reg = 30'd0;
reg [3:0]  s2_c_reg = 4'd0, s2_j_reg = 4'd0;
reg [7:0]  s2_rs_reg = 8'd0;
reg        s2_rst_reg = 1'b0, s2_ackf_reg = 1'b0, s2_synack_reg = 1'b0;
reg        s2_decl_ts_reg = 1'b0, s2_decl_sack_reg = 1'b0;
reg        s2_sack_reg = 1'b0, s2_ts_reg = 1'b0, s2_cfin_reg = 1'b0;

// S3
reg        s3_ackok_reg = 1'b0;
reg [31:0] s3_dsc_reg = 32'd0, s3_tso_reg = 32'd0, s3_ack1_reg = 32'd0;
reg [15:0] s3_mss_reg = 16'd0, s3_mtc_reg = 16'd0;
reg [29:0] s3_win_reg = 30'd0;
reg [7:0]  s3_diff_reg = 8'd0, s3_rs_reg = 8'd0;
reg        s3_rst_reg = 1'b0, s3_ackf_reg = 1'b0, s3_synack_reg = 1'b0;
reg        s3_decl_ts_reg = 1'b0, s3_decl_sack_reg = 1'b0;
reg        s3_sack_reg = 1'b0, s3_ts_reg = 1'b0, s3_cfin_reg = 1'b0;

// S4
reg [`SNIC_SYN_ACK_VERDICT_W-1:0] s4_verdict_reg = `SNIC_SYN_ACK_VERDICT_IGNORE;
reg [127:0] s4_entry_reg = 128'd0;
reg [31:0]  s4_ack1_reg = 32'd0;
reg [15:0]  s4_win_reg = 16'd0, s4_mss_reg = 16'd0;
reg         s4_ts_reg = 1'b0;

// S5: result
reg [`SNIC_SYN_ACK_VERDICT_W-1:0] s5_verdict_reg = `SNIC_SYN_ACK_VERDICT_IGNORE;
reg [127:0] s5_entry_reg = 128'd0;
reg [31:0]  s5_ack1_reg = 32'd0;
reg [15:0]  s5_win_reg = 16'd0, s5_mss_reg = 16'd0, s5_chunk_reg = 16'd0;

wire        w_splice = s3_synack_reg && s3_ackok_reg && !s3_decl_ts_reg && !s3_decl_sack_reg
                       && !s3_rst_reg;
wire [7:0]  w_flags = (s3_sack_reg ? `SNIC_ENTRY_FLAGS_SACK : 8'd0)
                    | (s3_ts_reg ? `SNIC_ENTRY_FLAGS_TIMESTAMPS : 8'd0)
                    | (s3_diff_reg != 8'd0 ? `SNIC_ENTRY_FLAGS_WINDOW_RESCALE : 8'd0)
                    | (s3_cfin_reg ? `SNIC_ENTRY_FLAGS_FIN_CLIENT : `SNIC_ENTRY_FLAGS_ACTIVE);
wire [7:0]  w_state = s3_cfin_reg ? `SNIC_FLOW_STATE_CLOSING : `SNIC_FLOW_STATE_SPLICED;
wire [15:0] w_mss = s3_mss_reg < s3_mtc_reg ? s3_mss_reg : s3_mtc_reg;
wire [15:0] w_less = s4_ts_reg ? 16'd12 : 16'd0;
wire        w_chunk_min = s4_mss_reg < w_less + CHUNK_MIN;

always @(posedge clk) begin
    if (en) begin
        v1_reg <= s_valid;
        v2_reg <= v1_reg;
        v3_reg <= v2_reg;
        v4_reg <= v3_reg;
        v5_reg <= v4_reg;

        // S1
        s1_cisn_reg <= s_client_isn;
        s1_kisn_reg <= s_card_isn;
        s1_ktsval_reg <= s_card_tsval;
        s1_cwin_reg <= s_client_win;
        s1_cmss_reg <= s_client_mss;
        s1_mtc_reg <= s_mss_to_client;
        s1_sack_reg <= s_sack;
        s1_ts_reg <= s_ts;
        s1_cws_reg <= s_client_ws;
        s1_cwsh_reg <= s_client_ws_shift;
        s1_swsh_reg <= s_server_ws_shift;
        s1_rs_reg <= s_real_server;
        s1_cfin_reg <= s_client_fin;
        s1_flags_reg <= s_flags;
        s1_seq_reg <= s_seq;
        s1_ack_reg <= s_ack;
        s1_tsval_reg <= `SNIC_TCP_OPTS_TSVAL(s_opts);
        s1_mssv_reg <= `SNIC_TCP_OPTS_MSS_VALUE(s_opts);
        s1_omss_reg <= `SNIC_TCP_OPTS_MSS(s_opts);
        s1_ows_reg <= `SNIC_TCP_OPTS_WS(s_opts);
        s1_osp_reg <= `SNIC_TCP_OPTS_SACK_PERM(s_opts);
        s1_ots_reg <= `SNIC_TCP_OPTS_TS(s_opts);

        // S2
        s2_isn1_reg <= s1_cisn_reg + 32'd1;
        s2_ack_reg <= s1_ack_reg;
        s2_ack1_reg <= s1_seq_reg + 32'd1;
        s2_dsc_reg <= s1_kisn_reg - s1_seq_reg;
        s2_tso_reg <= s1_ts_reg ? s1_ktsval_reg - s1_tsval_reg : 32'd0;
        s2_smss_reg <= !s1_omss_reg || s1_mssv_reg == 16'd0 ? MSS_DEFAULT
                     : s1_mssv_reg < MSS_MIN ? MSS_MIN : s1_mssv_reg;
        s2_cmss_reg <= s1_cmss_reg;
        s2_mtc_reg <= s1_mtc_reg;
        // the client's shift (0 without scaling on the client half), and the card's server
        // shift when the server scales too (0 when it declines: its half is unscaled)
        s2_c_reg <= s1_cws_reg ? s1_cwsh_reg : 4'd0;
        s2_j_reg <= s1_cws_reg && s1_ows_reg ? s1_swsh_reg : 4'd0;
        s2_winup_reg <= {14'd0, s1_cwin_reg} << (s1_cws_reg ? s1_cwsh_reg : 4'd0);
        s2_rs_reg <= s1_rs_reg;
        s2_rst_reg <= (s1_flags_reg & F_RST) != 8'd0;
        s2_ackf_reg <= (s1_flags_reg & F_ACK) != 8'd0;
        s2_synack_reg <= (s1_flags_reg & (F_SYN | F_ACK)) == (F_SYN | F_ACK);
        s2_decl_ts_reg <= s1_ts_reg && !s1_ots_reg;
        s2_decl_sack_reg <= s1_sack_reg && !s1_osp_reg;
        s2_sack_reg <= s1_sack_reg;
        s2_ts_reg <= s1_ts_reg;
        s2_cfin_reg <= s1_cfin_reg;

        // S3
        s3_ackok_reg <= s2_ack_reg == s2_isn1_reg;
        s3_dsc_reg <= s2_dsc_reg;
        s3_tso_reg <= s2_tso_reg;
        s3_ack1_reg <= s2_ack1_reg;
        s3_mss_reg <= s2_cmss_reg < s2_smss_reg ? s2_cmss_reg : s2_smss_reg;
        s3_mtc_reg <= s2_mtc_reg;
        s3_win_reg <= s2_winup_reg >> s2_j_reg;
        s3_diff_reg <= {4'd0, s2_c_reg} - {4'd0, s2_j_reg};
        s3_rs_reg <= s2_rs_reg;
        s3_rst_reg <= s2_rst_reg;
        s3_ackf_reg <= s2_ackf_reg;
        s3_synack_reg <= s2_synack_reg;
        s3_decl_ts_reg <= s2_decl_ts_reg;
        s3_decl_sack_reg <= s2_decl_sack_reg;
        s3_sack_reg <= s2_sack_reg;
        s3_ts_reg <= s2_ts_reg;
        s3_cfin_reg <= s2_cfin_reg;

        // S4
        if (s3_rst_reg) begin
            s4_verdict_reg <= s3_ackf_reg && s3_ackok_reg ? `SNIC_SYN_ACK_VERDICT_REFUSED
                                                          : `SNIC_SYN_ACK_VERDICT_IGNORE;
        end else if (!s3_synack_reg || !s3_ackok_reg) begin
            s4_verdict_reg <= `SNIC_SYN_ACK_VERDICT_IGNORE;
        end else if (s3_decl_ts_reg) begin
            s4_verdict_reg <= `SNIC_SYN_ACK_VERDICT_DECLINED_TS;
        end else if (s3_decl_sack_reg) begin
            s4_verdict_reg <= `SNIC_SYN_ACK_VERDICT_DECLINED_SACK;
        end else begin
            s4_verdict_reg <= `SNIC_SYN_ACK_VERDICT_SPLICE;
        end
        s4_entry_reg <= w_splice ? {s3_dsc_reg, 32'd0, s3_tso_reg,
                                    s3_rs_reg, s3_diff_reg, w_flags, w_state} : 128'd0;
        s4_ack1_reg <= s3_ack1_reg;
        s4_win_reg <= !w_splice ? 16'd0 : s3_win_reg > 30'h0000ffff ? 16'hffff
                    : s3_win_reg[15:0];
        s4_mss_reg <= w_splice ? w_mss : 16'd0;
        s4_ts_reg <= s3_ts_reg;

        // S5
        s5_verdict_reg <= s4_verdict_reg;
        s5_entry_reg <= s4_entry_reg;
        s5_ack1_reg <= s4_ack1_reg;
        s5_win_reg <= s4_win_reg;
        s5_mss_reg <= s4_mss_reg;
        s5_chunk_reg <= s4_verdict_reg != `SNIC_SYN_ACK_VERDICT_SPLICE ? 16'd0
                      : w_chunk_min ? CHUNK_MIN : s4_mss_reg - w_less;
    end
    if (rst) begin
        v1_reg <= 1'b0;
        v2_reg <= 1'b0;
        v3_reg <= 1'b0;
        v4_reg <= 1'b0;
        v5_reg <= 1'b0;
    end
end

assign m_valid = v5_reg;
assign m_verdict = s5_verdict_reg;
assign m_entry = s5_entry_reg;
assign m_ack = s5_ack1_reg;
assign m_window = s5_win_reg;
assign m_mss = s5_mss_reg;
assign m_chunk = s5_chunk_reg;

endmodule

`resetall
