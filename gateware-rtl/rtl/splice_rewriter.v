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
 * equation 3 (the arithmetic of splice_csum_update) over the words that may change: the
 * IPv4 addresses (also in the TCP pseudo-header) and the TCP header words (fixed part and
 * options). The payload is never read for the checksum.
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
 * Simulation-friendly form: every pipeline stage loads its data registers only when it takes
 * a frame (the stage's valid bit), through functions evaluated under that enable, so that a
 * Verilated model does next to no work while the rewriter is idle; a stage that holds no
 * frame keeps stale data nothing reads.
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

// bytes in a beat: its tkeep bits
function [KC_W-1:0] keep_count(input [KEEP_WIDTH-1:0] kp);
    integer i;
    begin
        keep_count = {KC_W{1'b0}};
        for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
            keep_count = keep_count + {{(KC_W-1){1'b0}}, kp[i]};
        end
    end
endfunction

integer k;

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
    if (launch) begin
        p0_idx_reg <= in_idx;
        p0_kcnt_reg <= keep_count(s_axis_tkeep);
        p0_klast_reg <= s_axis_tlast;
    end

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
wire [1:0]           p0_sel3 = {p0_ok && p0_l3 == 8'd18, p0_ok && p0_l3 == 8'd14};
/* verilator lint_off UNUSEDSIGNAL */
wire [9:0]           p0_k10 = p0_l4off - L4_MIN[9:0];
/* verilator lint_on UNUSEDSIGNAL */
wire [3:0]           p0_k = p0_k10[5:2];

// The IPv4 header: window bytes 14..37 (w14) at l3 14 or 18, zero when passed unchanged.
function [159:0] ip_align(input [191:0] w14, input [1:0] sel3);
    ip_align = ({160{sel3[0]}} & w14[0 +: 160]) | ({160{sel3[1]}} & w14[32 +: 160]);
endfunction

// The TCP header: window bytes 34..137 shifted down by 4*k bytes (only meaningful when
// p0_ok).
function [479:0] tcp_align(input [8*L4_SPAN-1:0] w, input [3:0] ks);
    reg [8*L4_SPAN-1:0] sh;
    begin
        sh = w;
        if (ks[0]) begin
            sh = {32'd0, sh[8*L4_SPAN-1:32]};
        end
        if (ks[1]) begin
            sh = {64'd0, sh[8*L4_SPAN-1:64]};
        end
        if (ks[2]) begin
            sh = {128'd0, sh[8*L4_SPAN-1:128]};
        end
        if (ks[3]) begin
            sh = {256'd0, sh[8*L4_SPAN-1:256]};
        end
        tcp_align = sh[479:0];
    end
endfunction

// its option area (bytes 20..59), the walk's input
/* verilator lint_off UNUSEDSIGNAL */
function [319:0] tcp_options(input [8*L4_SPAN-1:0] w, input [3:0] ks);
    reg [479:0] t;
    begin
        t = tcp_align(w, ks);
        tcp_options = t[160 +: 320];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// Walk pipeline: stage s holds the option bytes not walked yet (walked ones read as zero,
// OB bytes: the 40 of the option area and zero padding for the last stage's reach) and the
// walk state: the option length, the next option start, done, error, the header check, and
// the tags found so far (field starts in the option area). Stage s examines option bytes
// s*OPT_STEP .. s*OPT_STEP+OPT_STEP-1. Every stage and every data register behind it is
// loaded only when a frame enters it (wk_valid_reg); a stage that holds no frame keeps
// stale data nothing reads.
localparam OB = NS * OPT_STEP + 1;
localparam W_EDGE = 0;
localparam W_TSV = 40;
localparam W_TSE = 80;
localparam W_PTR = 120;
localparam W_DONE = 126;
localparam W_ERR = 127;
localparam W_OPTW = 128;
localparam W_OK = 132;
localparam WK_W = 133;

// Option bytes at which a field can start once positions 0..l-1 are walked: a SACK edge
// 2 + 4b bytes into an option (b < 8), TSval 2 and TSecr 6 into one. A walk stage ties the
// bits no position can set yet to constant zero at the next register's input (not masked by
// logic): synthesis then removes them all in its first word-level round instead of one
// pipeline stage per optimisation round.
function [39:0] reach_edge(input integer l);
    integer gm, hi, pp;
    begin
        for (gm = 0; gm < 40; gm = gm + 1) begin
            // latest walked position pp <= gm - 2 with pp = gm - 2 (mod 4); needs
            // pp >= gm - 30
            hi = (gm - 2 < l - 1) ? gm - 2 : l - 1;
            pp = hi - ((4 - ((gm - 2 - hi) % 4)) % 4);
            reach_edge[gm] = gm >= 2 && pp >= 0 && pp >= gm - 30;
        end
    end
endfunction

function [39:0] reach_tsv(input integer l);
    integer gm;
    begin
        for (gm = 0; gm < 40; gm = gm + 1) begin
            reach_tsv[gm] = gm >= 2 && gm <= l + 1 && gm <= 35;
        end
    end
endfunction

function [39:0] reach_tse(input integer l);
    integer gm;
    begin
        for (gm = 0; gm < 40; gm = gm + 1) begin
            reach_tse[gm] = gm >= 6 && gm <= l + 5;
        end
    end
endfunction

// One walk stage: positions b .. b+OPT_STEP-1 (those below 40), option bytes b .. b+OPT_STEP
// in ob. Every position has its own decoder; the pointer is handed from position to
// position, an option is acted upon only where the pointer stands. EOL ends the list, NOP is
// skipped, every other kind has a length byte; a length below 2 or past the option length
// ends the walk with an error. Field starts: SACK edges at 2 + 4b bytes into a SACK option
// (below its length), TSval at 2 and TSecr at 6 into a TS option.
function [WK_W-1:0] walk_step(input integer b, input [8*(OPT_STEP+1)-1:0] ob,
                              input [WK_W-1:0] st);
    integer q, p;
    reg [5:0]  optlen;
    reg [5:0]  ptr;
    reg        done, err, at, stop, nop, bad, go;
    reg [7:0]  kind, len;
    reg [8:0]  pend;
    reg [39:0] marks;
    begin
        walk_step = st;
        optlen = {st[W_OPTW +: 4], 2'b00};
        ptr = st[W_PTR +: 6];
        done = st[W_DONE];
        err = st[W_ERR];
        for (q = 0; q < OPT_STEP; q = q + 1) begin
            p = b + q;
            if (p < 40) begin
                kind = ob[8*q +: 8];
                len = (p < 39) ? ob[8*(q+1) +: 8] : 8'd0;
                pend = p[8:0] + {1'b0, len};
                at = !done && ptr == p[5:0];
                stop = p[5:0] >= optlen || kind == 8'd0;
                nop = kind == 8'd1;
                bad = len < 8'd2 || pend > {3'd0, optlen};
                go = at && !stop && !nop && !bad;
                if (go && kind == 8'd5 &&
                    (len == 8'd10 || len == 8'd18 || len == 8'd26 || len == 8'd34)) begin
                    // edges at 2, 6, 10, ... bytes into the option, below its length
                    case (len)
                        8'd10: marks = 40'h0000000044;
                        8'd18: marks = 40'h0000004444;
                        8'd26: marks = 40'h0000444444;
                        default: marks = 40'h0044444444;
                    endcase
                    marks = marks << p;
                    walk_step[W_EDGE +: 40] = walk_step[W_EDGE +: 40] | marks;
                end
                if (go && kind == 8'd8 && len == 8'd10 && p + 6 < 40) begin
                    marks = 40'd1 << (p + 2);
                    walk_step[W_TSV +: 40] = walk_step[W_TSV +: 40] | marks;
                    marks = 40'd1 << (p + 6);
                    walk_step[W_TSE +: 40] = walk_step[W_TSE +: 40] | marks;
                end
                ptr = go ? pend[5:0] : (at && !stop && nop) ? ptr + 6'd1 : ptr;
                done = done || (at && (stop || (!nop && bad)));
                err = err || (at && !stop && !nop && bad);
            end
        end
        walk_step[W_PTR +: 6] = ptr;
        walk_step[W_DONE] = done;
        walk_step[W_ERR] = err;
    end
endfunction

always @(posedge clk) begin
    // stage 0 from P1
    wk_valid_reg <= {wk_valid_reg[NS-1:0], p0_valid_reg};
    if (p0_valid_reg) begin
        // ring: read NS cycles later so it lines up with the walk's end
        ring_mem[ring_wp_reg] <= {p0_k, p0_sel3, tcp_align(p0_w[8*L4_MIN +: 8*L4_SPAN], p0_k),
                                  ip_align(p0_w[8*14 +: 192], p0_sel3), p0_ts, p0_desc};
        // the window itself is only needed at E4: read NS + 3 cycles later
        ringw_mem[ring_wp_reg] <= p0_w;
    end
    ring_wp_reg <= ring_wp_reg + 1'b1;
    if (wk_valid_reg[NS-1]) begin
        ring_rd_reg <= ring_mem[ring_wp_reg - NS[RING_AW-1:0]];
    end
    if (e2_valid_reg) begin
        ringw_rd_reg <= ringw_mem[ring_wp_reg - RW_DLY[RING_AW-1:0]];
    end

    if (rst) begin
        wk_valid_reg <= {(NS+1){1'b0}};
        ring_wp_reg <= {RING_AW{1'b0}};
    end
end

// Walk stage registers: g_wk[s].st_reg (the walk state) and g_wk[s].g_o.o_reg (the option
// bytes; the walk's last stage needs none: E1 takes them from the ring). Stage 0 is loaded
// from P1, stage s+1 from stage s by walk_step.
genvar gs;
generate
for (gs = 0; gs <= NS; gs = gs + 1) begin : g_wk
    // (the last stage's length, pointer and done flag are not needed after the walk)
    /* verilator lint_off UNUSEDSIGNAL */
    reg [WK_W-1:0] st_reg;
    /* verilator lint_on UNUSEDSIGNAL */
    if (gs == 0) begin : g_st
        always @(posedge clk) begin
            if (p0_valid_reg) begin
                st_reg <= {p0_ok, p0_doff - 4'd5, 1'b0, !p0_ok, 6'd0, 120'd0};
            end
        end
    end else begin : g_st
        // stage gs-1 walks positions B .. B+OPT_STEP-1
        localparam integer B = (gs - 1) * OPT_STEP;
        localparam integer L = (B + OPT_STEP < 40) ? B + OPT_STEP : 40;
        localparam [WK_W-1:0] MASK = {{(WK_W-120){1'b1}}, reach_tse(L), reach_tsv(L),
                                      reach_edge(L)};
        always @(posedge clk) begin
            if (wk_valid_reg[gs-1]) begin
                st_reg <= walk_step(B, g_wk[gs-1].g_o.o_reg[8*B +: 8*(OPT_STEP+1)],
                                    g_wk[gs-1].st_reg) & MASK;
            end
        end
    end
    if (gs < NS) begin : g_o
        // (the next stage reads only the option bytes of its own positions)
        /* verilator lint_off UNUSEDSIGNAL */
        reg [8*OB-1:0] o_reg;
        /* verilator lint_on UNUSEDSIGNAL */
        if (gs == 0) begin : g_ld
            always @(posedge clk) begin
                if (p0_valid_reg) begin
                    o_reg <= {{(8*OB-320){1'b0}},
                              tcp_options(p0_w[8*L4_MIN +: 8*L4_SPAN], p0_k)};
                end
            end
        end else begin : g_ld
            // walked bytes are dropped (zero)
            localparam integer L = (gs * OPT_STEP < 40) ? gs * OPT_STEP : 40;
            always @(posedge clk) begin
                if (wk_valid_reg[gs-1]) begin
                    o_reg <= (g_wk[gs-1].g_o.o_reg >> (8*L)) << (8*L);
                end
            end
        end
    end
end
endgenerate

// ---------------------------------------------------------------------------------------
// E1: the aligned TCP and IPv4 headers from the ring, the walk results from the walk.
// E1..E4 load their data registers only for a frame (the previous stage's valid bit).
wire [DESC_W-1:0] r_desc = ring_rd_reg[0 +: DESC_W];
wire [15:0]       r_ts = ring_rd_reg[DESC_W +: 16];
wire [159:0]      r_i = ring_rd_reg[DESC_W + 16 +: 160];
wire [479:0]      r_t = ring_rd_reg[DESC_W + 176 +: 480];
wire [SEL_W-1:0]  r_sel = ring_rd_reg[DESC_W + 656 +: SEL_W];
// the walk's end
wire [WK_W-1:0]   wk_end = g_wk[NS].st_reg;
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
    if (wk_valid_reg[NS]) begin
        e1_desc_reg <= r_desc;
        e1_sel_reg <= r_sel;
        e1_ts_reg <= r_ts;
        e1_ok_reg <= wk_end[W_OK];
        e1_err_reg <= wk_end[W_ERR];
        e1_t_reg <= r_t;
        e1_i_reg <= r_i;
        e1_edge_reg <= wk_end[W_EDGE +: 40];
        e1_tsv_reg <= wk_end[W_TSV +: 40];
        e1_tse_reg <= wk_end[W_TSE +: 40];
    end
    if (rst) begin
        e1_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// E2: new field values: {IPv4 header, TCP header}
// (the descriptor's offsets and MAC addresses are not used here)
/* verilator lint_off UNUSEDSIGNAL */
function [639:0] new_fields(input [479:0] t, input [159:0] ih, input [DESC_W-1:0] d,
                            input [39:0] edge_m, input [39:0] tsv_m, input [39:0] tse_m);
    reg [479:0] tn;
    reg [159:0] in_n;
    reg [7:0]   flags;
    reg         ackf;
    reg         synf;
    reg [31:0]  fd;
    reg         fsel;
    reg [31:0]  wide_win;
    reg [15:0]  win;
    reg [4:0]   ws;
    reg [4:0]   ws_neg;
    integer     f;
    begin
        flags = d[D_FLAGS +: 8];
        ackf = t[8*13 + 4];
        synf = t[8*13 + 1];
        tn = t;
        in_n = ih;
        if (flags[F_IP]) begin
            in_n[8*12 +: 32] = bswap32(d[D_IPS +: 32]);
            in_n[8*16 +: 32] = bswap32(d[D_IPD +: 32]);
        end
        if (flags[F_PORT]) begin
            tn[0 +: 16] = bswap16(d[D_SP +: 16]);
            tn[16 +: 16] = bswap16(d[D_DP +: 16]);
        end
        if (flags[F_SEQ]) begin
            tn[32 +: 32] = bswap32(bswap32(t[32 +: 32]) + d[D_SEQ +: 32]);
        end
        if (flags[F_ACK] && ackf) begin
            tn[64 +: 32] = bswap32(bswap32(t[64 +: 32]) + d[D_ACK +: 32]);
        end
        win = bswap16(t[8*14 +: 16]);
        ws = d[D_WS +: 5];
        ws_neg = ~ws + 5'd1;
        if (ws[4]) begin
            wide_win = {16'd0, win} >> ws_neg;
        end else begin
            wide_win = {16'd0, win} << ws;
        end
        if (flags[F_WS] && !synf) begin
            tn[8*14 +: 16] = bswap16((wide_win[31:16] != 16'd0) ? 16'hffff : wide_win[15:0]);
        end
        // option fields: at most one field starts at each option byte
        for (f = 0; f < 37; f = f + 1) begin
            fsel = 1'b1;
            fd = 32'd0;
            if (edge_m[f] && flags[F_SACK]) begin
                fd = d[D_ACK +: 32];
            end else if (tsv_m[f] && flags[F_TS]) begin
                fd = d[D_TSV +: 32];
            end else if (tse_m[f] && flags[F_TS] && ackf) begin
                fd = d[D_TSE +: 32];
            end else begin
                fsel = 1'b0;
            end
            if (fsel) begin
                tn[8*(20+f) +: 32] = bswap32(bswap32(t[8*(20+f) +: 32]) + fd);
            end
        end
        new_fields = {in_n, tn};
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

always @(posedge clk) begin
    e2_valid_reg <= e1_valid_reg;
    if (e1_valid_reg) begin
        e2_desc_reg <= e1_desc_reg;
        e2_sel_reg <= e1_sel_reg;
        e2_ts_reg <= e1_ts_reg;
        e2_ok_reg <= e1_ok_reg;
        e2_err_reg <= e1_err_reg;
        e2_t_reg <= e1_t_reg;
        e2_i_reg <= e1_i_reg;
        {e2_in_reg, e2_tn_reg} <= new_fields(e1_t_reg, e1_i_reg, e1_desc_reg, e1_edge_reg,
                                             e1_tsv_reg, e1_tse_reg);
    end
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

// RFC 1624 equation 3 over up to 17 16-bit words, HC' = ~(~HC + ~m + m') chained over the
// words: the arithmetic of splice_csum_update (the checksum unit its test bench checks), as a
// function so that it is evaluated only for a frame in the stage. A word passed as old
// 16'hffff, new 16'h0000 adds exactly zero (unused words).
function [15:0] csum_update(input [15:0] csum_in, input [16*17-1:0] old_w,
                            input [16*17-1:0] new_w);
    reg [21:0] sum;
    reg [21:0] fold1;
    reg [16:0] fold2;
    integer    i;
    begin
        sum = {6'd0, ~csum_in};
        for (i = 0; i < 17; i = i + 1) begin
            sum = sum + {6'd0, ~old_w[16*i +: 16]} + {6'd0, new_w[16*i +: 16]};
        end
        // end-around carry: two folds bring the sum into 16 bits
        fold1 = {6'd0, sum[15:0]} + {16'd0, sum[21:16]};
        fold2 = {1'b0, fold1[15:0]} + {11'd0, fold1[21:16]};
        csum_update = ~(fold2[15:0] + {15'd0, fold2[16]});
    end
endfunction

// the IPv4 header checksum over the (possibly) rewritten addresses
function [15:0] ip_csum(input [159:0] ih_old, input [159:0] ih_new);
    ip_csum = csum_update(bswap16(ih_old[8*10 +: 16]), {{(16*13){1'b1}}, ip_addr_words(ih_old)},
                          {{(16*13){1'b0}}, ip_addr_words(ih_new)});
endfunction

// first TCP checksum step: the pseudo-header addresses and TCP words 0..12 (host order)
function [15:0] tcp_csum_a(input [479:0] t_old, input [479:0] t_new, input [159:0] ih_old,
                           input [159:0] ih_new);
    reg [16*17-1:0] wo;
    reg [16*17-1:0] wn;
    integer         i;
    begin
        wo[0 +: 64] = ip_addr_words(ih_old);
        wn[0 +: 64] = ip_addr_words(ih_new);
        for (i = 0; i < 13; i = i + 1) begin
            wo[64 + 16*i +: 16] = bswap16(t_old[16*i +: 16]);
            wn[64 + 16*i +: 16] = bswap16(t_new[16*i +: 16]);
        end
        tcp_csum_a = csum_update(bswap16(t_old[8*16 +: 16]), wo, wn);
    end
endfunction

// new MAC addresses in window byte order: {source, destination}
function [95:0] mac_bytes(input [47:0] src, input [47:0] dst);
    integer m;
    begin
        for (m = 0; m < 6; m = m + 1) begin
            mac_bytes[8*m +: 8] = dst[40 - 8*m +: 8];
            mac_bytes[8*(6+m) +: 8] = src[40 - 8*m +: 8];
        end
    end
endfunction

always @(posedge clk) begin
    e3_valid_reg <= e2_valid_reg;
    if (e2_valid_reg) begin
        e3_mac_reg <= {e2_ok_reg && e2_desc_reg[D_FLAGS + F_MAC],
                       mac_bytes(e2_desc_reg[D_ESRC +: 48], e2_desc_reg[D_EDST +: 48])};
        e3_sel_reg <= e2_sel_reg;
        e3_ts_reg <= e2_ts_reg;
        e3_ok_reg <= e2_ok_reg;
        e3_err_reg <= e2_err_reg;
        e3_th_reg <= e2_t_reg[479:208];
        e3_tn_reg <= e2_tn_reg;
        e3_in_reg <= {e2_in_reg[159:96], bswap16(ip_csum(e2_i_reg, e2_in_reg)), e2_in_reg[79:0]};
        e3_tcsum_reg <= tcp_csum_a(e2_t_reg, e2_tn_reg, e2_i_reg, e2_in_reg);
    end
    if (rst) begin
        e3_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// E4: TCP words 13..29, write-back into the window, into the result FIFO
// the final TCP header: TCP words 13..29 complete the checksum (th_old: the old words
// 13..29, the header's upper 272 bits)
function [479:0] tcp_final(input [479:0] t_new, input [271:0] th_old, input [15:0] csum_a);
    reg [16*17-1:0] wo;
    reg [16*17-1:0] wn;
    integer         i;
    begin
        for (i = 0; i < 17; i = i + 1) begin
            wo[16*i +: 16] = bswap16(th_old[16*i +: 16]);
            wn[16*i +: 16] = bswap16(t_new[16*(13+i) +: 16]);
        end
        tcp_final = {t_new[479:144], bswap16(csum_update(csum_a, wo, wn)), t_new[127:0]};
    end
endfunction

// Write-back: MAC (bytes 0..11) when enabled; the IPv4 header at byte 14 or 18 (one-hot l3
// select); the new TCP header shifted up by 4*k bytes into window bytes 34..137 (the inverse
// of the P1 shifter), over the IPv4 bytes where they meet; the window as it was elsewhere.
// Nothing but the window for a frame passed unchanged (zero l3 select).
function [WW-1:0] write_back(input [WW-1:0] w, input [96:0] mac, input [SEL_W-1:0] sel,
                             input [159:0] ih, input [479:0] th);
    reg [8*L4_SPAN-1:0] t_sh;
    reg [L4_SPAN-1:0]   t_en;
    integer             i, j;
    begin
        write_back = w;
        if (mac[96]) begin
            write_back[0 +: 96] = mac[95:0];
        end
        if (sel[0]) begin
            write_back[8*14 +: 160] = ih;
        end
        if (sel[1]) begin
            write_back[8*18 +: 160] = ih;
        end
        t_sh = {{(8*L4_SPAN-480){1'b0}}, th};
        t_en = {{(L4_SPAN-60){1'b0}}, {60{|sel[1:0]}}};
        if (sel[2]) begin
            t_sh = {t_sh[8*L4_SPAN-33:0], 32'd0};
            t_en = {t_en[L4_SPAN-5:0], 4'd0};
        end
        if (sel[3]) begin
            t_sh = {t_sh[8*L4_SPAN-65:0], 64'd0};
            t_en = {t_en[L4_SPAN-9:0], 8'd0};
        end
        if (sel[4]) begin
            t_sh = {t_sh[8*L4_SPAN-129:0], 128'd0};
            t_en = {t_en[L4_SPAN-17:0], 16'd0};
        end
        if (sel[5]) begin
            t_sh = {t_sh[8*L4_SPAN-257:0], 256'd0};
            t_en = {t_en[L4_SPAN-33:0], 32'd0};
        end
        // per byte (L4_SPAN = 13 x 8)
        for (i = 0; i < L4_SPAN; i = i + 8) begin
            for (j = 0; j < 8; j = j + 1) begin
                if (t_en[i+j]) begin
                    write_back[8*(L4_MIN+i+j) +: 8] = t_sh[8*(i+j) +: 8];
                end
            end
        end
    end
endfunction

always @(posedge clk) begin
    if (e3_valid_reg) begin
        res_w_mem[res_wr_reg[RF_AW-1:0]] <= write_back(e3_w, e3_mac_reg, e3_sel_reg, e3_in_reg,
                                                       tcp_final(e3_tn_reg, e3_th_reg,
                                                                 e3_tcsum_reg));
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

// the window beat for index ob_i, one select per beat position
function [DATA_WIDTH-1:0] res_beat(input [WW-1:0] w, input [IDX_W-1:0] ob_i);
    integer ob;
    begin
        res_beat = {DATA_WIDTH{1'b0}};
        for (ob = 0; ob < HDR_BEATS; ob = ob + 1) begin
            if (ob_i == ob[IDX_W-1:0]) begin
                res_beat = w[ob*DATA_WIDTH +: DATA_WIDTH];
            end
        end
    end
endfunction

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
                            res_beat(res_w_mem[res_rd_reg[RF_AW-1:0]], ob_idx_reg) :
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
