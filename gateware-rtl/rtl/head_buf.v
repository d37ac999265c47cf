// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Request-head buffer (docs/head-buf.md): NBUF buffers of 2^BA bytes (HEAD_BUFFERS x
 * HEAD_BUFFER_BYTES: 32 x 1 KiB in 16 DP16KD) that hold the request heads of connections in
 * setup until the server connection is open and the head replayed to it. Reference model: the harness's
 * `HeadModel` (gateware-rtl/tb/test-head/src/model.rs).
 *
 * Buffers: taken from a free list (alloc_req -> alloc_ok/alloc_id the next cycle) and given
 * back (free_en/free_id; a buffer not in use is refused with free_bad). A taken buffer is
 * empty (length 0, sum 0).
 *
 * Append: a segment is a first beat carrying {s_buf, s_off, s_len} and the payload in beats
 * of 8 bytes (byte i of the payload in s_data[8i +: 8] of beat i / 8), the last beat with
 * s_last. s_off is the payload's position in the head (seq - client ISN - 1, from the
 * engine). Only bytes that extend the stored head contiguously are stored: the positions
 * [max(off, len), min(off + s_len, 2^BA)) when off <= len, where len is the buffer's stored
 * length; a retransmitted part is skipped, a segment past a hole stores nothing. Each
 * segment is answered on res_* (one-cycle pulse): the stored length after it, the bytes it
 * added, and flags (hole, cut at the end of the buffer, bad: the buffer is not in use).
 * The engine acknowledges res_len and advertises 2^BA - res_len.
 *
 * Running sum: each buffer keeps the ones'-complement sum of its stored bytes as 16-bit
 * big-endian words from position 0 (the TCP checksum of the replayed payload, no second
 * pass), updated per written word by an adder tree and folded once per segment.
 *
 * Replay: rd_start/rd_buf (when rd_idle) latches the buffer's length and sum on rd_len and
 * rd_sum (two cycles later) and streams its words 0 .. ceil(len / 8) - 1 on m_* (valid/ready; m_keep on the
 * last word); nothing for an empty buffer.
 *
 * Timing: one beat per cycle; a segment's first beat waits until the previous segment's
 * length and sum are written back: it is taken `HEAD_SEG_GAP cycles after the previous
 * segment's last beat at the earliest. Memory read address and output are registered; the one variable byte rotation is
 * the segment's position modulo 8 (TCP segments start anywhere).
 */
module head_buf #
(
    parameter NBUF = `SNIC_HEAD_BUFFERS,
    parameter BA = $clog2(`SNIC_HEAD_BUFFER_BYTES),
    parameter IW = $clog2(NBUF)
)
(
    input  wire             clk,
    input  wire             rst,

    input  wire             alloc_req,
    output reg              alloc_valid = 1'b0,
    output reg              alloc_ok = 1'b0,
    output reg  [IW-1:0]    alloc_id = {IW{1'b0}},
    input  wire             free_en,
    input  wire [IW-1:0]    free_id,
    output reg              free_bad = 1'b0,

    input  wire             s_valid,
    output wire             s_ready,
    input  wire [IW-1:0]    s_buf,
    input  wire [15:0]      s_off,
    input  wire [15:0]      s_len,
    input  wire [63:0]      s_data,
    input  wire             s_last,

    output reg              res_valid = 1'b0,
    output reg  [IW-1:0]    res_buf = {IW{1'b0}},
    output reg  [BA:0]      res_len = {BA+1{1'b0}},
    output reg  [BA:0]      res_added = {BA+1{1'b0}},
    output reg              res_hole = 1'b0,
    output reg              res_cut = 1'b0,
    output reg              res_bad = 1'b0,

    input  wire             rd_start,
    input  wire [IW-1:0]    rd_buf,
    output wire             rd_idle,
    output reg  [BA:0]      rd_len = {BA+1{1'b0}},
    output reg  [15:0]      rd_sum = 16'd0,
    output wire             m_valid,
    input  wire             m_ready,
    output wire [63:0]      m_data,
    output wire [7:0]       m_keep,
    output wire             m_last,

    output reg  [IW:0]      in_use = {IW+1{1'b0}},
    output reg  [IW:0]      in_use_max = {IW+1{1'b0}},
    input  wire             in_use_max_clear
);

localparam WPB = 1 << (BA - 3);          // words per buffer
localparam WA = IW + BA - 3;             // word address
localparam [16:0] CAP = 17'd1 << BA;

initial begin
    if ((1 << IW) != NBUF || BA < 4 || BA > 15) begin
        $error("Error: NBUF must be a power of two and BA 4..15 (instance %m)");
        $finish;
    end
end

// ---- per-buffer state ------------------------------------------------------------------
reg [BA:0]   len_mem [0:NBUF-1];
reg [15:0]   sum_mem [0:NBUF-1];
reg [NBUF-1:0] used = {NBUF{1'b0}};
reg [IW-1:0] fl [0:NBUF-1];
reg [IW-1:0] fl_head = {IW{1'b0}}, fl_tail = {IW{1'b0}};
reg [IW:0]   fl_count = {IW+1{1'b0}};
reg          init_done = 1'b0;
reg [IW:0]   init_cnt = {IW+1{1'b0}};
integer bi;
initial begin
    for (bi = 0; bi < NBUF; bi = bi + 1) begin
        len_mem[bi] = {BA+1{1'b0}};
        sum_mem[bi] = 16'd0;
        fl[bi] = {IW{1'b0}};
    end
end

// the segment write-back (wb_*), set below
reg          wb_en = 1'b0;
reg [IW-1:0] wb_buf = {IW{1'b0}};
reg [BA:0]   wb_len = {BA+1{1'b0}};
reg [15:0]   wb_sum = 16'd0;

wire do_alloc = alloc_req && init_done && fl_count != {IW+1{1'b0}};
wire do_free = free_en && init_done && used[free_id];
wire [IW-1:0] pop_id = fl[fl_head];

always @(posedge clk) begin
    alloc_valid <= alloc_req;
    alloc_ok <= do_alloc;
    alloc_id <= pop_id;
    free_bad <= free_en && !do_free;
    if (!init_done) begin
        // fill the free list with every buffer, one per cycle
        fl[init_cnt[IW-1:0]] <= init_cnt[IW-1:0];
        init_cnt <= init_cnt + 1'b1;
        if (init_cnt == NBUF - 1) begin
            init_done <= 1'b1;
            fl_count <= NBUF[IW:0];
        end
    end else begin
        if (do_alloc) begin
            fl_head <= fl_head + 1'b1;
            used[pop_id] <= 1'b1;
        end
        if (do_free) begin
            fl[fl_tail] <= free_id;
            fl_tail <= fl_tail + 1'b1;
            used[free_id] <= 1'b0;
        end
        fl_count <= fl_count - {{IW{1'b0}}, do_alloc} + {{IW{1'b0}}, do_free};
    end
    // the write-back of a segment, then a new buffer starts empty (never the same buffer)
    if (wb_en) begin
        len_mem[wb_buf] <= wb_len;
        sum_mem[wb_buf] <= wb_sum;
    end
    if (do_alloc) begin
        len_mem[pop_id] <= {BA+1{1'b0}};
        sum_mem[pop_id] <= 16'd0;
    end
    in_use <= init_done ? NBUF[IW:0] - fl_count : {IW+1{1'b0}};
    if (in_use_max_clear) in_use_max <= {IW+1{1'b0}};
    else if (init_done && in_use > in_use_max) in_use_max <= in_use;
    if (rst) begin
        init_done <= 1'b0;
        init_cnt <= {IW+1{1'b0}};
        fl_head <= {IW{1'b0}};
        fl_tail <= {IW{1'b0}};
        fl_count <= {IW+1{1'b0}};
        used <= {NBUF{1'b0}};
        alloc_ok <= 1'b0;
        alloc_valid <= 1'b0;
        free_bad <= 1'b0;
        in_use_max <= {IW+1{1'b0}};
    end
end

// ---- append: stage A (input register) --------------------------------------------------
reg          seg_busy = 1'b0;     // a segment is in flight: its write-back is not done
reg          in_seg = 1'b0;       // the next beat continues a segment
assign s_ready = init_done && (in_seg || !seg_busy);
wire acc = s_valid && s_ready;

reg          a_v = 1'b0, a_first = 1'b0, a_last = 1'b0;
reg [IW-1:0] a_buf = {IW{1'b0}};
reg [15:0]   a_off = 16'd0, a_len = 16'd0;
reg [63:0]   a_data = 64'd0;

always @(posedge clk) begin
    a_v <= acc;
    a_first <= !in_seg;
    a_last <= s_last;
    a_data <= s_data;
    if (acc && !in_seg) begin
        a_buf <= s_buf;
        a_off <= s_off;
        a_len <= s_len;
    end
    if (acc) in_seg <= !s_last;
    if (rst) begin
        a_v <= 1'b0;
        in_seg <= 1'b0;
    end
end

// ---- stage L: the buffer's stored length and sum (first beat), registered ---------------
reg          l_v = 1'b0, l_first = 1'b0, l_last = 1'b0;
reg [63:0]   l_data = 64'd0;
reg [IW-1:0] l_buf = {IW{1'b0}};
reg [16:0]   l_off = 17'd0, l_end = 17'd0;
reg [BA:0]   l_len0 = {BA+1{1'b0}};
reg [15:0]   l_sum0 = 16'd0;
reg          l_used = 1'b0;

always @(posedge clk) begin
    l_v <= a_v;
    l_first <= a_first;
    l_last <= a_last;
    l_data <= a_data;
    if (a_v && a_first) begin
        l_buf <= a_buf;
        l_off <= {1'b0, a_off};
        l_end <= {1'b0, a_off} + {1'b0, a_len};
        l_len0 <= len_mem[a_buf];
        l_sum0 <= sum_mem[a_buf];
        l_used <= used[a_buf];
    end
    if (rst) l_v <= 1'b0;
end

// ---- stage B: the segment's range (first beat), the beat's word ------------------------
// lo = max(off, len), hi = min(off + s_len, CAP); stored when off <= len < off + s_len
reg [IW-1:0] g_buf = {IW{1'b0}};
reg [16:0]   g_lo = 17'd0, g_hi = 17'd0;
reg [2:0]    g_rot = 3'd0;
reg [13:0]   g_word = 14'd0;      // word index of the current beat's first lane
reg [BA:0]   g_len0 = {BA+1{1'b0}};
reg [15:0]   g_sum0 = 16'd0;
reg          g_hole = 1'b0, g_cut = 1'b0, g_bad = 1'b0;
reg          b_v = 1'b0, b_first = 1'b0, b_last = 1'b0;
reg [63:0]   b_data = 64'd0;

wire [16:0]  l_len17 = {{16-BA{1'b0}}, l_len0};
wire         l_hole = l_off > l_len17;
wire         l_bad = !l_used;
wire         l_over = l_end > CAP;

always @(posedge clk) begin
    b_v <= l_v;
    b_first <= l_first;
    b_last <= l_last;
    b_data <= l_data;
    if (l_v && l_first) begin
        g_buf <= l_buf;
        g_lo <= l_hole ? l_off : l_len17;
        g_hi <= (l_hole || l_bad) ? 17'd0 : (l_over ? CAP : l_end);
        g_rot <= l_off[2:0];
        g_word <= l_off[16:3];
        g_len0 <= l_len0;
        g_sum0 <= l_sum0;
        g_hole <= l_hole && !l_bad;
        g_cut <= l_over && !l_hole && !l_bad;
        g_bad <= l_bad;
    end else if (l_v) begin
        g_word <= g_word + 1'b1;
    end
    if (rst) b_v <= 1'b0;
end

// ---- stage C: rotation, the carry, lane enables ----------------------------------------
// rotated lane j = payload byte (j - rot) mod 8; lanes >= rot are this beat's bytes of
// word g_word, lanes < rot go to the next word (the carry)
function [63:0] rotb(input [63:0] d, input [2:0] r);
    integer j, k;
    begin
        k = {29'd0, r};
        for (j = 0; j < 8; j = j + 1) rotb[8*j +: 8] = d[8*((j - k) & 7) +: 8];
    end
endfunction

function [7:0] lanes_ge(input [2:0] r);
    integer j;
    begin
        for (j = 0; j < 8; j = j + 1) lanes_ge[j] = j >= r;
    end
endfunction

reg          c_v = 1'b0, c_end = 1'b0;
reg [63:0]   c_word = 64'd0;
reg [7:0]    c_be = 8'd0;
reg [13:0]   c_widx = 14'd0;
reg [63:0]   carry = 64'd0;
reg          pend_flush = 1'b0;   // the last beat left a carry word to write

wire [63:0] b_rot = rotb(b_data, g_rot);
wire [7:0]  hi_mask = lanes_ge(g_rot);
// lane positions of the word being composed: this beat's word, or the next for the flush
wire [13:0] w_now = pend_flush ? c_widx + 1'b1 : g_word;
reg  [7:0]  en_w;
integer li;
always @* begin
    for (li = 0; li < 8; li = li + 1)
        en_w[li] = ({w_now, li[2:0]} >= g_lo) && ({w_now, li[2:0]} < g_hi);
end

always @(posedge clk) begin
    c_v <= 1'b0;
    c_end <= 1'b0;
    if (pend_flush) begin
        // the carry of the last beat: lanes < rot of the next word
        c_v <= 1'b1;
        c_end <= 1'b1;
        c_word <= carry;
        c_be <= en_w & ~hi_mask;
        c_widx <= w_now;
        pend_flush <= 1'b0;
    end else if (b_v) begin
        c_v <= 1'b1;
        c_word <= (b_rot & {{8{hi_mask[7]}}, {8{hi_mask[6]}}, {8{hi_mask[5]}}, {8{hi_mask[4]}},
                            {8{hi_mask[3]}}, {8{hi_mask[2]}}, {8{hi_mask[1]}}, {8{hi_mask[0]}}})
                | (carry & ~{{8{hi_mask[7]}}, {8{hi_mask[6]}}, {8{hi_mask[5]}}, {8{hi_mask[4]}},
                             {8{hi_mask[3]}}, {8{hi_mask[2]}}, {8{hi_mask[1]}}, {8{hi_mask[0]}}});
        // lanes < rot of a first beat lie before the segment: g_lo excludes them
        c_be <= en_w & (b_first ? hi_mask : 8'hff);
        c_widx <= g_word;
        carry <= b_rot;
        if (b_last) begin
            if (g_rot != 3'd0) pend_flush <= 1'b1;
            else c_end <= 1'b1;
        end
    end
    if (rst) begin
        c_v <= 1'b0;
        c_end <= 1'b0;
        pend_flush <= 1'b0;
    end
end

// b_v and pend_flush never meet: a beat of the next segment waits for the write-back

// ---- stage D: memory write, the word's sum ---------------------------------------------
reg [63:0] mem [0:NBUF*WPB-1];
reg        d_v = 1'b0, d_end = 1'b0;
reg [17:0] d_wsum = 18'd0;
reg [BA:0] d_hi = {BA+1{1'b0}};  // one past the highest position written in this word
reg        d_any = 1'b0;

wire [WA-1:0] c_addr = {g_buf, c_widx[BA-4:0]};
wire [63:0] c_masked = c_word & {{8{c_be[7]}}, {8{c_be[6]}}, {8{c_be[5]}}, {8{c_be[4]}},
                                 {8{c_be[3]}}, {8{c_be[2]}}, {8{c_be[1]}}, {8{c_be[0]}}};
// big-endian 16-bit words: lane 0 is the high byte of the first
wire [15:0] cw0 = {c_masked[7:0], c_masked[15:8]};
wire [15:0] cw1 = {c_masked[23:16], c_masked[31:24]};
wire [15:0] cw2 = {c_masked[39:32], c_masked[47:40]};
wire [15:0] cw3 = {c_masked[55:48], c_masked[63:56]};
reg  [3:0]  c_top;
integer ti;
always @* begin
    c_top = 4'd0;
    for (ti = 0; ti < 8; ti = ti + 1)
        if (c_be[ti]) c_top = ti[3:0] + 4'd1;
end

integer wi;
always @(posedge clk) begin
    if (c_v && c_be != 8'd0 && c_widx[13:BA-3] == {(17-BA){1'b0}}) begin
        for (wi = 0; wi < 8; wi = wi + 1)
            if (c_be[wi]) mem[c_addr][8*wi +: 8] <= c_word[8*wi +: 8];
    end
end

always @(posedge clk) begin
    d_v <= c_v;
    d_end <= c_end && c_v;
    d_wsum <= ({2'b00, cw0} + {2'b00, cw1}) + ({2'b00, cw2} + {2'b00, cw3});
    d_any <= c_be != 8'd0;
    d_hi <= {c_widx[BA-4:0], 3'd0} + {{BA-3{1'b0}}, c_top};
    if (rst) begin
        d_v <= 1'b0;
        d_end <= 1'b0;
    end
end

// ---- stage E: the segment's sum and extent; the write-back -----------------------------
reg [26:0] e_sum = 27'd0;
reg [BA:0] e_hi = {BA+1{1'b0}};
reg        e_any = 1'b0;
reg        e_seg_open = 1'b0;
reg [1:0]  wb_step = 2'd0;
reg [27:0] f_sum = 28'd0;

always @(posedge clk) begin
    wb_en <= 1'b0;
    res_valid <= 1'b0;
    if (d_v) begin
        e_sum <= (e_seg_open ? e_sum : 27'd0) + {9'd0, d_wsum};
        if (d_any) e_hi <= d_hi;
        e_any <= (e_seg_open ? e_any : 1'b0) | d_any;
        e_seg_open <= !d_end;
        if (d_end) wb_step <= 2'd1;
    end
    case (wb_step)
        2'd1: begin
            // fold 1: the previous sum plus the segment's
            f_sum <= {12'd0, g_sum0} + {1'b0, e_sum};
            wb_step <= 2'd2;
        end
        2'd2: begin
            // fold 2 and 3 (the carries of a 28-bit sum fit after two folds)
            wb_step <= 2'd0;
            wb_en <= !g_bad;
            wb_buf <= g_buf;
            wb_len <= e_any ? e_hi : g_len0;
            wb_sum <= fold16(f_sum);
            res_valid <= 1'b1;
            res_buf <= g_buf;
            res_len <= g_bad ? {BA+1{1'b0}} : e_any ? e_hi : g_len0;
            res_added <= e_any ? e_hi - g_len0 : {BA+1{1'b0}};
            res_hole <= g_hole;
            res_cut <= g_cut;
            res_bad <= g_bad;
        end
        default: ;
    endcase
    if (rst) begin
        wb_step <= 2'd0;
        e_seg_open <= 1'b0;
    end
end

function [15:0] fold16(input [27:0] x);
    reg [16:0] y;
    begin
        y = {5'd0, x[27:16]} + {1'b0, x[15:0]};
        fold16 = y[15:0] + {15'd0, y[16]};
    end
endfunction

// a segment is in flight from its first beat to its write-back
always @(posedge clk) begin
    if (acc && !in_seg) seg_busy <= 1'b1;
    if (wb_step == 2'd2) seg_busy <= 1'b0;
    if (rst) seg_busy <= 1'b0;
end

// ---- replay ----------------------------------------------------------------------------
localparam FD = 8;
reg          r_act = 1'b0;
reg [1:0]    r_start = 2'd0;          // the start's two steps: read the length, then count words
reg [IW-1:0] r_buf = {IW{1'b0}};
reg [BA-2:0] r_next = {BA-1{1'b0}};   // next word to read
reg [BA-2:0] r_words = {BA-1{1'b0}};  // words of the head (up to 2^(BA-3))
reg [WA-1:0] r_addr = {WA{1'b0}};
reg          r_rv = 1'b0, r_qv = 1'b0, r_rlast = 1'b0, r_qlast = 1'b0;
reg [63:0]   r_q = 64'd0;
reg [7:0]    r_lastkeep = 8'd0;
wire [$clog2(FD)+1:0] r_count;
assign rd_idle = !r_act && r_start == 2'd0 && init_done;

wire [BA-2:0] rd_words_now = {1'b0, rd_len[BA:3]} + {{BA-2{1'b0}}, rd_len[2:0] != 3'd0};
// credits: the FIFO holds FD + 2; at most 2 reads are in flight behind it (count + 3 <= FD + 2)
localparam [$clog2(FD)+1:0] RLIM = FD - 1;
wire r_issue = r_act && r_next != r_words && r_count < RLIM;

always @(posedge clk) begin
    r_rv <= 1'b0;
    if (rd_start && rd_idle) begin
        r_buf <= rd_buf;
        r_start <= 2'd1;
    end
    if (r_start == 2'd1) begin
        // the buffer's length and sum, registered
        rd_len <= len_mem[r_buf];
        rd_sum <= sum_mem[r_buf];
        r_start <= 2'd2;
    end
    if (r_start == 2'd2) begin
        r_next <= {BA-1{1'b0}};
        r_words <= rd_words_now;
        r_act <= rd_words_now != {BA-1{1'b0}};
        r_lastkeep <= rd_len[2:0] == 3'd0 ? 8'hff : ~(8'hff << rd_len[2:0]);
        r_start <= 2'd0;
    end
    if (r_issue) begin
        r_addr <= {r_buf, r_next[BA-4:0]};
        r_rv <= 1'b1;
        r_rlast <= r_next + 1'b1 == r_words;
        r_next <= r_next + 1'b1;
        if (r_next + 1'b1 == r_words) r_act <= 1'b0;
    end
    if (rst) begin
        r_act <= 1'b0;
        r_start <= 2'd0;
        r_rv <= 1'b0;
    end
end

always @(posedge clk) begin
    r_q <= mem[r_addr];
    r_qv <= r_rv;
    r_qlast <= r_rlast;
    if (rst) r_qv <= 1'b0;
end

wire [72:0] r_out;
// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(73),
    .DEPTH(FD)
) rd_fifo (
    .clk(clk),
    .rst(rst),
    .s_data({r_qlast, r_qlast ? r_lastkeep : 8'hff, r_q}),
    .s_valid(r_qv),
    .s_ready(),
    .m_data(r_out),
    .m_valid(m_valid),
    .m_ready(m_ready),
    .count(r_count)
);
// verilator lint_on PINCONNECTEMPTY
assign {m_last, m_keep, m_data} = r_out;

endmodule

`resetall
