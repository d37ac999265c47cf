// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Request-head replay (docs/server-open.md, "Replay"): the frame that completes the
 * server handshake and carries the buffered request head to the server, built from the
 * head's buffer with its checksum from the buffer's running sum, never a second pass over
 * the bytes. The reference is the firmware's replay (the segment `on_server_seg` builds with
 * `TcpOut::write` and `fill_checksums`).
 *
 * In (s_valid/s_ready, one request at a time): the head's buffer (s_buf, a head_buf id), the
 * frame's fields (addresses, ports, seq, ack, flags, window, timestamps: the ACK form of
 * tcp_tx_gen) and s_max_len, the most payload one segment may carry (the replay chunk).
 * The block starts head_buf's replay port on s_buf, reads the head's length and sum, and
 *   - a head of at most s_max_len bytes: one frame, the header from tcp_tx_gen (its lengths
 *     and TCP checksum covering the payload: head_buf's sum), PSH added when the head is not
 *     empty, the head's bytes behind it, padded with zeros to 60 bytes; res_sent;
 *   - a longer head: no frame (the head's words are read and dropped), res_long: the
 *     firmware replays it in segments (an exception, counted by the caller).
 * res_valid pulses once per request with res_len, the head's length.
 *
 * The payload's alignment behind the header is fixed by the options: a 54-byte header (no
 * timestamps) leaves 6 bytes in its last 8-byte word, a 66-byte one (NOP NOP TS) 2, so each
 * output word is a fixed byte rotation of a carry and the next head word (a 2:1 choice, no
 * shifter). The frame is built 8 bytes a cycle and collected into DATA_WIDTH beats.
 */
module head_replay #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    parameter IW = $clog2(`SNIC_HEAD_BUFFERS),
    parameter BA = $clog2(`SNIC_HEAD_BUFFER_BYTES)
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  s_valid,
    output wire                  s_ready,
    input  wire [IW-1:0]         s_buf,
    input  wire [15:0]           s_max_len,
    input  wire [47:0]           s_dst_mac,
    input  wire [47:0]           s_src_mac,
    input  wire [31:0]           s_src_ip,
    input  wire [31:0]           s_dst_ip,
    input  wire [15:0]           s_sport,
    input  wire [15:0]           s_dport,
    input  wire [31:0]           s_seq,
    input  wire [31:0]           s_ack,
    input  wire [7:0]            s_flags,
    input  wire [15:0]           s_window,
    input  wire                  s_ts,
    input  wire [31:0]           s_tsval,
    input  wire [31:0]           s_tsecr,

    // head_buf's replay port
    output wire                  hb_rd_start,
    output wire [IW-1:0]         hb_rd_buf,
    input  wire                  hb_rd_idle,
    input  wire [BA:0]           hb_rd_len,
    input  wire [15:0]           hb_rd_sum,
    input  wire                  hb_valid,
    output wire                  hb_ready,
    input  wire [63:0]           hb_data,
    input  wire [7:0]            hb_keep,
    input  wire                  hb_last,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    output reg                   res_valid = 1'b0,
    output reg                   res_long = 1'b0,
    output reg  [BA:0]           res_len = {BA+1{1'b0}},

    output wire [31:0]           stat_sent,
    output wire [31:0]           stat_long
);

localparam DW = DATA_WIDTH;
localparam KW = KEEP_WIDTH;
localparam N = DW / 64;                  // 8-byte words per output beat
localparam NB = N > 1 ? $clog2(N) : 1;
localparam [7:0] PSH = 8'h08;

initial begin
    if (DW % 64 != 0 || DW < 64 || KW * 8 != DW) begin
        $error("head_replay: DATA_WIDTH must be a multiple of 64 (instance %m)");
        $finish;
    end
end

localparam [2:0] ST_IDLE = 3'd0, ST_LEN = 3'd1, ST_GEN = 3'd2, ST_HDR = 3'd3, ST_PAY = 3'd4,
                 ST_DROP = 3'd5;

reg  [2:0]   st_reg = ST_IDLE;
reg          len_wait_reg = 1'b0;
reg  [IW-1:0] buf_reg = {IW{1'b0}};
reg  [15:0]  max_reg = 16'd0;
reg  [47:0]  dmac_reg = 48'd0, smac_reg = 48'd0;
reg  [31:0]  sip_reg = 32'd0, dip_reg = 32'd0, seq_reg = 32'd0, ack_reg = 32'd0;
reg  [31:0]  tsval_reg = 32'd0, tsecr_reg = 32'd0;
reg  [15:0]  sport_reg = 16'd0, dport_reg = 16'd0, win_reg = 16'd0;
reg  [7:0]   flags_reg = 8'd0;
reg          ts_reg = 1'b0;
reg  [BA:0]  plen_reg = {BA+1{1'b0}};
reg  [15:0]  psum_reg = 16'd0;
reg  [BA-2:0] words_reg = {BA-1{1'b0}};  // head words still to take
reg  [BA+1:0] rem_reg = {BA+2{1'b0}};    // frame bytes still to send after the header's whole words
reg  [47:0]  carry_reg = 48'd0;
reg  [31:0]  sent_reg = 32'd0, long_reg = 32'd0;

assign s_ready = st_reg == ST_IDLE && hb_rd_idle;
wire   s_take = s_valid && s_ready;
assign hb_rd_start = s_take;
assign hb_rd_buf = s_buf;

// ---- the header: tcp_tx_gen, 8 bytes a cycle ---------------------------------------------
wire        gen_ready;
wire [63:0] g_data;
wire [7:0]  g_keep;
wire        g_valid, g_last;
wire        g_ready;
wire        gen_valid = st_reg == ST_GEN;
wire [31:0] gen_sent;

// verilator lint_off PINCONNECTEMPTY
tcp_tx_gen #(
    .DATA_WIDTH(64)
)
gen_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(gen_valid),
    .s_ready(gen_ready),
    .s_dst_mac(dmac_reg),
    .s_src_mac(smac_reg),
    .s_src_ip(sip_reg),
    .s_dst_ip(dip_reg),
    .s_sport(sport_reg),
    .s_dport(dport_reg),
    .s_seq(seq_reg),
    .s_ack(ack_reg),
    .s_flags(plen_reg != {BA+1{1'b0}} ? flags_reg | PSH : flags_reg),
    .s_window(win_reg),
    .s_syn_opts(1'b0),
    .s_mss(16'd0),
    .s_sack(1'b0),
    .s_ts(ts_reg),
    .s_tsval(tsval_reg),
    .s_tsecr(tsecr_reg),
    .s_ws(1'b0),
    .s_ws_shift(4'd0),
    .s_pay_len({{15-BA{1'b0}}, plen_reg}),
    .s_pay_sum(psum_reg),
    .m_axis_tdata(g_data),
    .m_axis_tkeep(g_keep),
    .m_axis_tvalid(g_valid),
    .m_axis_tready(g_ready),
    .m_axis_tlast(g_last),
    .m_axis_tuser(),
    .stat_sent(gen_sent)
);
// verilator lint_on PINCONNECTEMPTY

// ---- the 8-byte word stream (w_*) into the collector ------------------------------------
wire        w_ready;
wire        w_valid;
wire [63:0] w_data;
wire [7:0]  w_keep;
wire        w_last;

// the head word, bytes past the head's end zeroed (the buffer may hold an older head there)
wire [63:0] hb_masked;
genvar gb;
generate
    for (gb = 0; gb < 8; gb = gb + 1) begin : g_mask
        assign hb_masked[8*gb +: 8] = hb_keep[gb] ? hb_data[8*gb +: 8] : 8'd0;
    end
endgenerate
wire        need_word = words_reg != {BA-1{1'b0}};
wire [63:0] cur = need_word ? hb_masked : 64'd0;
// 6 header bytes in the carry (no timestamps: 54 bytes) or 2 (NOP NOP TS: 66 bytes)
wire [63:0] merged = ts_reg ? {cur[47:0], carry_reg[15:0]} : {cur[15:0], carry_reg[47:0]};
wire [47:0] carry_next = ts_reg ? {32'd0, cur[63:48]} : cur[63:16];
wire        pay_last = rem_reg <= 8;
wire [7:0]  pay_keep = pay_last ? ~(8'hff << rem_reg[3:0]) : 8'hff;

assign w_valid = (st_reg == ST_HDR && g_valid && !(g_last && plen_reg != {BA+1{1'b0}}))
               || (st_reg == ST_PAY && (!need_word || hb_valid));
assign w_data = st_reg == ST_PAY ? merged : g_data;
assign w_keep = st_reg == ST_PAY ? pay_keep : g_keep;
assign w_last = st_reg == ST_PAY ? pay_last : g_last;
// the header's last word with a payload goes to the carry, not out
assign g_ready = st_reg == ST_HDR && (w_ready || (g_last && plen_reg != {BA+1{1'b0}}));
assign hb_ready = (st_reg == ST_PAY && need_word && w_ready) || st_reg == ST_DROP;

wire        w_take = w_valid && w_ready;
// frame bytes after the header's whole words: no timestamps: max(54 + len, 60) - 48;
// NOP NOP TS: 66 + len - 64
wire [BA+1:0] rem_start = rem_of(ts_reg, hb_rd_len);

function [BA+1:0] rem_of(input ts, input [BA:0] len);
    begin
        if (ts) begin
            rem_of = {1'b0, len} + {{BA{1'b0}}, 2'd2};
        end else if (len < 6) begin
            rem_of = 12;
        end else begin
            rem_of = {1'b0, len} + {{BA-1{1'b0}}, 3'd6};
        end
    end
endfunction

always @(posedge clk) begin
    res_valid <= 1'b0;
    case (st_reg)
        ST_IDLE: begin
            if (s_take) begin
                buf_reg <= s_buf;
                max_reg <= s_max_len;
                dmac_reg <= s_dst_mac;
                smac_reg <= s_src_mac;
                sip_reg <= s_src_ip;
                dip_reg <= s_dst_ip;
                sport_reg <= s_sport;
                dport_reg <= s_dport;
                seq_reg <= s_seq;
                ack_reg <= s_ack;
                flags_reg <= s_flags;
                win_reg <= s_window;
                ts_reg <= s_ts;
                tsval_reg <= s_tsval;
                tsecr_reg <= s_tsecr;
                len_wait_reg <= 1'b1;
                st_reg <= ST_LEN;
            end
        end
        ST_LEN: begin
            // head_buf shows the length and sum two cycles after the start
            len_wait_reg <= 1'b0;
            if (!len_wait_reg) begin
                plen_reg <= hb_rd_len;
                psum_reg <= hb_rd_sum;
                words_reg <= {1'b0, hb_rd_len[BA:3]} + {{BA-2{1'b0}}, hb_rd_len[2:0] != 3'd0};
                rem_reg <= rem_start;
                res_len <= hb_rd_len;
                if ({{15-BA{1'b0}}, hb_rd_len} > max_reg) begin
                    // too long for one segment: the firmware's; drain the head's words
                    res_valid <= 1'b1;
                    res_long <= 1'b1;
                    long_reg <= long_reg + 1'b1;
                    st_reg <= ST_DROP;
                end else begin
                    st_reg <= ST_GEN;
                end
            end
        end
        ST_GEN: begin
            if (gen_ready) begin
                st_reg <= ST_HDR;
            end
        end
        ST_HDR: begin
            if (g_valid && g_ready) begin
                if (g_last) begin
                    if (plen_reg == {BA+1{1'b0}}) begin
                        res_valid <= 1'b1;
                        res_long <= 1'b0;
                        sent_reg <= sent_reg + 1'b1;
                        st_reg <= ST_IDLE;
                    end else begin
                        carry_reg <= g_data[47:0];
                        st_reg <= ST_PAY;
                    end
                end
            end
        end
        ST_PAY: begin
            if (w_take) begin
                if (need_word) begin
                    words_reg <= words_reg - 1'b1;
                end
                carry_reg <= carry_next;
                rem_reg <= rem_reg - {{BA-2{1'b0}}, 4'd8};
                if (pay_last) begin
                    res_valid <= 1'b1;
                    res_long <= 1'b0;
                    sent_reg <= sent_reg + 1'b1;
                    st_reg <= ST_IDLE;
                end
            end
        end
        default: begin
            // ST_DROP: the long head's words, read and dropped
            if (!need_word) begin
                st_reg <= ST_IDLE;
            end else if (hb_valid) begin
                words_reg <= words_reg - 1'b1;
            end
        end
    endcase
    if (rst) begin
        st_reg <= ST_IDLE;
        res_valid <= 1'b0;
        sent_reg <= 32'd0;
        long_reg <= 32'd0;
    end
end

assign stat_sent = sent_reg;
assign stat_long = long_reg;

// ---- the collector: 8-byte words into DATA_WIDTH beats ---------------------------------
generate
    if (N == 1) begin : g_w64
        assign m_axis_tdata = w_data;
        assign m_axis_tkeep = w_keep;
        assign m_axis_tvalid = w_valid;
        assign m_axis_tlast = w_last;
        assign w_ready = m_axis_tready;
    end else begin : g_wide
        reg [DW-1:0] c_data_reg = {DW{1'b0}};
        reg [KW-1:0] c_keep_reg = {KW{1'b0}};
        reg [NB-1:0] c_idx_reg = {NB{1'b0}};
        reg          c_full_reg = 1'b0;
        reg          c_last_reg = 1'b0;
        // a word is taken while the beat is not full; a full beat waits for the port
        assign w_ready = !c_full_reg;
        assign m_axis_tdata = c_data_reg;
        assign m_axis_tkeep = c_keep_reg;
        assign m_axis_tvalid = c_full_reg;
        assign m_axis_tlast = c_last_reg;
        integer ci;
        always @(posedge clk) begin
            if (c_full_reg && m_axis_tready) begin
                c_full_reg <= 1'b0;
                c_keep_reg <= {KW{1'b0}};
                c_data_reg <= {DW{1'b0}};
            end
            if (w_take) begin
                for (ci = 0; ci < N; ci = ci + 1) begin
                    if (c_idx_reg == ci[NB-1:0]) begin
                        c_data_reg[64*ci +: 64] <= w_data;
                        c_keep_reg[8*ci +: 8] <= w_keep;
                    end
                end
                c_idx_reg <= w_last ? {NB{1'b0}} : c_idx_reg + 1'b1;
                c_last_reg <= w_last;
                c_full_reg <= w_last || c_idx_reg == N[NB-1:0] - 1'b1;
            end
            if (rst) begin
                c_full_reg <= 1'b0;
                c_idx_reg <= {NB{1'b0}};
                c_keep_reg <= {KW{1'b0}};
            end
        end
    end
endgenerate

assign m_axis_tuser = 1'b0;

// verilator lint_off UNUSEDSIGNAL
wire unused = ^gen_sent ^ hb_last ^ ^buf_reg;
// verilator lint_on UNUSEDSIGNAL

endmodule

`resetall
