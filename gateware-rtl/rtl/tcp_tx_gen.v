// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * TCP frame generator (docs/server-open.md): builds a header-only TCP/IPv4/Ethernet frame
 * from its fields, with the IPv4 and TCP checksums summed from the fields (adder trees), so
 * the connection engine sends the frames of a connection's setup without the firmware: the
 * SYN to the server, the handshake ACK, the ACKs of a request head, a RST.
 *
 * In: one request per s_valid/s_ready handshake: addresses, ports, seq, ack, flags, window,
 * and the options, in one of two forms:
 *   s_syn_opts 1 (a SYN's): MSS(s_mss), then SACK_PERM when s_sack and s_ts, NOP NOP when
 *     only s_ts, NOP NOP SACK_PERM when only s_sack; TS(s_tsval, s_tsecr) when s_ts; NOP
 *     WS(s_ws_shift) when s_ws: the layout of the firmware's tcpopts::build (options 4 to 20
 *     bytes);
 *   s_syn_opts 0: NOP NOP TS(s_tsval, s_tsecr) when s_ts, none otherwise (s_mss, s_sack,
 *     s_ws ignored).
 * s_pay_len and s_pay_sum describe a payload that follows the header (a replayed request
 * head, appended by head_replay): its length counts in the IPv4 total length and the TCP
 * pseudo header, its ones'-complement sum (16-bit big-endian words from its first byte, as
 * head_buf keeps it) in the TCP checksum. 0 and 0 for a frame without payload.
 * Out: the frame, AXI-Stream, byte 0 in tdata[7:0], in request order: Ethernet (dst, src,
 * IPv4), IPv4 (IHL 5, id 0, DF, TTL 64, protocol 6), TCP (data offset from the options),
 * options; 54 + options bytes, padded with zeros to 60 without a payload; with one, the
 * header alone (54 + options bytes, tlast on its last byte), the payload to be appended.
 *
 * Pipeline (one request held in R from its accept until the serializer takes it):
 *   accept -> R: the request -> B: option bytes and lengths -> C: partial sums, 4 words a
 *   node (the IPv4 header; the pseudo header, TCP header and options) -> D: the sums -> E:
 *   end-around carry (twice), complement -> serializer: the frame image, one beat of it on
 *   the port (a beat-index mux), loaded when idle.
 * Rate: the next request is accepted when R is taken by the serializer: one frame per
 * max(TX_GEN_LATENCY, beats + 1) cycles (9 to 11 at DATA_WIDTH 64, 6 at 512).
 * Latency: a request accepted at cycle t has its first beat valid at t + TX_GEN_LATENCY
 * when the serializer is idle (records.toml; test-open's timing test asserts it).
 */
module tcp_tx_gen #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  s_valid,
    output wire                  s_ready,
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
    input  wire                  s_syn_opts,
    input  wire [15:0]           s_mss,
    input  wire                  s_sack,
    input  wire                  s_ts,
    input  wire [31:0]           s_tsval,
    input  wire [31:0]           s_tsecr,
    input  wire                  s_ws,
    input  wire [3:0]            s_ws_shift,
    input  wire [15:0]           s_pay_len,
    input  wire [15:0]           s_pay_sum,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    // frames sent (last beat taken)
    output wire [31:0]           stat_sent
);

localparam DW = DATA_WIDTH;
localparam KW = KEEP_WIDTH;
// the longest frame (74 bytes) in whole beats
localparam IMG_BEATS = (74 + KW - 1) / KW;
localparam IMG_W = IMG_BEATS * DW;
localparam BC_W = $clog2(IMG_BEATS + 1);
localparam OPT_W = 20 * 8;

initial begin
    if (KW * 8 != DW || DW < 64) begin
        $error("tcp_tx_gen: DATA_WIDTH must be a multiple of 8, at least 64");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// R: the request

reg         r_busy_reg = 1'b0;
reg [47:0]  r_dmac_reg = 48'd0;
reg [47:0]  r_smac_reg = 48'd0;
reg [31:0]  r_sip_reg = 32'd0;
reg [31:0]  r_dip_reg = 32'd0;
reg [15:0]  r_sport_reg = 16'd0;
reg [15:0]  r_dport_reg = 16'd0;
reg [31:0]  r_seq_reg = 32'd0;
reg [31:0]  r_ack_reg = 32'd0;
reg [7:0]   r_flags_reg = 8'd0;
reg [15:0]  r_win_reg = 16'd0;
reg         r_syn_reg = 1'b0;
reg [15:0]  r_mss_reg = 16'd0;
reg         r_sack_reg = 1'b0;
reg         r_ts_reg = 1'b0;
reg [31:0]  r_tsval_reg = 32'd0;
reg [15:0]  r_plen_reg = 16'd0;
reg [15:0]  r_psum_reg = 16'd0;
reg [31:0]  r_tsecr_reg = 32'd0;
reg         r_ws_reg = 1'b0;
reg [3:0]   r_wsh_reg = 4'd0;

// the stages behind R (one request at a time: valid bits only; b_valid: R holds a request
// and B computes, c_valid: C computes, d_valid: D computes, e_pend: E computes, e_valid: the
// checksums wait for the serializer)
reg         b_valid_reg = 1'b0;
reg         c_valid_reg = 1'b0;
reg         d_valid_reg = 1'b0;
reg         e_pend_reg = 1'b0;
reg         e_valid_reg = 1'b0;

wire ser_load;
wire s_take = s_valid && s_ready;
assign s_ready = !r_busy_reg;

always @(posedge clk) begin
    if (s_take) begin
        r_busy_reg <= 1'b1;
        r_dmac_reg <= s_dst_mac;
        r_smac_reg <= s_src_mac;
        r_sip_reg <= s_src_ip;
        r_dip_reg <= s_dst_ip;
        r_sport_reg <= s_sport;
        r_dport_reg <= s_dport;
        r_seq_reg <= s_seq;
        r_ack_reg <= s_ack;
        r_flags_reg <= s_flags;
        r_win_reg <= s_window;
        r_syn_reg <= s_syn_opts;
        r_mss_reg <= s_mss;
        r_sack_reg <= s_sack;
        r_ts_reg <= s_ts;
        r_tsval_reg <= s_tsval;
        r_tsecr_reg <= s_tsecr;
        r_ws_reg <= s_ws;
        r_wsh_reg <= s_ws_shift;
        r_plen_reg <= s_pay_len;
        r_psum_reg <= s_pay_sum;
    end else if (ser_load) begin
        r_busy_reg <= 1'b0;
    end
    b_valid_reg <= s_take;
    c_valid_reg <= b_valid_reg;
    d_valid_reg <= c_valid_reg;
    e_pend_reg <= d_valid_reg;
    if (e_pend_reg) begin
        e_valid_reg <= 1'b1;
    end else if (ser_load) begin
        e_valid_reg <= 1'b0;
    end
    if (rst) begin
        r_busy_reg <= 1'b0;
        b_valid_reg <= 1'b0;
        c_valid_reg <= 1'b0;
        d_valid_reg <= 1'b0;
        e_pend_reg <= 1'b0;
        e_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// B: the option bytes (byte k of the option area in bits 8k+7:8k) and the lengths

reg [OPT_W-1:0] b_opt_reg = {OPT_W{1'b0}};
reg [4:0]       b_olen_reg = 5'd0;      // option bytes / 1 (0 to 20)

function [31:0] be32(input [31:0] x); be32 = {x[7:0], x[15:8], x[23:16], x[31:24]}; endfunction
function [15:0] be16(input [15:0] x); be16 = {x[7:0], x[15:8]}; endfunction

// the 10-byte timestamps option
wire [79:0] ts_bytes = {be32(r_tsecr_reg), be32(r_tsval_reg), 16'h0a08};
wire [31:0] ws_bytes = {4'd0, r_wsh_reg, 24'h030301};

always @(posedge clk) begin
    if (!r_syn_reg) begin
        b_opt_reg <= r_ts_reg ? {{OPT_W-96{1'b0}}, ts_bytes, 16'h0101} : {OPT_W{1'b0}};
        b_olen_reg <= r_ts_reg ? 5'd12 : 5'd0;
    end else begin
        // MSS at 0; then three layouts of SACK_PERM and TS; then NOP WS at 4, 8 or 16
        case ({r_ts_reg, r_sack_reg, r_ws_reg})
            3'b000: begin
                b_opt_reg <= {128'd0, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd4;
            end
            3'b001: begin
                b_opt_reg <= {96'd0, ws_bytes, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd8;
            end
            3'b010: begin
                b_opt_reg <= {96'd0, 32'h02040101, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd8;
            end
            3'b011: begin
                b_opt_reg <= {64'd0, ws_bytes, 32'h02040101, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd12;
            end
            3'b100: begin
                b_opt_reg <= {32'd0, ts_bytes, 16'h0101, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd16;
            end
            3'b101: begin
                b_opt_reg <= {ws_bytes, ts_bytes, 16'h0101, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd20;
            end
            3'b110: begin
                b_opt_reg <= {32'd0, ts_bytes, 16'h0204, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd16;
            end
            default: begin
                b_opt_reg <= {ws_bytes, ts_bytes, 16'h0204, be16(r_mss_reg), 16'h0402};
                b_olen_reg <= 5'd20;
            end
        endcase
    end
end

// ---------------------------------------------------------------------------------------
// C, D, E: checksums
//   IPv4: 0x4500 + total + 0 + 0x4000 + 0x4006 + 0 + src + dst
//   TCP: pseudo header (src, dst, 6 + TCP length), ports, seq, ack, data offset | flags,
//        window, 0 (checksum), 0 (urgent), options

localparam [17:0] IP_CONST = 18'h04500 + 18'h04000 + 18'h04006;

wire [15:0] b_thdr_len = 16'd20 + {11'd0, b_olen_reg};
wire [15:0] b_tcp_len = b_thdr_len + r_plen_reg;
wire [15:0] b_ip_len = 16'd40 + {11'd0, b_olen_reg} + r_plen_reg;
wire [15:0] b_doff_flags = {b_thdr_len[5:2], 4'd0, r_flags_reg};
wire        b_pay = r_plen_reg != 16'd0;

// option word k: big-endian 16 bits of option bytes 2k, 2k+1
function [15:0] ow(input [OPT_W-1:0] o, input integer k);
    ow = {o[16*k +: 8], o[16*k + 8 +: 8]};
endfunction

function [17:0] add4(input [15:0] a, input [15:0] b, input [15:0] c, input [15:0] d);
    add4 = {2'b0, a} + {2'b0, b} + {2'b0, c} + {2'b0, d};
endfunction

reg [17:0] c_ip_p_reg [0:1];
reg [17:0] c_tcp_p_reg [0:5];
reg [18:0] d_ip_s_reg = 19'd0;
reg [20:0] d_tcp_s_reg = 21'd0;
reg [15:0] e_ip_csum_reg = 16'd0;
reg [15:0] e_tcp_csum_reg = 16'd0;
integer pi;
initial begin
    for (pi = 0; pi < 2; pi = pi + 1) begin
        c_ip_p_reg[pi] = 18'd0;
    end
    for (pi = 0; pi < 6; pi = pi + 1) begin
        c_tcp_p_reg[pi] = 18'd0;
    end
end

function [15:0] fold19(input [18:0] s);
    reg [16:0] t;
    begin
        t = {1'b0, s[15:0]} + {14'd0, s[18:16]};
        fold19 = t[15:0] + {15'd0, t[16]};
    end
endfunction

function [15:0] fold21(input [20:0] s);
    reg [16:0] t;
    begin
        t = {1'b0, s[15:0]} + {12'd0, s[20:16]};
        fold21 = t[15:0] + {15'd0, t[16]};
    end
endfunction

always @(posedge clk) begin
    // C: partial sums (the request stays in R, the options in B, until the load)
    c_ip_p_reg[0] <= add4(b_ip_len, r_sip_reg[31:16], r_sip_reg[15:0], r_dip_reg[31:16]);
    c_ip_p_reg[1] <= {2'b0, r_dip_reg[15:0]} + IP_CONST;
    c_tcp_p_reg[0] <= add4(r_sip_reg[31:16], r_sip_reg[15:0], r_dip_reg[31:16],
                           r_dip_reg[15:0]);
    c_tcp_p_reg[1] <= add4(16'd6 + b_tcp_len, r_sport_reg, r_dport_reg, r_seq_reg[31:16]);
    c_tcp_p_reg[2] <= add4(r_seq_reg[15:0], r_ack_reg[31:16], r_ack_reg[15:0], b_doff_flags);
    c_tcp_p_reg[3] <= add4(r_win_reg, ow(b_opt_reg, 0), ow(b_opt_reg, 1), ow(b_opt_reg, 2));
    c_tcp_p_reg[4] <= add4(ow(b_opt_reg, 3), ow(b_opt_reg, 4), ow(b_opt_reg, 5),
                           ow(b_opt_reg, 6));
    c_tcp_p_reg[5] <= add4(ow(b_opt_reg, 7), ow(b_opt_reg, 8), ow(b_opt_reg, 9), r_psum_reg);
    // D: sums
    d_ip_s_reg <= {1'b0, c_ip_p_reg[0]} + {1'b0, c_ip_p_reg[1]};
    d_tcp_s_reg <= ({3'b0, c_tcp_p_reg[0]} + {3'b0, c_tcp_p_reg[1]} + {3'b0, c_tcp_p_reg[2]})
                 + ({3'b0, c_tcp_p_reg[3]} + {3'b0, c_tcp_p_reg[4]} + {3'b0, c_tcp_p_reg[5]});
    // E: end-around carry (twice covers every sum of these widths), complement
    e_ip_csum_reg <= ~fold19(d_ip_s_reg);
    e_tcp_csum_reg <= ~fold21(d_tcp_s_reg);
end

// ---------------------------------------------------------------------------------------
// Serializer

function integer beats_of(input integer len);
    beats_of = (len + KW - 1) / KW;
endfunction

function [KW-1:0] keep_of(input integer len);
    integer k;
    begin
        for (k = 0; k < KW; k = k + 1) begin
            keep_of[k] = k < len - (beats_of(len) - 1) * KW;
        end
    end
endfunction

// frame length of each option length (60 at least)
// (options 0 and 4: 54 and 58 bytes, padded to 60; with a payload, the header alone)
localparam integer L0 = 60, L8 = 62, L12 = 66, L16 = 70, L20 = 74, LH0 = 54, LH4 = 58;
localparam integer BI0 = beats_of(L0), BI8 = beats_of(L8), BI12 = beats_of(L12),
    BI16 = beats_of(L16), BI20 = beats_of(L20), BIH0 = beats_of(LH0), BIH4 = beats_of(LH4);
localparam [BC_W-1:0] BC0 = BI0[BC_W-1:0], BC8 = BI8[BC_W-1:0], BC12 = BI12[BC_W-1:0],
    BC16 = BI16[BC_W-1:0], BC20 = BI20[BC_W-1:0], BCH0 = BIH0[BC_W-1:0],
    BCH4 = BIH4[BC_W-1:0];
localparam [KW-1:0] K0 = keep_of(L0), K8 = keep_of(L8), K12 = keep_of(L12),
    K16 = keep_of(L16), K20 = keep_of(L20), KH0 = keep_of(LH0), KH4 = keep_of(LH4);

function [BC_W-1:0] frame_beats(input [4:0] olen, input pay);
    case (olen)
        5'd0: frame_beats = pay ? BCH0 : BC0;
        5'd4: frame_beats = pay ? BCH4 : BC0;
        5'd8: frame_beats = BC8;
        5'd12: frame_beats = BC12;
        5'd16: frame_beats = BC16;
        5'd20: frame_beats = BC20;
        default: frame_beats = BC0;
    endcase
endfunction

function [KW-1:0] frame_keep(input [4:0] olen, input pay);
    case (olen)
        5'd0: frame_keep = pay ? KH0 : K0;
        5'd4: frame_keep = pay ? KH4 : K0;
        5'd8: frame_keep = K8;
        5'd12: frame_keep = K12;
        5'd16: frame_keep = K16;
        5'd20: frame_keep = K20;
        default: frame_keep = K0;
    endcase
endfunction

// the frame image (byte k in bits 8k+7:8k; zero past the frame)
function [IMG_W-1:0] image(input [15:0] ipc, input [15:0] tcpc);
    reg [74*8-1:0] b;
    reg [15:0] len;
    integer m;
    begin
        len = b_ip_len;
        b = {74*8{1'b0}};
        for (m = 0; m < 6; m = m + 1) begin
            b[8*m +: 8] = r_dmac_reg[40 - 8*m +: 8];
            b[8*(6+m) +: 8] = r_smac_reg[40 - 8*m +: 8];
        end
        b[12*8 +: 16] = 16'h0008;
        b[14*8 +: 16] = 16'h0045;
        b[16*8 +: 16] = be16(len);
        b[20*8 +: 16] = 16'h0040;
        b[22*8 +: 16] = 16'h0640;
        b[24*8 +: 16] = be16(ipc);
        b[26*8 +: 32] = be32(r_sip_reg);
        b[30*8 +: 32] = be32(r_dip_reg);
        b[34*8 +: 16] = be16(r_sport_reg);
        b[36*8 +: 16] = be16(r_dport_reg);
        b[38*8 +: 32] = be32(r_seq_reg);
        b[42*8 +: 32] = be32(r_ack_reg);
        b[46*8 +: 16] = be16(b_doff_flags);
        b[48*8 +: 16] = be16(r_win_reg);
        b[50*8 +: 16] = be16(tcpc);
        b[54*8 +: OPT_W] = b_opt_reg;
        image = {{IMG_W-74*8{1'b0}}, b};
    end
endfunction

reg [IMG_W-1:0] img_reg = {IMG_W{1'b0}};
reg [BC_W-1:0]  beats_reg = {BC_W{1'b0}};   // beats left, 0 idle
reg [BC_W-1:0]  beat_reg = {BC_W{1'b0}};    // beat on the port
reg [KW-1:0]    last_keep_reg = {KW{1'b0}};
reg [31:0]      sent_reg = 32'd0;
wire            m_take = beats_reg != {BC_W{1'b0}} && m_axis_tready;
wire            ser_last = beats_reg == {{BC_W-1{1'b0}}, 1'b1};
// loaded when the serializer is idle (beats_reg, a register, is 0): m_axis_tready reaches
// only the beat counters
assign ser_load = e_valid_reg && beats_reg == {BC_W{1'b0}};

always @(posedge clk) begin
    if (m_take) begin
        beats_reg <= beats_reg - 1'b1;
        beat_reg <= beat_reg + 1'b1;
        if (ser_last) begin
            sent_reg <= sent_reg + 1'b1;
        end
    end
    if (ser_load) begin
        beats_reg <= frame_beats(b_olen_reg, b_pay);
        beat_reg <= {BC_W{1'b0}};
        last_keep_reg <= frame_keep(b_olen_reg, b_pay);
        img_reg <= image(e_ip_csum_reg, e_tcp_csum_reg);
    end
    if (rst) begin
        beats_reg <= {BC_W{1'b0}};
        sent_reg <= 32'd0;
    end
end

assign m_axis_tdata = img_reg[beat_reg*DW +: DW];
assign m_axis_tkeep = ser_last ? last_keep_reg : {KW{1'b1}};
assign m_axis_tvalid = beats_reg != {BC_W{1'b0}};
assign m_axis_tlast = ser_last;
assign m_axis_tuser = 1'b0;
assign stat_sent = sent_reg;

endmodule

`resetall
