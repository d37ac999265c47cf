// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

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
 * Reason codes (m_hdr_reason, enum ParserReason of docs/records.md; checked in this priority
 * order, first match wins):
 *   OK          well-formed IPv4/TCP frame, fast-path candidate
 *   MAC_ERR     s_axis_tuser was set on a beat of the frame
 *   TRUNC_ETH   frame shorter than the Ethernet header (14, or 18 with a tag)
 *   OTHER_L3    ethertype is not IPv4 (ARP, IPv6, LLDP, a second tag, ...)     [other]
 *   TRUNC_IP    frame shorter than l3_offset + 20
 *   IP_VERSION  IPv4 ethertype but version != 4
 *   IP_IHL      IHL < 5
 *   TRUNC_IP    frame shorter than l3_offset + IHL*4
 *   IP_LEN      total length < IHL*4, or frame shorter than l3_offset + total length
 *               (a longer frame is Ethernet padding and is fine)
 *   IP_CSUM     IPv4 header checksum wrong
 *   IP_OPTIONS  IHL > 5 (IP options present)
 *   IP_FRAG     MF set or fragment offset != 0
 *   OTHER_L4    IPv4 but protocol != TCP (ICMP, UDP, ...)                        [other]
 *   TCP_TRUNC   IP payload shorter than the 20-byte TCP header
 *   TCP_DOFF    data offset < 5 or data_offset*4 > IP payload length
 * m_hdr_ok = (reason == OK); m_hdr_other = reason OTHER_L3 or OTHER_L4 (punt/drop by
 * class); m_hdr_malformed = reason MAC_ERR and up (drop, or punt for diagnosis). Frames are
 * never dropped here: every frame comes out with its verdict, so counting and policy live
 * downstream.
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
    output wire [`SNIC_PARSER_REASON_W-1:0] m_hdr_reason,
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

localparam RW = `SNIC_PARSER_REASON_W;
localparam [RW-1:0] R_OK = `SNIC_PARSER_REASON_OK, R_OTHER_L3 = `SNIC_PARSER_REASON_OTHER_L3,
    R_OTHER_L4 = `SNIC_PARSER_REASON_OTHER_L4, R_MAC_ERR = `SNIC_PARSER_REASON_MAC_ERR,
    R_TRUNC_ETH = `SNIC_PARSER_REASON_TRUNC_ETH, R_IP_VERSION = `SNIC_PARSER_REASON_IP_VERSION,
    R_IP_IHL = `SNIC_PARSER_REASON_IP_IHL, R_TRUNC_IP = `SNIC_PARSER_REASON_TRUNC_IP,
    R_IP_LEN = `SNIC_PARSER_REASON_IP_LEN, R_IP_CSUM = `SNIC_PARSER_REASON_IP_CSUM,
    R_IP_OPTIONS = `SNIC_PARSER_REASON_IP_OPTIONS, R_IP_FRAG = `SNIC_PARSER_REASON_IP_FRAG,
    R_TCP_TRUNC = `SNIC_PARSER_REASON_TCP_TRUNC, R_TCP_DOFF = `SNIC_PARSER_REASON_TCP_DOFF;

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
// Stage 0: header capture of the frame being received. Data registers of every stage below
// are loaded only with a valid beat or header (the stage's valid bit), through functions
// evaluated under that enable; nothing reads them otherwise.
reg [BCW-1:0]  beat_reg = {BCW{1'b0}};
reg [15:0]     len_reg = 16'd0;
reg            err_reg = 1'b0;
reg [HB*8-1:0] cap_reg;

// The captured header bytes with a beat taken: its bytes (zero past tkeep) at its position,
// the bytes before as captured (cleared by a frame's first beat), nothing past HB.
// verilator lint_off UNUSEDSIGNAL
function [HB*8-1:0] capture(input [HB*8-1:0] cap, input [BCW-1:0] beat,
                            input [DATA_WIDTH-1:0] d, input [KEEP_WIDTH-1:0] kp);
    reg [BEATS_HB*DATA_WIDTH-1:0] c;
    reg [DATA_WIDTH-1:0]          md;
    integer                       i;
    begin
        for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
            md[i*8 +: 8] = kp[i] ? d[i*8 +: 8] : 8'd0;
        end
        c = (beat == {BCW{1'b0}}) ? {BEATS_HB*DATA_WIDTH{1'b0}} :
                                    {{(BEATS_HB*DATA_WIDTH-HB*8){1'b0}}, cap};
        for (i = 0; i < BEATS_HB; i = i + 1) begin
            if (beat == i[BCW-1:0]) begin
                c[i*DATA_WIDTH +: DATA_WIDTH] = md;
            end
        end
        capture = c[HB*8-1:0];
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

// frame length with a beat taken (saturating)
function [15:0] len_add(input [15:0] len, input last, input [KEEP_WIDTH-1:0] kp);
    reg [16:0] sum;
    begin
        sum = {1'b0, len} + {9'd0, last ? popcount(kp) : KEEP_WIDTH[7:0]};
        len_add = sum[16] ? 16'hffff : sum[15:0];
    end
endfunction

// (stage 0 is updated in the pipeline's always block below, after stage 1 has read it)

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
// Returns {vlan, eth (96), tci (16), type (16), ip20 (160), psum (6 x 19), tcp60 (480)}.
localparam S2_W = 1 + 96 + 16 + 16 + 160 + 6*19 + 480;

// verilator lint_off UNUSEDSIGNAL
function [S2_W-1:0] stage2(input [HB*8-1:0] c);
    reg          vlan;
    reg [479:0]  ip60;
    reg [3:0]    ihl;
    reg [3:0]    ihl_eff;
    // l4 offset = l3 + 4*ihl = 2 + 4*m, m = ihl + (vlan ? 4 : 3); shift in 32-bit steps.
    reg [4:0]    m;
    // Only the low 60 bytes of the shifted capture are used.
    reg [HB*8-17:0] cap_l4;
    reg [6*19-1:0]  psum;
    reg [15:0]      w;
    integer         gi, k;
    begin
        vlan = {c[12*8 +: 8], c[13*8 +: 8]} == 16'h8100;
        ip60 = vlan ? c[18*8 +: 480] : c[14*8 +: 480];
        ihl = ip60[3:0];
        ihl_eff = (ihl < 4'd5) ? 4'd5 : ihl;
        m = {1'b0, ihl_eff} + (vlan ? 5'd4 : 5'd3);
        cap_l4 = c[HB*8-1:16] >> {m, 5'd0};
        for (gi = 0; gi < 6; gi = gi + 1) begin
            psum[gi*19 +: 19] = 19'd0;
            for (k = 0; k < 5; k = k + 1) begin
                w = ((gi*5 + k) < ihl*2) ?
                    {ip60[(gi*10+2*k)*8 +: 8], ip60[(gi*10+2*k+1)*8 +: 8]} : 16'd0;
                psum[gi*19 +: 19] = psum[gi*19 +: 19] + {3'd0, w};
            end
        end
        stage2 = {vlan, c[95:0], c[14*8 +: 8], c[15*8 +: 8],
                  vlan ? {c[16*8 +: 8], c[17*8 +: 8]} : {c[12*8 +: 8], c[13*8 +: 8]},
                  ip60[159:0], psum, cap_l4[479:0]};
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

// Stage 2 registers.
reg          s2_valid_reg = 1'b0;
reg          s2_vlan_reg;
reg [95:0]   s2_eth_reg;
reg [15:0]   s2_tci_reg;
reg [15:0]   s2_type_reg;
reg [159:0]  s2_ip20_reg;
reg [6*19-1:0] s2_psum_reg;
// (bits 97..99, the reserved bits of TCP header byte 12, are not used)
// verilator lint_off UNUSEDSIGNAL
reg [479:0]  s2_tcp60_reg;
// verilator lint_on UNUSEDSIGNAL
reg [15:0]   s2_len_reg;
reg          s2_err_reg;

// Stage 2 -> 3: fields and verdict.
wire [3:0]  f_ver = s2_ip20_reg[7:4];
wire [3:0]  f_ihl = s2_ip20_reg[3:0];
wire [7:0]  f_tos = s2_ip20_reg[1*8 +: 8];
wire [15:0] f_tot = {s2_ip20_reg[2*8 +: 8], s2_ip20_reg[3*8 +: 8]};
wire [15:0] f_id = {s2_ip20_reg[4*8 +: 8], s2_ip20_reg[5*8 +: 8]};
wire [15:0] f_ff = {s2_ip20_reg[6*8 +: 8], s2_ip20_reg[7*8 +: 8]};
wire [7:0]  f_ttl = s2_ip20_reg[8*8 +: 8];
wire [7:0]  f_proto = s2_ip20_reg[9*8 +: 8];
wire [15:0] f_ipcs = {s2_ip20_reg[10*8 +: 8], s2_ip20_reg[11*8 +: 8]};
wire [31:0] f_src = {s2_ip20_reg[12*8 +: 8], s2_ip20_reg[13*8 +: 8], s2_ip20_reg[14*8 +: 8],
                     s2_ip20_reg[15*8 +: 8]};
wire [31:0] f_dst = {s2_ip20_reg[16*8 +: 8], s2_ip20_reg[17*8 +: 8], s2_ip20_reg[18*8 +: 8],
                     s2_ip20_reg[19*8 +: 8]};

wire [15:0] t_sport = {s2_tcp60_reg[0*8 +: 8], s2_tcp60_reg[1*8 +: 8]};
wire [15:0] t_dport = {s2_tcp60_reg[2*8 +: 8], s2_tcp60_reg[3*8 +: 8]};
wire [31:0] t_seq = {s2_tcp60_reg[4*8 +: 8], s2_tcp60_reg[5*8 +: 8], s2_tcp60_reg[6*8 +: 8],
                     s2_tcp60_reg[7*8 +: 8]};
wire [31:0] t_ack = {s2_tcp60_reg[8*8 +: 8], s2_tcp60_reg[9*8 +: 8], s2_tcp60_reg[10*8 +: 8],
                     s2_tcp60_reg[11*8 +: 8]};
wire [3:0]  t_doff = s2_tcp60_reg[12*8+4 +: 4];
wire [8:0]  t_flags = {s2_tcp60_reg[12*8], s2_tcp60_reg[13*8 +: 8]};
wire [15:0] t_win = {s2_tcp60_reg[14*8 +: 8], s2_tcp60_reg[15*8 +: 8]};
wire [15:0] t_csum = {s2_tcp60_reg[16*8 +: 8], s2_tcp60_reg[17*8 +: 8]};
wire [15:0] t_urg = {s2_tcp60_reg[18*8 +: 8], s2_tcp60_reg[19*8 +: 8]};

wire [7:0]  l3_off = s2_vlan_reg ? 8'd18 : 8'd14;
wire [7:0]  ihl4 = {2'b00, f_ihl, 2'b00};
wire [7:0]  doff4 = {2'b00, t_doff, 2'b00};

// option area length in bytes (0 for data offset < 5), and its bytes (zero at and past it)
function [5:0] opt_len(input [3:0] doff);
    opt_len = (doff < 4'd5) ? 6'd0 : {doff - 4'd5, 2'b00};
endfunction

function [319:0] opt_bytes(input [319:0] raw, input [5:0] len);
    integer i;
    begin
        for (i = 0; i < 40; i = i + 1) begin
            opt_bytes[i*8 +: 8] = (i < len) ? raw[i*8 +: 8] : 8'd0;
        end
    end
endfunction

// The verdict (reason code) of the header in stage 2.
// verilator lint_off UNUSEDSIGNAL
function [RW-1:0] reason_of(input err, input [15:0] len, input vlan, input [15:0] etype,
                            input [159:0] ip20, input [6*19-1:0] psum, input [3:0] doff);
    reg [3:0]  ver, ihl;
    reg [15:0] tot, ff;
    reg [7:0]  proto, l3, ih4, d4;
    reg [21:0] sum;
    reg [16:0] fold1;
    reg [15:0] fold2;
    reg [16:0] len17, ip_pay;
    integer    i;
    begin
        ver = ip20[7:4];
        ihl = ip20[3:0];
        tot = {ip20[2*8 +: 8], ip20[3*8 +: 8]};
        ff = {ip20[6*8 +: 8], ip20[7*8 +: 8]};
        proto = ip20[9*8 +: 8];
        l3 = vlan ? 8'd18 : 8'd14;
        ih4 = {2'b00, ihl, 2'b00};
        d4 = {2'b00, doff, 2'b00};
        sum = 22'd0;
        for (i = 0; i < 6; i = i + 1) begin
            sum = sum + {3'd0, psum[i*19 +: 19]};
        end
        fold1 = {1'b0, sum[15:0]} + {11'd0, sum[21:16]};
        fold2 = fold1[15:0] + {15'd0, fold1[16]};
        len17 = {1'b0, len};
        ip_pay = {1'b0, tot} - {9'd0, ih4};   // valid when tot >= ih4
        if (err) reason_of = R_MAC_ERR;
        else if ((len < 16'd14) || (vlan && len < 16'd18)) reason_of = R_TRUNC_ETH;
        else if (etype != 16'h0800) reason_of = R_OTHER_L3;
        else if (len17 < {9'd0, l3} + 17'd20) reason_of = R_TRUNC_IP;
        else if (ver != 4'd4) reason_of = R_IP_VERSION;
        else if (ihl < 4'd5) reason_of = R_IP_IHL;
        else if (len17 < {9'd0, l3} + {9'd0, ih4}) reason_of = R_TRUNC_IP;
        else if ((tot < {8'd0, ih4}) || (len17 < {9'd0, l3} + {1'b0, tot})) reason_of = R_IP_LEN;
        else if (fold2 != 16'hffff) reason_of = R_IP_CSUM;
        else if (ihl > 4'd5) reason_of = R_IP_OPTIONS;
        else if (ff[13] || (ff[12:0] != 13'd0)) reason_of = R_IP_FRAG;
        else if (proto != 8'd6) reason_of = R_OTHER_L4;
        else if (ip_pay < 17'd20) reason_of = R_TCP_TRUNC;
        else if ((doff < 4'd5) || ({9'd0, d4} > ip_pay)) reason_of = R_TCP_DOFF;
        else reason_of = R_OK;
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

// TCP payload length (ip_length - ihl*4 - data_offset*4)
// verilator lint_off UNUSEDSIGNAL
function [15:0] tcp_pay(input [15:0] tot, input [7:0] ih4, input [7:0] d4);
    reg [16:0] ip_pay;
    begin
        ip_pay = {1'b0, tot} - {9'd0, ih4};
        tcp_pay = ip_pay[15:0] - {8'd0, d4};
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

// Output header registers.
reg [RW-1:0] h_reason_reg = R_OK;
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
        p1_valid_reg <= s_axis_tvalid;
        if (s_axis_tvalid) begin
            p1_data_reg <= s_axis_tdata;
            p1_keep_reg <= s_axis_tkeep;
            p1_last_reg <= s_axis_tlast;
        end
        p2_valid_reg <= p1_valid_reg;
        if (p1_valid_reg) begin
            p2_data_reg <= p1_data_reg;
            p2_keep_reg <= p1_keep_reg;
            p2_last_reg <= p1_last_reg;
        end
        p3_valid_reg <= p2_valid_reg;
        if (p2_valid_reg) begin
            p3_data_reg <= p2_data_reg;
            p3_keep_reg <= p2_keep_reg;
            p3_last_reg <= p2_last_reg;
            // a valid last beat in p2 has its header in s2
            p3_user_reg <= p2_last_reg &&
                           (reason_of(s2_err_reg, s2_len_reg, s2_vlan_reg, s2_type_reg,
                                      s2_ip20_reg, s2_psum_reg, t_doff) != R_OK);
        end

        // stage 1
        s1_valid_reg <= s_axis_tvalid && s_axis_tlast;
        if (s_axis_tvalid && s_axis_tlast) begin
            s1_cap_reg <= capture(cap_reg, beat_reg, s_axis_tdata, s_axis_tkeep);
            s1_len_reg <= len_add(len_reg, 1'b1, s_axis_tkeep);
            s1_err_reg <= err_reg || s_axis_tuser;
        end

        // stage 2
        s2_valid_reg <= s1_valid_reg;
        if (s1_valid_reg) begin
            {s2_vlan_reg, s2_eth_reg, s2_tci_reg, s2_type_reg, s2_ip20_reg, s2_psum_reg,
             s2_tcp60_reg} <= stage2(s1_cap_reg);
            s2_len_reg <= s1_len_reg;
            s2_err_reg <= s1_err_reg;
        end

        // stage 3: header output
        hdr_valid_reg <= s2_valid_reg;
        if (s2_valid_reg) begin
            h_reason_reg <= reason_of(s2_err_reg, s2_len_reg, s2_vlan_reg, s2_type_reg,
                                      s2_ip20_reg, s2_psum_reg, t_doff);
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
            h_opt_len_reg <= opt_len(t_doff);
            h_opt_reg <= opt_bytes(s2_tcp60_reg[479:160], opt_len(t_doff));
            h_l3_reg <= l3_off;
            h_l4_reg <= l3_off + ihl4;
            h_pay_off_reg <= l3_off + ihl4 + doff4;
            h_pay_len_reg <= (reason_of(s2_err_reg, s2_len_reg, s2_vlan_reg, s2_type_reg,
                                        s2_ip20_reg, s2_psum_reg, t_doff) == R_OK) ?
                             tcp_pay(f_tot, ihl4, doff4) : 16'd0;
            h_len_reg <= s2_len_reg;
        end
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

    // stage 0: header capture
    if (s_fire) begin
        cap_reg <= capture(cap_reg, beat_reg, s_axis_tdata, s_axis_tkeep);
        if (s_axis_tlast) begin
            beat_reg <= {BCW{1'b0}};
            len_reg <= 16'd0;
            err_reg <= 1'b0;
        end else begin
            if (beat_reg != BEATS_HB[BCW-1:0]) begin
                beat_reg <= beat_reg + 1'b1;
            end
            len_reg <= len_add(len_reg, 1'b0, s_axis_tkeep);
            err_reg <= err_reg || s_axis_tuser;
        end
    end

    if (rst) begin
        beat_reg <= {BCW{1'b0}};
        len_reg <= 16'd0;
        err_reg <= 1'b0;
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
