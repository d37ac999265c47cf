// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Splice rewriter (the seed's packet mapping unit): rewrites one Ethernet/IPv4/TCP frame
 * of an established spliced flow per rewrite descriptor, at one beat per cycle.
 *
 * Per frame it rewrites: destination/source MAC, source/destination IPv4 address,
 * source/destination TCP port, sequence number (+ seq delta, modular 2^32), acknowledgment
 * number (+ ack delta, only when the ACK flag is set), SACK block edges (+ ack delta, both
 * edges of every block of every SACK option), timestamps (TSval + tsval delta; TSecr +
 * tsecr delta only when the ACK flag is set), the window field (shifted by the window-scale
 * difference, saturating at 0xFFFF; never on SYN segments, whose window is unscaled).
 * All deltas are ADDED modulo 2^32; the flow state stores the two's complement where a
 * subtraction is meant (e.g. tsecr delta = -(tsval delta of the other direction), ack delta
 * = -(seq delta of the other direction)).
 *
 * The IPv4 header checksum and the TCP checksum are updated incrementally with RFC 1624
 * equation 3 (splice_csum_update) over the words that may change: the IPv4 addresses (also
 * in the TCP pseudo-header) and the TCP header words (fixed part and options). The payload
 * is never read for the checksum.
 *
 * TCP options are walked in hardware at any position within the data offset: EOL ends the
 * list, NOP is skipped, every other kind has a length byte. SACK (kind 5, length 10/18/26/34)
 * and TS (kind 8, length 10) are translated; other kinds pass. A length below 2 or an option
 * running past the data offset ends the walk (options before it are still translated) and
 * counts in stat_opt_err.
 *
 * Structure: the first HDR_BEATS beats of a frame (the header window, MAX_HDR_BYTES bytes:
 * 18 bytes of Ethernet+802.1Q, up to 60 of IPv4, up to 60 of TCP) are captured while all beats
 * enter a data FIFO. The captured window goes through a fixed-latency pipeline (alignment,
 * option walk in NS stages of OPT_STEP option bytes, field update, two checksum stages,
 * write-back) into a result FIFO. The output stage replaces the first HDR_BEATS beats of each
 * frame with the rewritten window and passes later beats unchanged.
 *
 * Synthesis-friendly form (Yosys generic synthesis at DATA_WIDTH 64 in well under a minute):
 * no variable byte-granular shift or part-select over the window. Header capture and beat
 * output use one enable / select per beat position; the IPv4 header is aligned by a one-hot
 * select over its two legal offsets (14, 18), the TCP header by a 4-level shifter in 4-byte
 * steps over its twelve (34..78), and written back by the inverse shifter with a byte
 * enable; every option position has its own decoder at a constant index, and the field-start
 * marks of each walk stage are masked to the bits reachable so far. The window waits for E4
 * in a memory ring instead of pipeline registers.
 *
 * Latency: with no input gaps and no output backpressure the first beat of every frame
 * leaves exactly LATENCY = HDR_BEATS + NS + 6 cycles after it was accepted (cycle of the
 * s_axis handshake to the cycle m_axis_tvalid shows it), independent of frame length;
 * NS = ceil(40 / OPT_STEP). DATA_WIDTH 64, defaults: 18 + 10 + 6 = 34 cycles; DATA_WIDTH 512:
 * 3 + 10 + 6 = 19 cycles. Throughput: one beat per cycle for back-to-back frames of any length
 * >= 64 bytes (shorter runts may add idle cycles, never a stall).
 *
 * A frame is passed unchanged (counted in stat_bypass) when its descriptor's offsets are not
 * usable: l3 offset other than 14 or 18, IHL < 5, data offset < 5, or the frame shorter than
 * the headers the descriptor claims.
 *
 * Ports besides AXI-Stream:
 *   desc_*      rewrite descriptor, handshaken (desc_valid/desc_ready) together with the
 *               frame's first beat: the first beat is not accepted before desc_valid.
 *     desc_flags          bit 0 MAC, 1 IPv4 addresses, 2 ports, 3 seq, 4 ack, 5 SACK,
 *                         6 timestamps, 7 window rescale (a clear bit leaves the field as is)
 *     desc_l3_offset      byte offset of the IPv4 header (14, or 18 with one VLAN tag)
 *     desc_ihl, desc_doff IPv4 IHL and TCP data offset (32-bit words), from the parser
 *     desc_eth_dst/src, desc_ip_src/dst, desc_tcp_sport/dport   new values
 *     desc_seq_delta, desc_ack_delta, desc_tsval_delta, desc_tsecr_delta   added mod 2^32
 *     desc_wscale_shift   signed: > 0 shift window left (saturating), < 0 shift right
 *   stat_*      free-running 32-bit counters (wrap): frames out of the rewrite pipeline,
 *               frames passed unchanged, frames with a malformed option list. For a CSR
 *               block to read.
 *   cfg_latency the LATENCY constant, for a CSR block to report.
 */
module splice_rewriter #
(
    // AXI-Stream data width (64 default; 512 supported)
    parameter DATA_WIDTH = 64,
    // tkeep width
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    // tuser width (passed through)
    parameter USER_WIDTH = 1,
    // header window: Ethernet + 802.1Q (18) + IPv4 with options (60) + TCP with options (60)
    parameter MAX_HDR_BYTES = 138,
    // option bytes walked per pipeline stage (timing vs latency)
    parameter OPT_STEP = 4
)
(
    input  wire                   clk,
    input  wire                   rst,

    // frames in
    input  wire [DATA_WIDTH-1:0]  s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]  s_axis_tkeep,
    input  wire                   s_axis_tvalid,
    output wire                   s_axis_tready,
    input  wire                   s_axis_tlast,
    input  wire [USER_WIDTH-1:0]  s_axis_tuser,

    // rewritten frames out
    output wire [DATA_WIDTH-1:0]  m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]  m_axis_tkeep,
    output wire                   m_axis_tvalid,
    input  wire                   m_axis_tready,
    output wire                   m_axis_tlast,
    output wire [USER_WIDTH-1:0]  m_axis_tuser,

    // rewrite descriptor, one per frame, taken with the frame's first beat
    input  wire                   desc_valid,
    output wire                   desc_ready,
    input  wire [7:0]             desc_flags,
    input  wire [7:0]             desc_l3_offset,
    input  wire [3:0]             desc_ihl,
    input  wire [3:0]             desc_doff,
    input  wire [47:0]            desc_eth_dst,
    input  wire [47:0]            desc_eth_src,
    input  wire [31:0]            desc_ip_src,
    input  wire [31:0]            desc_ip_dst,
    input  wire [15:0]            desc_tcp_sport,
    input  wire [15:0]            desc_tcp_dport,
    input  wire [31:0]            desc_seq_delta,
    input  wire [31:0]            desc_ack_delta,
    input  wire [31:0]            desc_tsval_delta,
    input  wire [31:0]            desc_tsecr_delta,
    input  wire [4:0]             desc_wscale_shift,

    // status
    output wire [31:0]            stat_frames,
    output wire [31:0]            stat_bypass,
    output wire [31:0]            stat_opt_err,
    // LATENCY (first byte in to first byte out, cycles), a build constant
    output wire [15:0]            cfg_latency
);

localparam HDR_BEATS = (MAX_HDR_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH;
localparam WB = HDR_BEATS * KEEP_WIDTH;     // window bytes
localparam WW = WB * 8;                     // window bits
localparam NS = (40 + OPT_STEP - 1) / OPT_STEP;
localparam RELEASE = HDR_BEATS + NS + 5;
// first byte in to first byte out, in cycles (see header)
localparam LATENCY = RELEASE + 1;
localparam DF_AW = $clog2(RELEASE + 4);
localparam DF = 1 << DF_AW;
localparam MINF_BEATS = (64 + KEEP_WIDTH - 1) / KEEP_WIDTH;
localparam RF_AW = $clog2((RELEASE + 4 + MINF_BEATS - 1) / MINF_BEATS + 2);
localparam RF = 1 << RF_AW;
localparam RING_AW = $clog2(NS + 4);
// the window ring's delay: the walk (NS) plus E1..E3
localparam RW_DLY = NS + 3;
localparam IDX_W = $clog2(HDR_BEATS + 1);
localparam DF_W = DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH;
// captured length (bytes of the header window, <= WB) width
localparam CL_W = $clog2(WB + 1);
// tkeep count width
localparam KC_W = $clog2(KEEP_WIDTH + 1);

// descriptor bus layout
localparam D_FLAGS = 0;
localparam D_L3 = 8;
localparam D_IHL = 16;
localparam D_DOFF = 20;
localparam D_EDST = 24;
localparam D_ESRC = 72;
localparam D_IPS = 120;
localparam D_IPD = 152;
localparam D_SP = 184;
localparam D_DP = 200;
localparam D_SEQ = 216;
localparam D_ACK = 248;
localparam D_TSV = 280;
localparam D_TSE = 312;
localparam D_WS = 344;
localparam DESC_W = 349;
// legal TCP header offsets: l3 (14 or 18) + 4*IHL (20..60) = 34..78 in steps of 4
// (index k = (l4 - 34) / 4 = 0..11); the TCP header lies within window bytes 34..137
localparam L4_MIN = 34;
localparam L4_SPAN = 104;
// offset selects carried down the pipeline: one-hot l3 (2 bits, zero when the frame is
// passed unchanged) and the 4-bit l4 index k
localparam SEL_W = 2 + 4;
localparam RING_W = DESC_W + 16 + 640 + SEL_W;

localparam F_MAC = 0, F_IP = 1, F_PORT = 2, F_SEQ = 3, F_ACK = 4, F_SACK = 5, F_TS = 6,
           F_WS = 7;

initial begin
    if (KEEP_WIDTH * 8 != DATA_WIDTH || DATA_WIDTH < 64) begin
        $error("Error: DATA_WIDTH must be a multiple of 8, >= 64, KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (MAX_HDR_BYTES < 138 || WB > 1023) begin
        $error("Error: MAX_HDR_BYTES must be >= 138 and the window < 1024 bytes (instance %m)");
        $finish;
    end
    if (OPT_STEP < 1 || OPT_STEP > 40) begin
        $error("Error: OPT_STEP must be 1..40 (instance %m)");
        $finish;
    end
end

function [31:0] bswap32(input [31:0] v);
    bswap32 = {v[7:0], v[15:8], v[23:16], v[31:24]};
endfunction

function [15:0] bswap16(input [15:0] v);
    bswap16 = {v[7:0], v[15:8]};
endfunction

wire [DESC_W-1:0] desc_bus = {desc_wscale_shift, desc_tsecr_delta, desc_tsval_delta,
    desc_ack_delta, desc_seq_delta, desc_tcp_dport, desc_tcp_sport, desc_ip_dst, desc_ip_src,
    desc_eth_src, desc_eth_dst, desc_doff, desc_ihl, desc_l3_offset, desc_flags};

// ---------------------------------------------------------------------------------------
// control state
reg [15:0]       cnt_reg = 16'd0;
reg              in_first_reg = 1'b1;
reg [IDX_W-1:0]  cap_idx_reg = {IDX_W{1'b0}};
reg [DF_AW:0]    df_wr_reg = {(DF_AW+1){1'b0}};
reg [DF_AW:0]    df_rd_reg = {(DF_AW+1){1'b0}};
reg [RF_AW:0]    res_wr_reg = {(RF_AW+1){1'b0}};
reg [RF_AW:0]    res_rd_reg = {(RF_AW+1){1'b0}};
reg [RF_AW:0]    inflight_reg = {(RF_AW+1){1'b0}};
reg [IDX_W-1:0]  ob_idx_reg = {IDX_W{1'b0}};
reg              m_axis_tvalid_reg = 1'b0;
reg              p0_valid_reg = 1'b0;
reg [NS:0]       wk_valid_reg = {(NS+1){1'b0}};
reg              e1_valid_reg = 1'b0;
reg              e2_valid_reg = 1'b0;
reg              e3_valid_reg = 1'b0;
reg [RING_AW-1:0] ring_wp_reg = {RING_AW{1'b0}};
reg [31:0]       stat_frames_reg = 32'd0;
reg [31:0]       stat_bypass_reg = 32'd0;
reg [31:0]       stat_opt_err_reg = 32'd0;

// datapath state
reg [WW-1:0]     cap_w_reg;
reg [DESC_W-1:0] cap_desc_reg;
reg [15:0]       cap_ts_reg;
// launch beat: its index, tkeep count, tlast (the captured length is formed in P1)
reg [IDX_W-1:0]  p0_idx_reg;
reg [KC_W-1:0]   p0_kcnt_reg;
reg              p0_klast_reg;

reg [DF_W-1:0]   df_mem [0:DF-1];
reg [WW-1:0]     res_w_mem [0:RF-1];
reg [15:0]       res_ts_mem [0:RF-1];
reg [RING_W-1:0] ring_mem [0:(1<<RING_AW)-1];
reg [RING_W-1:0] ring_rd_reg;
reg [WW-1:0]     ringw_mem [0:(1<<RING_AW)-1];
reg [WW-1:0]     ringw_rd_reg;

reg [DATA_WIDTH-1:0] m_axis_tdata_reg;
reg [KEEP_WIDTH-1:0] m_axis_tkeep_reg;
reg                  m_axis_tlast_reg;
reg [USER_WIDTH-1:0] m_axis_tuser_reg;

// ---------------------------------------------------------------------------------------
// input: descriptor handshake, data FIFO, header capture
wire [DF_AW:0] df_level = df_wr_reg - df_rd_reg;
wire df_full = df_level == DF[DF_AW:0];
wire res_room = inflight_reg < RF[RF_AW:0];

assign s_axis_tready = !df_full && (!in_first_reg || (desc_valid && res_room));
assign desc_ready = in_first_reg && s_axis_tvalid && !df_full && res_room;

wire in_acc = s_axis_tvalid && s_axis_tready;
wire [IDX_W-1:0] in_idx = in_first_reg ? {IDX_W{1'b0}} : cap_idx_reg;
wire cap_here = in_idx < HDR_BEATS[IDX_W-1:0];
wire launch = in_acc && cap_here && (in_idx == HDR_BEATS[IDX_W-1:0] - 1'b1 || s_axis_tlast);

reg [KC_W-1:0] in_bytes;
integer k;

always @* begin
    in_bytes = {KC_W{1'b0}};
    for (k = 0; k < KEEP_WIDTH; k = k + 1) begin
        in_bytes = in_bytes + {{(KC_W-1){1'b0}}, s_axis_tkeep[k]};
    end
end

always @(posedge clk) begin
    cnt_reg <= cnt_reg + 16'd1;
    if (in_acc) begin
        df_mem[df_wr_reg[DF_AW-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        df_wr_reg <= df_wr_reg + 1'b1;
        // one enable per beat position instead of a variable part-select
        for (k = 0; k < HDR_BEATS; k = k + 1) begin
            if (in_idx == k[IDX_W-1:0]) begin
                cap_w_reg[k*DATA_WIDTH +: DATA_WIDTH] <= s_axis_tdata;
            end
        end
        if (in_first_reg) begin
            cap_desc_reg <= desc_bus;
            cap_ts_reg <= cnt_reg;
        end
        in_first_reg <= s_axis_tlast;
        if (s_axis_tlast) begin
            cap_idx_reg <= {IDX_W{1'b0}};
        end else if (cap_here) begin
            cap_idx_reg <= in_idx + 1'b1;
        end
    end

    p0_valid_reg <= launch;
    p0_idx_reg <= in_idx;
    p0_kcnt_reg <= in_bytes;
    p0_klast_reg <= s_axis_tlast;

    if (rst) begin
        cnt_reg <= 16'd0;
        in_first_reg <= 1'b1;
        cap_idx_reg <= {IDX_W{1'b0}};
        df_wr_reg <= {(DF_AW+1){1'b0}};
        p0_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// P1 (the cycle after launch): the capture registers hold the frame's complete header
// window, descriptor and timestamp until its next frame's first beat is taken, which
// writes them at the end of this cycle at the earliest; so P1 reads them directly.
wire [WW-1:0]     p0_w = cap_w_reg;
wire [DESC_W-1:0] p0_desc = cap_desc_reg;
wire [15:0]       p0_ts = cap_ts_reg;

// header checks. The IPv4 header is aligned with a one-hot select (l3 14 or 18), the
// TCP header with a 4-level shifter in 4-byte steps over the legal offsets (l4 = l3 + 4*IHL
// = 34..78), never with a byte-granular variable shift over the window. The options enter
// the walk; the window and the aligned headers wait in rings for the walk's end.
wire [7:0] p0_l3 = p0_desc[D_L3 +: 8];
wire [3:0] p0_ihl = p0_desc[D_IHL +: 4];
wire [3:0] p0_doff = p0_desc[D_DOFF +: 4];
wire [9:0] p0_l4off = {2'd0, p0_l3} + {4'd0, p0_ihl, 2'b00};
// captured bytes: full beats before the launch beat, which counts its tkeep bits if last
wire [CL_W-1:0] p0_kcnt;
wire [CL_W-1:0] p0_caplen_n = p0_idx_reg * KEEP_WIDTH[CL_W-1:0] +
                              (p0_klast_reg ? p0_kcnt : KEEP_WIDTH[CL_W-1:0]);
wire [9:0] p0_caplen;
generate
if (CL_W > KC_W) begin : g_kcnt
    assign p0_kcnt = {{(CL_W-KC_W){1'b0}}, p0_kcnt_reg};
end else begin : g_kcnt0
    assign p0_kcnt = p0_kcnt_reg;
end
if (CL_W < 10) begin : g_caplen
    assign p0_caplen = {{(10-CL_W){1'b0}}, p0_caplen_n};
end else begin : g_caplen10
    assign p0_caplen = p0_caplen_n;
end
endgenerate
wire [9:0] p0_hdr_end = p0_l4off + {4'd0, p0_doff, 2'b00};
wire p0_ok = (p0_l3 == 8'd14 || p0_l3 == 8'd18) && p0_ihl >= 4'd5 && p0_doff >= 4'd5 &&
             p0_hdr_end <= p0_caplen;

// offset selects: one-hot l3 (zero for a frame that is passed unchanged), l4 index
reg [1:0]            p0_sel3;
reg [159:0]          p0_i;
/* verilator lint_off UNUSEDSIGNAL */
wire [9:0]           p0_k10 = p0_l4off - L4_MIN[9:0];
/* verilator lint_on UNUSEDSIGNAL */
wire [3:0]           p0_k = p0_k10[5:2];
reg [8*L4_SPAN-1:0]  p0_sh;
wire [479:0]         p0_t = p0_sh[479:0];

always @* begin
    p0_sel3[0] = p0_ok && p0_l3 == 8'd14;
    p0_sel3[1] = p0_ok && p0_l3 == 8'd18;
    p0_i = ({160{p0_sel3[0]}} & p0_w[8*14 +: 160]) |
           ({160{p0_sel3[1]}} & p0_w[8*18 +: 160]);
    // window bytes 34..137 shifted down by 4*k bytes (only meaningful when p0_ok)
    p0_sh = p0_w[8*L4_MIN +: 8*L4_SPAN];
    if (p0_k[0]) begin
        p0_sh = {32'd0, p0_sh[8*L4_SPAN-1:32]};
    end
    if (p0_k[1]) begin
        p0_sh = {64'd0, p0_sh[8*L4_SPAN-1:64]};
    end
    if (p0_k[2]) begin
        p0_sh = {128'd0, p0_sh[8*L4_SPAN-1:128]};
    end
    if (p0_k[3]) begin
        p0_sh = {256'd0, p0_sh[8*L4_SPAN-1:256]};
    end
end

// walk pipeline: stage s holds option bytes, option length, next option start, done,
// error, and the tags found so far (field starts in the option area)
// (the walk's last stage needs no option bytes: E1 takes them from the ring)
/* verilator lint_off UNUSEDSIGNAL */
reg [320*(NS+1)-1:0] wk_o_reg;
/* verilator lint_on UNUSEDSIGNAL */
reg [320*NS-1:0]     wk_o_next;
// (the last stage's length, pointer and done flag are not needed after the walk)
/* verilator lint_off UNUSEDSIGNAL */
reg [4*(NS+1)-1:0]   wk_optw_reg;
reg [6*(NS+1)-1:0]   wk_ptr_reg;
reg [NS:0]           wk_done_reg;
/* verilator lint_on UNUSEDSIGNAL */
reg [NS:0]           wk_err_reg;
reg [NS:0]           wk_ok_reg;
reg [40*(NS+1)-1:0]  wk_edge_reg;
reg [40*(NS+1)-1:0]  wk_tsv_reg;
reg [40*(NS+1)-1:0]  wk_tse_reg;

wire [6*NS-1:0]  wk_ptr_next;
wire [NS-1:0]    wk_done_next;
wire [NS-1:0]    wk_err_next;
wire [40*NS-1:0] wk_edge_next;
wire [40*NS-1:0] wk_tsv_next;
wire [40*NS-1:0] wk_tse_next;

// Walk stage s examines option bytes s*OPT_STEP .. s*OPT_STEP+OPT_STEP-1. Every position has
// its own decoder (constant position, so no variable indexing); the pointer is handed from
// position to position, an option is acted upon only where the pointer stands.
integer os, ob8;


always @* begin
    for (os = 0; os < NS; os = os + 1) begin
        for (ob8 = 0; ob8 < 40; ob8 = ob8 + 1) begin
            wk_o_next[320*os + 8*ob8 +: 8] = (ob8 >= (os + 1) * OPT_STEP) ?
                                             wk_o_reg[320*os + 8*ob8 +: 8] : 8'd0;
        end
    end
end

genvar gs, gq;
generate
for (gs = 0; gs < NS; gs = gs + 1) begin : g_walk
    // (a stage reads only the option bytes of its own positions)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [319:0]              o = wk_o_reg[320*gs +: 320];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [5:0]                optlen = {wk_optw_reg[4*gs +: 4], 2'b00};
    // position-to-position chains (split_var: Verilator schedules each bit on its own)
    wire [6*(OPT_STEP+1)-1:0] ptr_c /* verilator split_var */;
    wire [OPT_STEP:0]         done_c /* verilator split_var */;
    wire [OPT_STEP:0]         err_c /* verilator split_var */;
    // per position: a valid SACK / TS option starts here, and its length
    wire [OPT_STEP-1:0]       hs;
    wire [OPT_STEP-1:0]       ht;
    wire [8*OPT_STEP-1:0]     ln;
    // (bits no position can set yet are not used: see below)
    /* verilator lint_off UNUSEDSIGNAL */
    reg  [39:0]               edge_n;
    reg  [39:0]               tsv_n;
    reg  [39:0]               tse_n;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [7:0]                rel;
    integer j, q;

    assign ptr_c[5:0] = wk_ptr_reg[6*gs +: 6];
    assign done_c[0] = wk_done_reg[gs];
    assign err_c[0] = wk_err_reg[gs];

    for (gq = 0; gq < OPT_STEP; gq = gq + 1) begin : g_pos
        localparam integer P = gs * OPT_STEP + gq;
        if (P < 40) begin : g_on
            localparam [5:0] P6 = P[5:0];
            localparam [8:0] P9 = P[8:0];
            wire [7:0] kind = o[8*P +: 8];
            wire [7:0] len;
            wire [5:0] pin = ptr_c[6*gq +: 6];
            wire [8:0] pend = P9 + {1'b0, len};
            wire at = !done_c[gq] && pin == P6;
            wire stop = P6 >= optlen || kind == 8'd0;
            wire nop = kind == 8'd1;
            wire bad = len < 8'd2 || pend > {3'd0, optlen};
            wire go = at && !stop && !nop && !bad;
            if (P < 39) begin : g_len
                assign len = o[8*(P+1) +: 8];
            end else begin : g_len0
                assign len = 8'd0;
            end
            assign ptr_c[6*(gq+1) +: 6] = go ? pend[5:0] : (at && !stop && nop) ? pin + 6'd1 : pin;
            assign done_c[gq+1] = done_c[gq] || (at && (stop || (!nop && bad)));
            assign err_c[gq+1] = err_c[gq] || (at && !stop && !nop && bad);
            assign hs[gq] = go && kind == 8'd5 &&
                            (len == 8'd10 || len == 8'd18 || len == 8'd26 || len == 8'd34);
            assign ht[gq] = go && kind == 8'd8 && len == 8'd10 && (P + 6 < 40);
            assign ln[8*gq +: 8] = len;
        end else begin : g_off
            assign ptr_c[6*(gq+1) +: 6] = ptr_c[6*gq +: 6];
            assign done_c[gq+1] = done_c[gq];
            assign err_c[gq+1] = err_c[gq];
            assign hs[gq] = 1'b0;
            assign ht[gq] = 1'b0;
            assign ln[8*gq +: 8] = 8'd0;
        end
    end

    // field starts: SACK edges at 2 + 4b bytes into the option (below its length), TSval
    // at 2, TSecr at 6
    always @* begin
        edge_n = wk_edge_reg[40*gs +: 40];
        tsv_n = wk_tsv_reg[40*gs +: 40];
        tse_n = wk_tse_reg[40*gs +: 40];
        for (q = 0; q < OPT_STEP; q = q + 1) begin
            for (j = 0; j < 40; j = j + 1) begin
                rel = j[7:0] - gs[7:0] * OPT_STEP[7:0] - q[7:0];
                if (j >= gs * OPT_STEP + q + 2 && (j - gs * OPT_STEP - q - 2) % 4 == 0) begin
                    if (hs[q] && rel < ln[8*q +: 8]) begin
                        edge_n[j] = 1'b1;
                    end
                end
                if (j == gs * OPT_STEP + q + 2 && ht[q]) begin
                    tsv_n[j] = 1'b1;
                end
                if (j == gs * OPT_STEP + q + 6 && ht[q]) begin
                    tse_n[j] = 1'b1;
                end
            end
        end
    end

    // Option bytes at which a field can start once this stage is done (positions 0..L-1
    // walked): a SACK edge 2 + 4b bytes into an option (b < 8), TSval 2 and TSecr 6 into
    // one. Bits no position can set yet are tied to constant zero at the next register's
    // input (not masked by logic): synthesis then removes them all in its first word-level
    // round instead of one pipeline stage per optimisation round.
    localparam integer L = ((gs + 1) * OPT_STEP < 40) ? (gs + 1) * OPT_STEP : 40;
    genvar gm;
    for (gm = 0; gm < 40; gm = gm + 1) begin : g_mask
        // latest walked position pp <= gm - 2 with pp = gm - 2 (mod 4); needs pp >= gm - 30
        localparam integer HI = (gm - 2 < L - 1) ? gm - 2 : L - 1;
        localparam integer PP = HI - ((4 - ((gm - 2 - HI) % 4)) % 4);
        localparam integer EM = (gm >= 2 && PP >= 0 && PP >= gm - 30) ? 1 : 0;
        localparam integer VM = (gm >= 2 && gm <= L + 1 && gm <= 35) ? 1 : 0;
        localparam integer SM = (gm >= 6 && gm <= L + 5) ? 1 : 0;
        if (EM != 0) begin : g_em
            assign wk_edge_next[40*gs + gm] = edge_n[gm];
        end else begin : g_em0
            assign wk_edge_next[40*gs + gm] = 1'b0;
        end
        if (VM != 0) begin : g_vm
            assign wk_tsv_next[40*gs + gm] = tsv_n[gm];
        end else begin : g_vm0
            assign wk_tsv_next[40*gs + gm] = 1'b0;
        end
        if (SM != 0) begin : g_sm
            assign wk_tse_next[40*gs + gm] = tse_n[gm];
        end else begin : g_sm0
            assign wk_tse_next[40*gs + gm] = 1'b0;
        end
    end

    assign wk_ptr_next[6*gs +: 6] = ptr_c[6*OPT_STEP +: 6];
    assign wk_done_next[gs] = done_c[OPT_STEP];
    assign wk_err_next[gs] = err_c[OPT_STEP];
end
endgenerate

always @(posedge clk) begin
    // stage 0 from P1
    wk_valid_reg[0] <= p0_valid_reg;
    wk_o_reg[0 +: 320] <= p0_t[160 +: 320];
    wk_optw_reg[0 +: 4] <= p0_doff - 4'd5;
    wk_ptr_reg[0 +: 6] <= 6'd0;
    wk_done_reg[0] <= !p0_ok;
    wk_err_reg[0] <= 1'b0;
    wk_ok_reg[0] <= p0_ok;
    wk_edge_reg[0 +: 40] <= 40'd0;
    wk_tsv_reg[0 +: 40] <= 40'd0;
    wk_tse_reg[0 +: 40] <= 40'd0;
    // walk stages
    wk_valid_reg[NS:1] <= wk_valid_reg[NS-1:0];
    wk_o_reg[320*(NS+1)-1:320] <= wk_o_next;
    wk_optw_reg[4*(NS+1)-1:4] <= wk_optw_reg[4*NS-1:0];
    wk_ok_reg[NS:1] <= wk_ok_reg[NS-1:0];
    wk_ptr_reg[6*(NS+1)-1:6] <= wk_ptr_next;
    wk_done_reg[NS:1] <= wk_done_next;
    wk_err_reg[NS:1] <= wk_err_next;
    wk_edge_reg[40*(NS+1)-1:40] <= wk_edge_next;
    wk_tsv_reg[40*(NS+1)-1:40] <= wk_tsv_next;
    wk_tse_reg[40*(NS+1)-1:40] <= wk_tse_next;

    // ring: written every cycle, read NS cycles later so it lines up with the walk's end
    ring_mem[ring_wp_reg] <= {p0_k, p0_sel3, p0_t, p0_i, p0_ts, p0_desc};
    ring_wp_reg <= ring_wp_reg + 1'b1;
    ring_rd_reg <= ring_mem[ring_wp_reg - NS[RING_AW-1:0]];
    // the window itself is only needed at E4: read NS + 3 cycles later
    ringw_mem[ring_wp_reg] <= p0_w;
    ringw_rd_reg <= ringw_mem[ring_wp_reg - RW_DLY[RING_AW-1:0]];

    if (rst) begin
        wk_valid_reg <= {(NS+1){1'b0}};
        ring_wp_reg <= {RING_AW{1'b0}};
    end
end

// ---------------------------------------------------------------------------------------
// E1: the aligned TCP and IPv4 headers from the ring, the walk results from the walk
wire [DESC_W-1:0] r_desc = ring_rd_reg[0 +: DESC_W];
wire [15:0]       r_ts = ring_rd_reg[DESC_W +: 16];
wire [159:0]      r_i = ring_rd_reg[DESC_W + 16 +: 160];
wire [479:0]      r_t = ring_rd_reg[DESC_W + 176 +: 480];
wire [SEL_W-1:0]  r_sel = ring_rd_reg[DESC_W + 656 +: SEL_W];
// the window at E4 (see the ring)
wire [WW-1:0]     e3_w = ringw_rd_reg;

reg [DESC_W-1:0] e1_desc_reg, e2_desc_reg;
reg [96:0]       e3_mac_reg;
reg [SEL_W-1:0]  e1_sel_reg, e2_sel_reg, e3_sel_reg;
reg [15:0]       e1_ts_reg, e2_ts_reg, e3_ts_reg;
reg              e1_ok_reg, e2_ok_reg, e3_ok_reg;
reg              e1_err_reg, e2_err_reg, e3_err_reg;
reg [479:0]      e1_t_reg, e2_t_reg;
reg [271:0]      e3_th_reg;
reg [159:0]      e1_i_reg, e2_i_reg;
reg [39:0]       e1_edge_reg, e1_tsv_reg, e1_tse_reg;
reg [479:0]      e2_tn_reg;
// (its checksum word is replaced by the E4 result)
/* verilator lint_off UNUSEDSIGNAL */
reg [479:0]      e3_tn_reg;
/* verilator lint_on UNUSEDSIGNAL */
reg [159:0]      e2_in_reg, e3_in_reg;
reg [15:0]       e3_tcsum_reg;

always @(posedge clk) begin
    e1_valid_reg <= wk_valid_reg[NS];
    e1_desc_reg <= r_desc;
    e1_sel_reg <= r_sel;
    e1_ts_reg <= r_ts;
    e1_ok_reg <= wk_ok_reg[NS];
    e1_err_reg <= wk_err_reg[NS];
    e1_t_reg <= r_t;
    e1_i_reg <= r_i;
    e1_edge_reg <= wk_edge_reg[40*NS +: 40];
    e1_tsv_reg <= wk_tsv_reg[40*NS +: 40];
    e1_tse_reg <= wk_tse_reg[40*NS +: 40];
    if (rst) begin
        e1_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// E2: new field values
wire [7:0] e1_flags = e1_desc_reg[D_FLAGS +: 8];
wire e1_ackf = e1_t_reg[8*13 + 4];
wire e1_synf = e1_t_reg[8*13 + 1];
reg [479:0] tn;
reg [159:0] in_n;
reg [31:0]  fd;
reg         fsel;
reg [31:0]  wide_win;
reg [15:0]  win;
reg [4:0]   ws;
reg [4:0]   ws_neg;
integer f;

always @* begin
    tn = e1_t_reg;
    in_n = e1_i_reg;
    if (e1_flags[F_IP]) begin
        in_n[8*12 +: 32] = bswap32(e1_desc_reg[D_IPS +: 32]);
        in_n[8*16 +: 32] = bswap32(e1_desc_reg[D_IPD +: 32]);
    end
    if (e1_flags[F_PORT]) begin
        tn[0 +: 16] = bswap16(e1_desc_reg[D_SP +: 16]);
        tn[16 +: 16] = bswap16(e1_desc_reg[D_DP +: 16]);
    end
    if (e1_flags[F_SEQ]) begin
        tn[32 +: 32] = bswap32(bswap32(e1_t_reg[32 +: 32]) + e1_desc_reg[D_SEQ +: 32]);
    end
    if (e1_flags[F_ACK] && e1_ackf) begin
        tn[64 +: 32] = bswap32(bswap32(e1_t_reg[64 +: 32]) + e1_desc_reg[D_ACK +: 32]);
    end
    win = bswap16(e1_t_reg[8*14 +: 16]);
    ws = e1_desc_reg[D_WS +: 5];
    ws_neg = ~ws + 5'd1;
    if (ws[4]) begin
        wide_win = {16'd0, win} >> ws_neg;
    end else begin
        wide_win = {16'd0, win} << ws;
    end
    if (e1_flags[F_WS] && !e1_synf) begin
        tn[8*14 +: 16] = bswap16((wide_win[31:16] != 16'd0) ? 16'hffff : wide_win[15:0]);
    end
    // option fields: at most one field starts at each option byte
    for (f = 0; f < 37; f = f + 1) begin
        fsel = 1'b1;
        fd = 32'd0;
        if (e1_edge_reg[f] && e1_flags[F_SACK]) begin
            fd = e1_desc_reg[D_ACK +: 32];
        end else if (e1_tsv_reg[f] && e1_flags[F_TS]) begin
            fd = e1_desc_reg[D_TSV +: 32];
        end else if (e1_tse_reg[f] && e1_flags[F_TS] && e1_ackf) begin
            fd = e1_desc_reg[D_TSE +: 32];
        end else begin
            fsel = 1'b0;
        end
        if (fsel) begin
            tn[8*(20+f) +: 32] = bswap32(bswap32(e1_t_reg[8*(20+f) +: 32]) + fd);
        end
    end
end

always @(posedge clk) begin
    e2_valid_reg <= e1_valid_reg;
    e2_desc_reg <= e1_desc_reg;
    e2_sel_reg <= e1_sel_reg;
    e2_ts_reg <= e1_ts_reg;
    e2_ok_reg <= e1_ok_reg;
    e2_err_reg <= e1_err_reg;
    e2_t_reg <= e1_t_reg;
    e2_i_reg <= e1_i_reg;
    e2_tn_reg <= tn;
    e2_in_reg <= in_n;
    if (rst) begin
        e2_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// E3: IPv4 checksum; TCP checksum over the pseudo-header addresses and TCP words 0..12
// (word 8, the checksum itself, is unchanged and so neutral)
/* verilator lint_off UNUSEDSIGNAL */
function [16*4-1:0] ip_addr_words(input [159:0] ih);
    ip_addr_words = {bswap16(ih[8*18 +: 16]), bswap16(ih[8*16 +: 16]),
                     bswap16(ih[8*14 +: 16]), bswap16(ih[8*12 +: 16])};
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// TCP header words in host order: 0..12 at E3, 13..29 at E4
wire [16*13-1:0] e2_tw_old;
wire [16*13-1:0] e2_tw_new;
wire [16*17-1:0] e3_tw_old;
wire [16*17-1:0] e3_tw_new;
genvar gw;
generate
for (gw = 0; gw < 13; gw = gw + 1) begin : g_tw_lo
    assign e2_tw_old[16*gw +: 16] = bswap16(e2_t_reg[16*gw +: 16]);
    assign e2_tw_new[16*gw +: 16] = bswap16(e2_tn_reg[16*gw +: 16]);
end
for (gw = 0; gw < 17; gw = gw + 1) begin : g_tw_hi
    assign e3_tw_old[16*gw +: 16] = bswap16(e3_th_reg[16*gw +: 16]);
    assign e3_tw_new[16*gw +: 16] = bswap16(e3_tn_reg[16*(13+gw) +: 16]);
end
endgenerate

wire [15:0] ip_csum_new;
wire [15:0] tcp_csum_a;
wire [15:0] tcp_csum_b;

splice_csum_update #(.WORDS(4)) ip_csum_inst (
    .csum_in(bswap16(e2_i_reg[8*10 +: 16])),
    .old_words(ip_addr_words(e2_i_reg)),
    .new_words(ip_addr_words(e2_in_reg)),
    .csum_out(ip_csum_new)
);

splice_csum_update #(.WORDS(17)) tcp_csum_a_inst (
    .csum_in(bswap16(e2_t_reg[8*16 +: 16])),
    .old_words({e2_tw_old, ip_addr_words(e2_i_reg)}),
    .new_words({e2_tw_new, ip_addr_words(e2_in_reg)}),
    .csum_out(tcp_csum_a)
);

// new MAC addresses in window byte order, with the enable
wire [95:0] e2_mac_new = {e2_desc_reg[D_ESRC +: 48], e2_desc_reg[D_EDST +: 48]};
reg  [95:0] e2_mac_bytes;
integer m;

always @* begin
    for (m = 0; m < 6; m = m + 1) begin
        e2_mac_bytes[8*m +: 8] = e2_mac_new[40 - 8*m +: 8];
        e2_mac_bytes[8*(6+m) +: 8] = e2_mac_new[48 + 40 - 8*m +: 8];
    end
end

always @(posedge clk) begin
    e3_valid_reg <= e2_valid_reg;
    e3_mac_reg <= {e2_ok_reg && e2_desc_reg[D_FLAGS + F_MAC], e2_mac_bytes};
    e3_sel_reg <= e2_sel_reg;
    e3_ts_reg <= e2_ts_reg;
    e3_ok_reg <= e2_ok_reg;
    e3_err_reg <= e2_err_reg;
    e3_th_reg <= e2_t_reg[479:208];
    e3_tn_reg <= e2_tn_reg;
    e3_in_reg <= {e2_in_reg[159:96], bswap16(ip_csum_new), e2_in_reg[79:0]};
    e3_tcsum_reg <= tcp_csum_a;
    if (rst) begin
        e3_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// E4: TCP words 13..29, write-back into the window, into the result FIFO
splice_csum_update #(.WORDS(17)) tcp_csum_b_inst (
    .csum_in(e3_tcsum_reg),
    .old_words(e3_tw_old),
    .new_words(e3_tw_new),
    .csum_out(tcp_csum_b)
);

wire [479:0] tn_final = {e3_tn_reg[479:144], bswap16(tcp_csum_b), e3_tn_reg[127:0]};
wire [1:0]     e3_sel3 = e3_sel_reg[1:0];
wire [3:0]     e3_k = e3_sel_reg[2 +: 4];
wire [WW-1:0]  wn;

// The new TCP header and its byte-enable, shifted up by 4*k bytes into window bytes
// 34..137 (the inverse of the P1 shifter); enables are zero for a frame passed unchanged.
reg [8*L4_SPAN-1:0] t_sh;
reg [L4_SPAN-1:0]   t_en;

always @* begin
    t_sh = {{(8*L4_SPAN-480){1'b0}}, tn_final};
    t_en = {{(L4_SPAN-60){1'b0}}, {60{|e3_sel3}}};
    if (e3_k[0]) begin
        t_sh = {t_sh[8*L4_SPAN-33:0], 32'd0};
        t_en = {t_en[L4_SPAN-5:0], 4'd0};
    end
    if (e3_k[1]) begin
        t_sh = {t_sh[8*L4_SPAN-65:0], 64'd0};
        t_en = {t_en[L4_SPAN-9:0], 8'd0};
    end
    if (e3_k[2]) begin
        t_sh = {t_sh[8*L4_SPAN-129:0], 128'd0};
        t_en = {t_en[L4_SPAN-17:0], 16'd0};
    end
    if (e3_k[3]) begin
        t_sh = {t_sh[8*L4_SPAN-257:0], 256'd0};
        t_en = {t_en[L4_SPAN-33:0], 32'd0};
    end
end

// Write-back per window byte: MAC, else the shifted TCP byte where enabled, else the IPv4
// byte from the one-hot l3 select, else the window byte as it was.
genvar gj;
generate
for (gj = 0; gj < WB; gj = gj + 1) begin : g_wb
    if (gj < 12) begin : g_mac
        assign wn[8*gj +: 8] = e3_mac_reg[96] ? e3_mac_reg[8*gj +: 8] : e3_w[8*gj +: 8];
    end else if (gj < 14 || gj >= L4_MIN + L4_SPAN) begin : g_keep
        assign wn[8*gj +: 8] = e3_w[8*gj +: 8];
    end else begin : g_hdr
        wire [7:0] ib;
        wire       ih;
        wire [7:0] tb;
        wire       th;
        if (gj >= 14 && gj < 34) begin : g_ip14
            wire [7:0] b14 = e3_in_reg[8*(gj - 14) +: 8];
            if (gj >= 18) begin : g_ip18
                assign ih = |e3_sel3;
                assign ib = e3_sel3[0] ? b14 : e3_in_reg[8*(gj - 18) +: 8];
            end else begin : g_ip14o
                assign ih = e3_sel3[0];
                assign ib = b14;
            end
        end else if (gj >= 34 && gj < 38) begin : g_ip18o
            assign ih = e3_sel3[1];
            assign ib = e3_in_reg[8*(gj - 18) +: 8];
        end else begin : g_noip
            assign ih = 1'b0;
            assign ib = 8'd0;
        end
        if (gj >= L4_MIN) begin : g_tcp
            assign th = t_en[gj - L4_MIN];
            assign tb = t_sh[8*(gj - L4_MIN) +: 8];
        end else begin : g_notcp
            assign th = 1'b0;
            assign tb = 8'd0;
        end
        assign wn[8*gj +: 8] = th ? tb : ih ? ib : e3_w[8*gj +: 8];
    end
end
endgenerate

always @(posedge clk) begin
    if (e3_valid_reg) begin
        res_w_mem[res_wr_reg[RF_AW-1:0]] <= wn;
        res_ts_mem[res_wr_reg[RF_AW-1:0]] <= e3_ts_reg;
        res_wr_reg <= res_wr_reg + 1'b1;
        stat_frames_reg <= stat_frames_reg + 32'd1;
        if (!e3_ok_reg) begin
            stat_bypass_reg <= stat_bypass_reg + 32'd1;
        end
        if (e3_err_reg) begin
            stat_opt_err_reg <= stat_opt_err_reg + 32'd1;
        end
    end
    if (rst) begin
        res_wr_reg <= {(RF_AW+1){1'b0}};
        stat_frames_reg <= 32'd0;
        stat_bypass_reg <= 32'd0;
        stat_opt_err_reg <= 32'd0;
    end
end

// ---------------------------------------------------------------------------------------
// output: a frame's first beat leaves when its result is ready and LATENCY has elapsed
wire [DF_W-1:0] df_head = df_mem[df_rd_reg[DF_AW-1:0]];
wire df_empty = df_wr_reg == df_rd_reg;
wire res_empty = res_wr_reg == res_rd_reg;
wire [WW-1:0] res_head = res_w_mem[res_rd_reg[RF_AW-1:0]];
// the window beat for ob_idx_reg, one select per beat position
reg [DATA_WIDTH-1:0] res_beat;
integer ob;

always @* begin
    res_beat = {DATA_WIDTH{1'b0}};
    for (ob = 0; ob < HDR_BEATS; ob = ob + 1) begin
        if (ob_idx_reg == ob[IDX_W-1:0]) begin
            res_beat = res_head[ob*DATA_WIDTH +: DATA_WIDTH];
        end
    end
end
wire [15:0] res_age = cnt_reg - res_ts_mem[res_rd_reg[RF_AW-1:0]];
wire out_first = ob_idx_reg == {IDX_W{1'b0}};
wire out_free = !m_axis_tvalid_reg || m_axis_tready;
wire pop = out_free && !df_empty &&
           (!out_first || (!res_empty && res_age >= RELEASE[15:0]));
wire head_last = df_head[DATA_WIDTH + KEEP_WIDTH];
wire in_first_acc = in_acc && in_first_reg;
wire out_done = pop && head_last;

always @(posedge clk) begin
    if (out_free) begin
        m_axis_tvalid_reg <= pop;
    end
    if (pop) begin
        m_axis_tdata_reg <= (ob_idx_reg < HDR_BEATS[IDX_W-1:0]) ?
                            res_beat :
                            df_head[DATA_WIDTH-1:0];
        m_axis_tkeep_reg <= df_head[DATA_WIDTH +: KEEP_WIDTH];
        m_axis_tlast_reg <= head_last;
        m_axis_tuser_reg <= df_head[DATA_WIDTH + KEEP_WIDTH + 1 +: USER_WIDTH];
        df_rd_reg <= df_rd_reg + 1'b1;
        if (head_last) begin
            ob_idx_reg <= {IDX_W{1'b0}};
            res_rd_reg <= res_rd_reg + 1'b1;
        end else if (ob_idx_reg < HDR_BEATS[IDX_W-1:0]) begin
            ob_idx_reg <= ob_idx_reg + 1'b1;
        end
    end
    if (in_first_acc && !out_done) begin
        inflight_reg <= inflight_reg + 1'b1;
    end else if (!in_first_acc && out_done) begin
        inflight_reg <= inflight_reg - 1'b1;
    end
    if (rst) begin
        m_axis_tvalid_reg <= 1'b0;
        df_rd_reg <= {(DF_AW+1){1'b0}};
        ob_idx_reg <= {IDX_W{1'b0}};
        res_rd_reg <= {(RF_AW+1){1'b0}};
        inflight_reg <= {(RF_AW+1){1'b0}};
    end
end

assign m_axis_tdata = m_axis_tdata_reg;
assign m_axis_tkeep = m_axis_tkeep_reg;
assign m_axis_tvalid = m_axis_tvalid_reg;
assign m_axis_tlast = m_axis_tlast_reg;
assign m_axis_tuser = m_axis_tuser_reg;

assign stat_frames = stat_frames_reg;
assign stat_bypass = stat_bypass_reg;
assign stat_opt_err = stat_opt_err_reg;
assign cfg_latency = LATENCY[15:0];

endmodule

`resetall
