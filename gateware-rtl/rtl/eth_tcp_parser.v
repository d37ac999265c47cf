// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Per-RX-port Ethernet / 802.1Q / IPv4 / TCP header parser and validator.
 *
 * Frame path: every input beat passes through a 3-stage register pipeline to m_axis_*
 * unchanged (tdata, tkeep, tlast), so the stage downstream sees the whole frame. The
 * header result for a frame is presented on m_hdr_* in the SAME cycle as that frame's last
 * beat on m_axis_* (and m_axis_tuser is set on that last beat when m_hdr_reason != OK), so a
 * store-and-forward consumer can decide at tlast and a cut-through consumer can buffer the
 * frame in a FIFO until its header arrives. Header results never arrive out of order.
 *
 * Throughput: one beat per cycle, back-to-back frames (a one-beat frame every cycle at
 * DATA_WIDTH 512). s_axis_tready = output beat register free or being taken AND header
 * register free or being taken; with both consumers ready the pipeline never stalls.
 * Latency: 3 cycles from an input beat to the same beat on m_axis_*; the header appears
 * 3 cycles after the frame's last beat was accepted.
 *
 * Input rules: byte 0 of a beat in tdata[7:0]; tkeep all ones except on the last beat
 * (contiguous from lane 0); no FCS (the MAC strips it); s_axis_tuser on any beat marks a
 * MAC error (bad FCS, overrun) for the whole frame.
 *
 * Header fields (m_hdr_*), valid for reason OK; for other reasons the fields hold whatever
 * the frame's bytes held at those offsets (bytes past the frame read as 0):
 *   eth_dst, eth_src, vlan (one 802.1Q tag, TPID 0x8100), vlan_tci, eth_type (after the tag)
 *   ip_version, ip_ihl, ip_tos, ip_length (total length), ip_id, ip_flags (reserved, DF, MF),
 *   ip_frag_offset, ip_ttl, ip_protocol, ip_checksum, ip_src, ip_dst
 *   tcp_src_port, tcp_dst_port, tcp_seq, tcp_ack, tcp_data_offset, tcp_flags (9 bits:
 *   NS CWR ECE URG ACK PSH RST SYN FIN, FIN = bit 0), tcp_window, tcp_checksum, tcp_urgent
 *   tcp_opt_len: option area length in bytes (0..40) = data_offset*4 - 20
 *   tcp_options: the raw option area, option byte k in bits [8*k+7:8*k]; bytes at and
 *     beyond tcp_opt_len are zero (options are parsed by the consumers that need them)
 *   l3_offset, l4_offset, payload_offset: byte offsets from the start of the frame
 *   payload_len: TCP payload bytes = ip_length - ihl*4 - data_offset*4 (0 unless OK)
 *   frame_len: bytes in the frame (saturates at 65535)
 *
 * Reason codes (m_hdr_reason, checked in this priority order, first match wins):
 *   0  OK          well-formed IPv4/TCP frame, fast-path candidate
 *   3  MAC_ERR     s_axis_tuser was set on a beat of the frame
 *   4  TRUNC_ETH   frame shorter than the Ethernet header (14, or 18 with a tag)
 *   1  OTHER_L3    ethertype is not IPv4 (ARP, IPv6, LLDP, a second tag, ...)     [other]
 *   7  TRUNC_IP    frame shorter than l3_offset + 20
 *   5  IP_VERSION  IPv4 ethertype but version != 4
 *   6  IP_IHL      IHL < 5
 *   7  TRUNC_IP    frame shorter than l3_offset + IHL*4
 *   8  IP_LEN      total length < IHL*4, or frame shorter than l3_offset + total length
 *                  (a longer frame is Ethernet padding and is fine)
 *   9  IP_CSUM     IPv4 header checksum wrong
 *   10 IP_OPTIONS  IHL > 5 (IP options present)
 *   11 IP_FRAG     MF set or fragment offset != 0
 *   2  OTHER_L4    IPv4 but protocol != TCP (ICMP, UDP, ...)                        [other]
 *   12 TCP_TRUNC   IP payload shorter than the 20-byte TCP header
 *   13 TCP_DOFF    data offset < 5 or data_offset*4 > IP payload length
 * m_hdr_ok = (reason == 0); m_hdr_other = reason 1 or 2 (punt/drop by class);
 * m_hdr_malformed = reason >= 3 (drop, or punt for diagnosis). Frames are never dropped
 * here: every frame comes out with its verdict, so counting and policy live downstream.
 *
 * Status: stat_event[r] pulses for one cycle (registered) when a header with reason r is
 * taken (m_hdr_valid && m_hdr_ready); one pulse per frame, for the stats block counters.
 * No configuration inputs: policy (drop or punt per reason) belongs to the classifier.
 */
module eth_tcp_parser #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8
)
(
    input  wire                  clk,
    input  wire                  rst,

    // Frame input (AXI-Stream)
    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire                  s_axis_tuser,

    // Frame output (AXI-Stream), the whole frame; tuser on tlast = verdict not OK
    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    // Header output, one per frame
    output wire                  m_hdr_valid,
    input  wire                  m_hdr_ready,
    output wire [3:0]            m_hdr_reason,
    output wire                  m_hdr_ok,
    output wire                  m_hdr_other,
    output wire                  m_hdr_malformed,
    output wire [47:0]           m_hdr_eth_dst,
    output wire [47:0]           m_hdr_eth_src,
    output wire                  m_hdr_vlan,
    output wire [15:0]           m_hdr_vlan_tci,
    output wire [15:0]           m_hdr_eth_type,
    output wire [3:0]            m_hdr_ip_version,
    output wire [3:0]            m_hdr_ip_ihl,
    output wire [7:0]            m_hdr_ip_tos,
    output wire [15:0]           m_hdr_ip_length,
    output wire [15:0]           m_hdr_ip_id,
    output wire [2:0]            m_hdr_ip_flags,
    output wire [12:0]           m_hdr_ip_frag_offset,
    output wire [7:0]            m_hdr_ip_ttl,
    output wire [7:0]            m_hdr_ip_protocol,
    output wire [15:0]           m_hdr_ip_checksum,
    output wire [31:0]           m_hdr_ip_src,
    output wire [31:0]           m_hdr_ip_dst,
    output wire [15:0]           m_hdr_tcp_src_port,
    output wire [15:0]           m_hdr_tcp_dst_port,
    output wire [31:0]           m_hdr_tcp_seq,
    output wire [31:0]           m_hdr_tcp_ack,
    output wire [3:0]            m_hdr_tcp_data_offset,
    output wire [8:0]            m_hdr_tcp_flags,
    output wire [15:0]           m_hdr_tcp_window,
    output wire [15:0]           m_hdr_tcp_checksum,
    output wire [15:0]           m_hdr_tcp_urgent,
    output wire [5:0]            m_hdr_tcp_opt_len,
    output wire [319:0]          m_hdr_tcp_options,
    output wire [7:0]            m_hdr_l3_offset,
    output wire [7:0]            m_hdr_l4_offset,
    output wire [7:0]            m_hdr_payload_offset,
    output wire [15:0]           m_hdr_payload_len,
    output wire [15:0]           m_hdr_frame_len,

    // Status: one-cycle pulse per taken header, bit = reason code
    output wire [15:0]           stat_event
);

// Header bytes captured per frame: 14 + 4 (tag) + 60 (IPv4 max) + 60 (TCP max).
localparam HB = 138;
localparam BEATS_HB = (HB + KEEP_WIDTH - 1) / KEEP_WIDTH;
localparam BCW = 6;

localparam [3:0] R_OK = 4'd0, R_OTHER_L3 = 4'd1, R_OTHER_L4 = 4'd2, R_MAC_ERR = 4'd3,
    R_TRUNC_ETH = 4'd4, R_IP_VERSION = 4'd5, R_IP_IHL = 4'd6, R_TRUNC_IP = 4'd7,
    R_IP_LEN = 4'd8, R_IP_CSUM = 4'd9, R_IP_OPTIONS = 4'd10, R_IP_FRAG = 4'd11,
    R_TCP_TRUNC = 4'd12, R_TCP_DOFF = 4'd13;

initial begin
    if (DATA_WIDTH < 64 || DATA_WIDTH > 1024 || DATA_WIDTH % 64 != 0) begin
        $error("Error: DATA_WIDTH must be a multiple of 64 in 64..1024 (instance %m)");
        $finish;
    end
    if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: KEEP_WIDTH must be DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

function [7:0] popcount;
    input [KEEP_WIDTH-1:0] k;
    integer n;
    begin
        popcount = 8'd0;
        for (n = 0; n < KEEP_WIDTH; n = n + 1) begin
            popcount = popcount + {7'd0, k[n]};
        end
    end
endfunction

// ---------------------------------------------------------------------------------------
// Pipeline enable: both outputs free or being taken.
reg                  p3_valid_reg = 1'b0;
reg                  hdr_valid_reg = 1'b0;
wire en = (!p3_valid_reg || m_axis_tready) && (!hdr_valid_reg || m_hdr_ready);
wire s_fire = s_axis_tvalid && en;

assign s_axis_tready = en;

// ---------------------------------------------------------------------------------------
// Stage 0: header capture of the frame being received.
reg [BCW-1:0]  beat_reg = {BCW{1'b0}};
reg [15:0]     len_reg = 16'd0;
reg            err_reg = 1'b0;
reg [HB*8-1:0] cap_reg;
wire [HB*8-1:0] cap_next;

genvar gi;
generate
    for (gi = 0; gi < HB; gi = gi + 1) begin : g_cap
        localparam integer BII = gi / KEEP_WIDTH;
        localparam [BCW-1:0] BI = BII[BCW-1:0];
        localparam LI = gi % KEEP_WIDTH;
        assign cap_next[gi*8 +: 8] = (beat_reg == BI) ?
            (s_axis_tkeep[LI] ? s_axis_tdata[LI*8 +: 8] : 8'd0) :
            ((beat_reg == {BCW{1'b0}}) ? 8'd0 : cap_reg[gi*8 +: 8]);
    end
endgenerate

wire [7:0]  beat_bytes = s_axis_tlast ? popcount(s_axis_tkeep) : KEEP_WIDTH[7:0];
wire [16:0] len_sum = {1'b0, len_reg} + {9'd0, beat_bytes};
wire [15:0] len_next = len_sum[16] ? 16'hffff : len_sum[15:0];
wire        err_next = err_reg || s_axis_tuser;

always @(posedge clk) begin
    if (s_fire) begin
        cap_reg <= cap_next;
        if (s_axis_tlast) begin
            beat_reg <= {BCW{1'b0}};
            len_reg <= 16'd0;
            err_reg <= 1'b0;
        end else begin
            if (beat_reg != BEATS_HB[BCW-1:0]) begin
                beat_reg <= beat_reg + 1'b1;
            end
            len_reg <= len_next;
            err_reg <= err_next;
        end
    end
    if (rst) begin
        beat_reg <= {BCW{1'b0}};
        len_reg <= 16'd0;
        err_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// Frame beat pipeline p1 -> p2 -> p3 (= m_axis), header pipeline s1 -> s2 -> hdr, in step.
reg [DATA_WIDTH-1:0] p1_data_reg, p2_data_reg, p3_data_reg;
reg [KEEP_WIDTH-1:0] p1_keep_reg, p2_keep_reg, p3_keep_reg;
reg                  p1_last_reg, p2_last_reg, p3_last_reg;
reg                  p3_user_reg;
reg                  p1_valid_reg = 1'b0, p2_valid_reg = 1'b0;

// Stage 1: snapshot of the captured header bytes, frame length, MAC error.
reg                  s1_valid_reg = 1'b0;
reg [HB*8-1:0]       s1_cap_reg;
reg [15:0]           s1_len_reg;
reg                  s1_err_reg;

// Stage 1 -> 2: tag detection, IPv4 header select, checksum partial sums, TCP header select.
function [7:0] cbyte;
    input [HB*8-1:0] c;
    input integer i;
    begin
        cbyte = c[i*8 +: 8];
    end
endfunction

wire        s1_vlan = {cbyte(s1_cap_reg, 12), cbyte(s1_cap_reg, 13)} == 16'h8100;
wire [479:0] s1_ip60 = s1_vlan ? s1_cap_reg[18*8 +: 480] : s1_cap_reg[14*8 +: 480];
wire [3:0]  s1_ihl = s1_ip60[3:0];
wire [3:0]  s1_ihl_eff = (s1_ihl < 4'd5) ? 4'd5 : s1_ihl;
// l4 offset = l3 + 4*ihl = 2 + 4*m, m = ihl + (vlan ? 4 : 3); shift in 32-bit steps.
wire [4:0]  s1_m = {1'b0, s1_ihl_eff} + (s1_vlan ? 5'd4 : 5'd3);
// Only the low 60 bytes of the shifted capture are used.
// verilator lint_off UNUSEDSIGNAL
wire [HB*8-17:0] s1_cap_l4 = s1_cap_reg[HB*8-1:16] >> {s1_m, 5'd0};
// verilator lint_on UNUSEDSIGNAL
wire [479:0] s1_tcp60 = s1_cap_l4[479:0];

wire [6*19-1:0] s1_psum;
generate
    for (gi = 0; gi < 6; gi = gi + 1) begin : g_psum
        wire [15:0] w0 = ((gi*5 + 0) < s1_ihl*2) ? {s1_ip60[(gi*10+0)*8 +: 8], s1_ip60[(gi*10+1)*8 +: 8]} : 16'd0;
        wire [15:0] w1 = ((gi*5 + 1) < s1_ihl*2) ? {s1_ip60[(gi*10+2)*8 +: 8], s1_ip60[(gi*10+3)*8 +: 8]} : 16'd0;
        wire [15:0] w2 = ((gi*5 + 2) < s1_ihl*2) ? {s1_ip60[(gi*10+4)*8 +: 8], s1_ip60[(gi*10+5)*8 +: 8]} : 16'd0;
        wire [15:0] w3 = ((gi*5 + 3) < s1_ihl*2) ? {s1_ip60[(gi*10+6)*8 +: 8], s1_ip60[(gi*10+7)*8 +: 8]} : 16'd0;
        wire [15:0] w4 = ((gi*5 + 4) < s1_ihl*2) ? {s1_ip60[(gi*10+8)*8 +: 8], s1_ip60[(gi*10+9)*8 +: 8]} : 16'd0;
        assign s1_psum[gi*19 +: 19] = {3'd0, w0} + {3'd0, w1} + {3'd0, w2} + {3'd0, w3} + {3'd0, w4};
    end
endgenerate

// Stage 2 registers.
reg          s2_valid_reg = 1'b0;
reg          s2_vlan_reg;
reg [95:0]   s2_eth_reg;
reg [15:0]   s2_tci_reg;
reg [15:0]   s2_type_reg;
reg [159:0]  s2_ip20_reg;
reg [6*19-1:0] s2_psum_reg;
reg [479:0]  s2_tcp60_reg;
reg [15:0]   s2_len_reg;
reg          s2_err_reg;

// Stage 2 -> 3: fields and verdict.
function [7:0] b20;
    input [159:0] v;
    input integer i;
    begin
        b20 = v[i*8 +: 8];
    end
endfunction

function [7:0] b60;
    input [479:0] v;
    input integer i;
    begin
        b60 = v[i*8 +: 8];
    end
endfunction

wire [3:0]  f_ver = s2_ip20_reg[7:4];
wire [3:0]  f_ihl = s2_ip20_reg[3:0];
wire [7:0]  f_tos = b20(s2_ip20_reg, 1);
wire [15:0] f_tot = {b20(s2_ip20_reg, 2), b20(s2_ip20_reg, 3)};
wire [15:0] f_id = {b20(s2_ip20_reg, 4), b20(s2_ip20_reg, 5)};
wire [15:0] f_ff = {b20(s2_ip20_reg, 6), b20(s2_ip20_reg, 7)};
wire [7:0]  f_ttl = b20(s2_ip20_reg, 8);
wire [7:0]  f_proto = b20(s2_ip20_reg, 9);
wire [15:0] f_ipcs = {b20(s2_ip20_reg, 10), b20(s2_ip20_reg, 11)};
wire [31:0] f_src = {b20(s2_ip20_reg, 12), b20(s2_ip20_reg, 13), b20(s2_ip20_reg, 14), b20(s2_ip20_reg, 15)};
wire [31:0] f_dst = {b20(s2_ip20_reg, 16), b20(s2_ip20_reg, 17), b20(s2_ip20_reg, 18), b20(s2_ip20_reg, 19)};

wire [21:0] f_sum = {3'd0, s2_psum_reg[0*19 +: 19]} + {3'd0, s2_psum_reg[1*19 +: 19]} +
                    {3'd0, s2_psum_reg[2*19 +: 19]} + {3'd0, s2_psum_reg[3*19 +: 19]} +
                    {3'd0, s2_psum_reg[4*19 +: 19]} + {3'd0, s2_psum_reg[5*19 +: 19]};
wire [16:0] f_fold1 = {1'b0, f_sum[15:0]} + {11'd0, f_sum[21:16]};
wire [15:0] f_fold2 = f_fold1[15:0] + {15'd0, f_fold1[16]};
wire        f_csum_ok = f_fold2 == 16'hffff;

wire [15:0] t_sport = {b60(s2_tcp60_reg, 0), b60(s2_tcp60_reg, 1)};
wire [15:0] t_dport = {b60(s2_tcp60_reg, 2), b60(s2_tcp60_reg, 3)};
wire [31:0] t_seq = {b60(s2_tcp60_reg, 4), b60(s2_tcp60_reg, 5), b60(s2_tcp60_reg, 6), b60(s2_tcp60_reg, 7)};
wire [31:0] t_ack = {b60(s2_tcp60_reg, 8), b60(s2_tcp60_reg, 9), b60(s2_tcp60_reg, 10), b60(s2_tcp60_reg, 11)};
wire [3:0]  t_doff = s2_tcp60_reg[12*8+4 +: 4];
wire [8:0]  t_flags = {s2_tcp60_reg[12*8], b60(s2_tcp60_reg, 13)};
wire [15:0] t_win = {b60(s2_tcp60_reg, 14), b60(s2_tcp60_reg, 15)};
wire [15:0] t_csum = {b60(s2_tcp60_reg, 16), b60(s2_tcp60_reg, 17)};
wire [15:0] t_urg = {b60(s2_tcp60_reg, 18), b60(s2_tcp60_reg, 19)};
wire [5:0]  t_opt_len = (t_doff < 4'd5) ? 6'd0 : {t_doff - 4'd5, 2'b00};
wire [319:0] t_opt_raw = s2_tcp60_reg[479:160];
wire [319:0] t_opt;
generate
    for (gi = 0; gi < 40; gi = gi + 1) begin : g_opt
        assign t_opt[gi*8 +: 8] = (gi < t_opt_len) ? t_opt_raw[gi*8 +: 8] : 8'd0;
    end
endgenerate

wire [7:0]  l3_off = s2_vlan_reg ? 8'd18 : 8'd14;
wire [7:0]  ihl4 = {2'b00, f_ihl, 2'b00};
wire [7:0]  doff4 = {2'b00, t_doff, 2'b00};
wire [7:0]  l4_off = l3_off + ihl4;
wire [7:0]  pay_off = l4_off + doff4;
wire [16:0] len17 = {1'b0, s2_len_reg};
wire [16:0] ip_pay = {1'b0, f_tot} - {9'd0, ihl4};   // valid when tot >= ihl4
wire [15:0] tcp_pay = ip_pay[15:0] - {8'd0, doff4};

wire c_trunc_eth = (s2_len_reg < 16'd14) || (s2_vlan_reg && s2_len_reg < 16'd18);
wire c_not_ipv4 = s2_type_reg != 16'h0800;
wire c_trunc_ip20 = len17 < {9'd0, l3_off} + 17'd20;
wire c_ver = f_ver != 4'd4;
wire c_ihl = f_ihl < 4'd5;
wire c_trunc_ip = len17 < {9'd0, l3_off} + {9'd0, ihl4};
wire c_ip_len = (f_tot < {8'd0, ihl4}) || (len17 < {9'd0, l3_off} + {1'b0, f_tot});
wire c_csum = !f_csum_ok;
wire c_opts = f_ihl > 4'd5;
wire c_frag = f_ff[13] || (f_ff[12:0] != 13'd0);
wire c_not_tcp = f_proto != 8'd6;
wire c_tcp_trunc = ip_pay < 17'd20;
wire c_doff = (t_doff < 4'd5) || ({9'd0, doff4} > ip_pay);

reg [3:0] reason;
always @* begin
    if (s2_err_reg) reason = R_MAC_ERR;
    else if (c_trunc_eth) reason = R_TRUNC_ETH;
    else if (c_not_ipv4) reason = R_OTHER_L3;
    else if (c_trunc_ip20) reason = R_TRUNC_IP;
    else if (c_ver) reason = R_IP_VERSION;
    else if (c_ihl) reason = R_IP_IHL;
    else if (c_trunc_ip) reason = R_TRUNC_IP;
    else if (c_ip_len) reason = R_IP_LEN;
    else if (c_csum) reason = R_IP_CSUM;
    else if (c_opts) reason = R_IP_OPTIONS;
    else if (c_frag) reason = R_IP_FRAG;
    else if (c_not_tcp) reason = R_OTHER_L4;
    else if (c_tcp_trunc) reason = R_TCP_TRUNC;
    else if (c_doff) reason = R_TCP_DOFF;
    else reason = R_OK;
end

// Output header registers.
reg [3:0]   h_reason_reg = 4'd0;
reg         h_vlan_reg;
reg [95:0]  h_eth_reg;
reg [15:0]  h_tci_reg, h_type_reg;
reg [3:0]   h_ver_reg, h_ihl_reg;
reg [7:0]   h_tos_reg, h_ttl_reg, h_proto_reg;
reg [15:0]  h_tot_reg, h_id_reg, h_ff_reg, h_ipcs_reg;
reg [31:0]  h_src_reg, h_dst_reg;
reg [15:0]  h_sport_reg, h_dport_reg, h_win_reg, h_tcs_reg, h_urg_reg;
reg [31:0]  h_seq_reg, h_ack_reg;
reg [3:0]   h_doff_reg;
reg [8:0]   h_flags_reg;
reg [5:0]   h_opt_len_reg;
reg [319:0] h_opt_reg;
reg [7:0]   h_l3_reg, h_l4_reg, h_pay_off_reg;
reg [15:0]  h_pay_len_reg, h_len_reg;
reg [15:0]  stat_reg = 16'd0;

always @(posedge clk) begin
    if (en) begin
        // frame beats
        p1_data_reg <= s_axis_tdata;
        p1_keep_reg <= s_axis_tkeep;
        p1_last_reg <= s_axis_tlast;
        p1_valid_reg <= s_axis_tvalid;
        p2_data_reg <= p1_data_reg;
        p2_keep_reg <= p1_keep_reg;
        p2_last_reg <= p1_last_reg;
        p2_valid_reg <= p1_valid_reg;
        p3_data_reg <= p2_data_reg;
        p3_keep_reg <= p2_keep_reg;
        p3_last_reg <= p2_last_reg;
        p3_user_reg <= p2_last_reg && (reason != R_OK);
        p3_valid_reg <= p2_valid_reg;

        // stage 1
        s1_valid_reg <= s_axis_tvalid && s_axis_tlast;
        s1_cap_reg <= cap_next;
        s1_len_reg <= len_next;
        s1_err_reg <= err_next;

        // stage 2
        s2_valid_reg <= s1_valid_reg;
        s2_vlan_reg <= s1_vlan;
        s2_eth_reg <= s1_cap_reg[95:0];
        s2_tci_reg <= {cbyte(s1_cap_reg, 14), cbyte(s1_cap_reg, 15)};
        s2_type_reg <= s1_vlan ? {cbyte(s1_cap_reg, 16), cbyte(s1_cap_reg, 17)} :
                                 {cbyte(s1_cap_reg, 12), cbyte(s1_cap_reg, 13)};
        s2_ip20_reg <= s1_ip60[159:0];
        s2_psum_reg <= s1_psum;
        s2_tcp60_reg <= s1_tcp60;
        s2_len_reg <= s1_len_reg;
        s2_err_reg <= s1_err_reg;

        // stage 3: header output
        hdr_valid_reg <= s2_valid_reg;
        h_reason_reg <= reason;
        h_vlan_reg <= s2_vlan_reg;
        h_eth_reg <= s2_eth_reg;
        h_tci_reg <= s2_vlan_reg ? s2_tci_reg : 16'd0;
        h_type_reg <= s2_type_reg;
        h_ver_reg <= f_ver;
        h_ihl_reg <= f_ihl;
        h_tos_reg <= f_tos;
        h_tot_reg <= f_tot;
        h_id_reg <= f_id;
        h_ff_reg <= f_ff;
        h_ttl_reg <= f_ttl;
        h_proto_reg <= f_proto;
        h_ipcs_reg <= f_ipcs;
        h_src_reg <= f_src;
        h_dst_reg <= f_dst;
        h_sport_reg <= t_sport;
        h_dport_reg <= t_dport;
        h_seq_reg <= t_seq;
        h_ack_reg <= t_ack;
        h_doff_reg <= t_doff;
        h_flags_reg <= t_flags;
        h_win_reg <= t_win;
        h_tcs_reg <= t_csum;
        h_urg_reg <= t_urg;
        h_opt_len_reg <= t_opt_len;
        h_opt_reg <= t_opt;
        h_l3_reg <= l3_off;
        h_l4_reg <= l4_off;
        h_pay_off_reg <= pay_off;
        h_pay_len_reg <= (reason == R_OK) ? tcp_pay : 16'd0;
        h_len_reg <= s2_len_reg;
    end else begin
        if (m_axis_tready) begin
            p3_valid_reg <= 1'b0;
        end
        if (m_hdr_ready) begin
            hdr_valid_reg <= 1'b0;
        end
    end

    stat_reg <= 16'd0;
    if (hdr_valid_reg && m_hdr_ready) begin
        stat_reg[h_reason_reg] <= 1'b1;
    end

    if (rst) begin
        p1_valid_reg <= 1'b0;
        p2_valid_reg <= 1'b0;
        p3_valid_reg <= 1'b0;
        s1_valid_reg <= 1'b0;
        s2_valid_reg <= 1'b0;
        hdr_valid_reg <= 1'b0;
        stat_reg <= 16'd0;
    end
end

assign m_axis_tdata = p3_data_reg;
assign m_axis_tkeep = p3_keep_reg;
assign m_axis_tvalid = p3_valid_reg;
assign m_axis_tlast = p3_last_reg;
assign m_axis_tuser = p3_user_reg;

assign m_hdr_valid = hdr_valid_reg;
assign m_hdr_reason = h_reason_reg;
assign m_hdr_ok = h_reason_reg == R_OK;
assign m_hdr_other = (h_reason_reg == R_OTHER_L3) || (h_reason_reg == R_OTHER_L4);
assign m_hdr_malformed = h_reason_reg >= R_MAC_ERR;
assign m_hdr_eth_dst = {h_eth_reg[7:0], h_eth_reg[15:8], h_eth_reg[23:16], h_eth_reg[31:24],
                        h_eth_reg[39:32], h_eth_reg[47:40]};
assign m_hdr_eth_src = {h_eth_reg[55:48], h_eth_reg[63:56], h_eth_reg[71:64], h_eth_reg[79:72],
                        h_eth_reg[87:80], h_eth_reg[95:88]};
assign m_hdr_vlan = h_vlan_reg;
assign m_hdr_vlan_tci = h_tci_reg;
assign m_hdr_eth_type = h_type_reg;
assign m_hdr_ip_version = h_ver_reg;
assign m_hdr_ip_ihl = h_ihl_reg;
assign m_hdr_ip_tos = h_tos_reg;
assign m_hdr_ip_length = h_tot_reg;
assign m_hdr_ip_id = h_id_reg;
assign m_hdr_ip_flags = h_ff_reg[15:13];
assign m_hdr_ip_frag_offset = h_ff_reg[12:0];
assign m_hdr_ip_ttl = h_ttl_reg;
assign m_hdr_ip_protocol = h_proto_reg;
assign m_hdr_ip_checksum = h_ipcs_reg;
assign m_hdr_ip_src = h_src_reg;
assign m_hdr_ip_dst = h_dst_reg;
assign m_hdr_tcp_src_port = h_sport_reg;
assign m_hdr_tcp_dst_port = h_dport_reg;
assign m_hdr_tcp_seq = h_seq_reg;
assign m_hdr_tcp_ack = h_ack_reg;
assign m_hdr_tcp_data_offset = h_doff_reg;
assign m_hdr_tcp_flags = h_flags_reg;
assign m_hdr_tcp_window = h_win_reg;
assign m_hdr_tcp_checksum = h_tcs_reg;
assign m_hdr_tcp_urgent = h_urg_reg;
assign m_hdr_tcp_opt_len = h_opt_len_reg;
assign m_hdr_tcp_options = h_opt_reg;
assign m_hdr_l3_offset = h_l3_reg;
assign m_hdr_l4_offset = h_l4_reg;
assign m_hdr_payload_offset = h_pay_off_reg;
assign m_hdr_payload_len = h_pay_len_reg;
assign m_hdr_frame_len = h_len_reg;
assign stat_event = stat_reg;

endmodule

`resetall
