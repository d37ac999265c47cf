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
localparam RING_AW = $clog2(NS + 2);
localparam IDX_W = $clog2(HDR_BEATS + 1);
localparam DF_W = DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH;

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
localparam RING_W = WW + DESC_W + 16;

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
reg [WW-1:0]     p0_w_reg;
reg [DESC_W-1:0] p0_desc_reg;
reg [15:0]       p0_ts_reg;
reg [9:0]        p0_caplen_reg;

reg [DF_W-1:0]   df_mem [0:DF-1];
reg [WW-1:0]     res_w_mem [0:RF-1];
reg [15:0]       res_ts_mem [0:RF-1];
reg [RING_W-1:0] ring_mem [0:(1<<RING_AW)-1];
reg [RING_W-1:0] ring_rd_reg;

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

reg [WW-1:0] cap_merge;
reg [9:0]    in_bytes;
integer k;

always @* begin
    cap_merge = cap_w_reg;
    if (cap_here) begin
        cap_merge[in_idx*DATA_WIDTH +: DATA_WIDTH] = s_axis_tdata;
    end
    in_bytes = 10'd0;
    for (k = 0; k < KEEP_WIDTH; k = k + 1) begin
        in_bytes = in_bytes + {9'd0, s_axis_tkeep[k]};
    end
    if (!s_axis_tlast) begin
        in_bytes = KEEP_WIDTH[9:0];
    end
end

always @(posedge clk) begin
    cnt_reg <= cnt_reg + 16'd1;
    if (in_acc) begin
        df_mem[df_wr_reg[DF_AW-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        df_wr_reg <= df_wr_reg + 1'b1;
        if (cap_here) begin
            cap_w_reg[in_idx*DATA_WIDTH +: DATA_WIDTH] <= s_axis_tdata;
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
    p0_w_reg <= cap_merge;
    p0_desc_reg <= in_first_reg ? desc_bus : cap_desc_reg;
    p0_ts_reg <= in_first_reg ? cnt_reg : cap_ts_reg;
    p0_caplen_reg <= in_idx * KEEP_WIDTH[9:0] + in_bytes;

    if (rst) begin
        cnt_reg <= 16'd0;
        in_first_reg <= 1'b1;
        cap_idx_reg <= {IDX_W{1'b0}};
        df_wr_reg <= {(DF_AW+1){1'b0}};
        p0_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// P1: header checks, TCP options aligned; the window waits in a ring for the walk
wire [7:0] p0_l3 = p0_desc_reg[D_L3 +: 8];
wire [3:0] p0_ihl = p0_desc_reg[D_IHL +: 4];
wire [3:0] p0_doff = p0_desc_reg[D_DOFF +: 4];
wire [9:0] p0_l4off = {2'd0, p0_l3} + {4'd0, p0_ihl, 2'b00};
wire [9:0] p0_hdr_end = p0_l4off + {4'd0, p0_doff, 2'b00};
wire p0_ok = (p0_l3 == 8'd14 || p0_l3 == 8'd18) && p0_ihl >= 4'd5 && p0_doff >= 4'd5 &&
             p0_hdr_end <= p0_caplen_reg;
/* verilator lint_off UNUSEDSIGNAL */
wire [WW-1:0] p0_tsh = p0_w_reg >> {p0_l4off, 3'b000};
/* verilator lint_on UNUSEDSIGNAL */

// walk pipeline: stage s holds option bytes, option length, next option start, done,
// error, and the tags found so far (field starts in the option area)
reg [320*(NS+1)-1:0] wk_o_reg;
reg [6*(NS+1)-1:0]   wk_optlen_reg;
reg [6*(NS+1)-1:0]   wk_ptr_reg;
reg [NS:0]           wk_done_reg;
reg [NS:0]           wk_err_reg;
reg [NS:0]           wk_ok_reg;
reg [40*(NS+1)-1:0]  wk_edge_reg;
reg [40*(NS+1)-1:0]  wk_tsv_reg;
reg [40*(NS+1)-1:0]  wk_tse_reg;

reg [6*NS-1:0]  wk_ptr_next;
reg [NS-1:0]    wk_done_next;
reg [NS-1:0]    wk_err_next;
reg [40*NS-1:0] wk_edge_next;
reg [40*NS-1:0] wk_tsv_next;
reg [40*NS-1:0] wk_tse_next;

reg [5:0]   w_ptr;
reg         w_done;
reg         w_err;
reg [39:0]  w_edge;
reg [39:0]  w_tsv;
reg [39:0]  w_tse;
reg [319:0] w_o;
reg [5:0]   w_optlen;
reg [7:0]   w_kind;
reg [7:0]   w_len;
reg [8:0]   w_end;
integer s, q, p, b;

always @* begin
    w_kind = 8'd0;
    w_len = 8'd0;
    w_end = 9'd0;
    for (s = 0; s < NS; s = s + 1) begin
        w_o = wk_o_reg[320*s +: 320];
        w_optlen = wk_optlen_reg[6*s +: 6];
        w_ptr = wk_ptr_reg[6*s +: 6];
        w_done = wk_done_reg[s];
        w_err = wk_err_reg[s];
        w_edge = wk_edge_reg[40*s +: 40];
        w_tsv = wk_tsv_reg[40*s +: 40];
        w_tse = wk_tse_reg[40*s +: 40];
        for (q = 0; q < OPT_STEP; q = q + 1) begin
            p = s * OPT_STEP + q;
            if (p < 40) begin
                w_kind = w_o[8*p +: 8];
                w_len = (p < 39) ? w_o[8*(p+1) +: 8] : 8'd0;
                w_end = p[8:0] + {1'b0, w_len};
                if (!w_done && w_ptr == p[5:0]) begin
                    if (p[5:0] >= w_optlen || w_kind == 8'd0) begin
                        w_done = 1'b1;
                    end else if (w_kind == 8'd1) begin
                        w_ptr = w_ptr + 6'd1;
                    end else if (w_len < 8'd2 || w_end > {3'd0, w_optlen}) begin
                        w_done = 1'b1;
                        w_err = 1'b1;
                    end else begin
                        w_ptr = w_end[5:0];
                        if (w_kind == 8'd5 && (w_len == 8'd10 || w_len == 8'd18 ||
                                               w_len == 8'd26 || w_len == 8'd34)) begin
                            for (b = 0; b < 8; b = b + 1) begin
                                if (p + 2 + 4*b < 40 && 2 + 4*b < w_len) begin
                                    w_edge[p + 2 + 4*b] = 1'b1;
                                end
                            end
                        end
                        if (w_kind == 8'd8 && w_len == 8'd10 && p + 6 < 40) begin
                            w_tsv[p + 2] = 1'b1;
                            w_tse[p + 6] = 1'b1;
                        end
                    end
                end
            end
        end
        wk_ptr_next[6*s +: 6] = w_ptr;
        wk_done_next[s] = w_done;
        wk_err_next[s] = w_err;
        wk_edge_next[40*s +: 40] = w_edge;
        wk_tsv_next[40*s +: 40] = w_tsv;
        wk_tse_next[40*s +: 40] = w_tse;
    end
end

always @(posedge clk) begin
    // stage 0 from P1
    wk_valid_reg[0] <= p0_valid_reg;
    wk_o_reg[0 +: 320] <= p0_tsh[160 +: 320];
    wk_optlen_reg[0 +: 6] <= {p0_doff, 2'b00} - 6'd20;
    wk_ptr_reg[0 +: 6] <= 6'd0;
    wk_done_reg[0] <= !p0_ok;
    wk_err_reg[0] <= 1'b0;
    wk_ok_reg[0] <= p0_ok;
    wk_edge_reg[0 +: 40] <= 40'd0;
    wk_tsv_reg[0 +: 40] <= 40'd0;
    wk_tse_reg[0 +: 40] <= 40'd0;
    // walk stages
    wk_valid_reg[NS:1] <= wk_valid_reg[NS-1:0];
    wk_o_reg[320*(NS+1)-1:320] <= wk_o_reg[320*NS-1:0];
    wk_optlen_reg[6*(NS+1)-1:6] <= wk_optlen_reg[6*NS-1:0];
    wk_ok_reg[NS:1] <= wk_ok_reg[NS-1:0];
    wk_ptr_reg[6*(NS+1)-1:6] <= wk_ptr_next;
    wk_done_reg[NS:1] <= wk_done_next;
    wk_err_reg[NS:1] <= wk_err_next;
    wk_edge_reg[40*(NS+1)-1:40] <= wk_edge_next;
    wk_tsv_reg[40*(NS+1)-1:40] <= wk_tsv_next;
    wk_tse_reg[40*(NS+1)-1:40] <= wk_tse_next;

    // ring: written every cycle, read NS cycles later so it lines up with the walk's end
    ring_mem[ring_wp_reg] <= {p0_ts_reg, p0_desc_reg, p0_w_reg};
    ring_wp_reg <= ring_wp_reg + 1'b1;
    ring_rd_reg <= ring_mem[ring_wp_reg - NS[RING_AW-1:0]];

    if (rst) begin
        wk_valid_reg <= {(NS+1){1'b0}};
        ring_wp_reg <= {RING_AW{1'b0}};
    end
end

// ---------------------------------------------------------------------------------------
// E1: align the TCP header and the IPv4 header of the delayed window
wire [WW-1:0]     r_w = ring_rd_reg[0 +: WW];
wire [DESC_W-1:0] r_desc = ring_rd_reg[WW +: DESC_W];
wire [15:0]       r_ts = ring_rd_reg[WW + DESC_W +: 16];
wire [9:0] r_l4off = {2'd0, r_desc[D_L3 +: 8]} + {4'd0, r_desc[D_IHL +: 4], 2'b00};
/* verilator lint_off UNUSEDSIGNAL */
wire [WW-1:0] r_tsh = r_w >> {r_l4off, 3'b000};
wire [WW-1:0] r_ish = r_w >> {r_desc[D_L3 +: 8], 3'b000};
/* verilator lint_on UNUSEDSIGNAL */

reg [WW-1:0]     e1_w_reg, e2_w_reg, e3_w_reg;
reg [DESC_W-1:0] e1_desc_reg, e2_desc_reg, e3_desc_reg;
reg [15:0]       e1_ts_reg, e2_ts_reg, e3_ts_reg;
reg              e1_ok_reg, e2_ok_reg, e3_ok_reg;
reg              e1_err_reg, e2_err_reg, e3_err_reg;
reg [479:0]      e1_t_reg, e2_t_reg, e3_t_reg;
reg [159:0]      e1_i_reg, e2_i_reg;
reg [39:0]       e1_edge_reg, e1_tsv_reg, e1_tse_reg;
reg [479:0]      e2_tn_reg, e3_tn_reg;
reg [159:0]      e2_in_reg, e3_in_reg;
reg [15:0]       e3_tcsum_reg;

always @(posedge clk) begin
    e1_valid_reg <= wk_valid_reg[NS];
    e1_w_reg <= r_w;
    e1_desc_reg <= r_desc;
    e1_ts_reg <= r_ts;
    e1_ok_reg <= wk_ok_reg[NS];
    e1_err_reg <= wk_err_reg[NS];
    e1_t_reg <= r_tsh[479:0];
    e1_i_reg <= r_ish[159:0];
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
    e2_w_reg <= e1_w_reg;
    e2_desc_reg <= e1_desc_reg;
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

function [16*17-1:0] tcp_words(input [479:0] th, input integer first);
    integer j;
    begin
        tcp_words = {(16*17){1'b0}};
        for (j = 0; j < 17; j = j + 1) begin
            tcp_words[16*j +: 16] = bswap16(th[16*(first+j) +: 16]);
        end
    end
endfunction

wire [15:0] ip_csum_new;
wire [15:0] tcp_csum_a;
/* verilator lint_off UNUSEDSIGNAL */
wire [16*17-1:0] tcp_old_lo = tcp_words(e2_t_reg, 0);
wire [16*17-1:0] tcp_new_lo = tcp_words(e2_tn_reg, 0);
/* verilator lint_on UNUSEDSIGNAL */
wire [15:0] tcp_csum_b;

splice_csum_update #(.WORDS(4)) ip_csum_inst (
    .csum_in(bswap16(e2_i_reg[8*10 +: 16])),
    .old_words(ip_addr_words(e2_i_reg)),
    .new_words(ip_addr_words(e2_in_reg)),
    .csum_out(ip_csum_new)
);

splice_csum_update #(.WORDS(17)) tcp_csum_a_inst (
    .csum_in(bswap16(e2_t_reg[8*16 +: 16])),
    .old_words({tcp_old_lo[16*13-1:0], ip_addr_words(e2_i_reg)}),
    .new_words({tcp_new_lo[16*13-1:0], ip_addr_words(e2_in_reg)}),
    .csum_out(tcp_csum_a)
);

always @(posedge clk) begin
    e3_valid_reg <= e2_valid_reg;
    e3_w_reg <= e2_w_reg;
    e3_desc_reg <= e2_desc_reg;
    e3_ts_reg <= e2_ts_reg;
    e3_ok_reg <= e2_ok_reg;
    e3_err_reg <= e2_err_reg;
    e3_t_reg <= e2_t_reg;
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
    .old_words(tcp_words(e3_t_reg, 13)),
    .new_words(tcp_words(e3_tn_reg, 13)),
    .csum_out(tcp_csum_b)
);

wire [9:0] e3_l3off = {2'd0, e3_desc_reg[D_L3 +: 8]};
wire [9:0] e3_l4off = e3_l3off + {4'd0, e3_desc_reg[D_IHL +: 4], 2'b00};
reg [WW-1:0]  wn;
reg [479:0]   tn_final;
reg [WW-1:0]  ext;
integer m;

always @* begin
    wn = e3_w_reg;
    tn_final = e3_tn_reg;
    tn_final[8*16 +: 16] = bswap16(tcp_csum_b);
    if (e3_ok_reg) begin
        if (e3_desc_reg[D_FLAGS + F_MAC]) begin
            for (m = 0; m < 6; m = m + 1) begin
                wn[8*m +: 8] = e3_desc_reg[D_EDST + 40 - 8*m +: 8];
                wn[8*(6+m) +: 8] = e3_desc_reg[D_ESRC + 40 - 8*m +: 8];
            end
        end
        ext = {WW{1'b0}};
        ext[159:0] = {160{1'b1}};
        wn = wn & ~(ext << {e3_l3off, 3'b000});
        ext[159:0] = e3_in_reg;
        wn = wn | (ext << {e3_l3off, 3'b000});
        ext = {WW{1'b0}};
        ext[479:0] = {480{1'b1}};
        wn = wn & ~(ext << {e3_l4off, 3'b000});
        ext[479:0] = tn_final;
        wn = wn | (ext << {e3_l4off, 3'b000});
    end else begin
        ext = {WW{1'b0}};
    end
end

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
                            res_head[ob_idx_reg*DATA_WIDTH +: DATA_WIDTH] :
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
