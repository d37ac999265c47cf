// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Inject buffer: the firmware builds frames in a ring of SLOTS slots (SLOT_BYTES each),
 * commits them, and the module streams them out on m_axis_* at one beat per cycle,
 * back-to-back, optionally inserting a freshly computed IPv4 header checksum and TCP
 * checksum (checksum offload: a full computation, the firmware built the packet).
 *
 * Firmware side (CSR block):
 *   prod_idx, cons_idx: ring indices modulo 2*SLOTS. The firmware writes the next frame
 *     into slot prod_idx mod SLOTS (only that slot, and only while commit_ready), then
 *     commits it. A slot is free again once cons_idx has passed it.
 *   Word write port: wr_valid, wr_slot, wr_word, wr_data: frame bytes 4*wr_word ..
 *     4*wr_word+3, little endian (byte 4*w in wr_data[7:0]).
 *   Commit: commit_valid && commit_ready queues slot prod_idx with
 *     commit_len (bytes, 1..SLOT_BYTES), commit_csum_ip / commit_csum_tcp (offload
 *     requests), commit_ip_off (IPv4 header offset in the frame), commit_l4_off (TCP header
 *     offset = ip_off + 4*IHL), commit_l4_end (end of the TCP segment = ip_off + IPv4 total
 *     length; less than len when the frame carries Ethernet padding).
 *     IPv4 checksum: over [ip_off, l4_off) with the field at ip_off+10 taken as zero,
 *       written at ip_off+10.
 *     TCP checksum: pseudo-header (addresses at ip_off+12..19, protocol byte at ip_off+9,
 *       length l4_end - l4_off) + [l4_off, l4_end) with the field at l4_off+16 taken as
 *       zero, written at l4_off+16. Any offsets (odd too) are handled.
 *     A commit with a bad length or bad offsets (for a requested checksum: ip_off + 20 <=
 *     l4_off, l4_off + 20 <= l4_end <= len) is not queued; it is counted in
 *     stat_bad_commit (commit_ready still acknowledges it).
 *   done_valid pulses when the last beat of a frame leaves m_axis.
 *
 * Pipeline: a checksum pass reads each committed slot once (one beat per cycle, frames
 * back-to-back, running ahead of the output), then the output stage reads it again and
 * inserts the checksums (second RAM read port). Frames whose pass is done leave
 * back-to-back at one beat per cycle (a 4-entry output FIFO keeps full rate under
 * m_axis_tready). Latency commit -> first beat: L + 6 cycles for a frame of L beats. Limit:
 * the pass runs at the output's rate, so a frame longer than all the frames queued before
 * it waits for its own pass (gap <= its length minus theirs, + 4 cycles); with frames
 * written by the firmware at one 32-bit word per cycle the pass is never the bottleneck.
 * Status: stat_frames (frames sent), stat_bad_commit.
 */
module pkt_inject_buf #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Number of slots (power of two)
    parameter SLOTS = 8,
    // Bytes per slot (power of two, 2*KEEP_WIDTH..16384)
    parameter SLOT_BYTES = 2048,
    parameter SLOT_BITS = $clog2(SLOTS),
    parameter WORD_BITS = $clog2(SLOT_BYTES / 4)
)
(
    input  wire                   clk,
    input  wire                   rst,

    input  wire                   wr_valid,
    input  wire [SLOT_BITS-1:0]   wr_slot,
    input  wire [WORD_BITS-1:0]   wr_word,
    input  wire [31:0]            wr_data,

    input  wire                   commit_valid,
    output wire                   commit_ready,
    input  wire [15:0]            commit_len,
    input  wire                   commit_csum_ip,
    input  wire                   commit_csum_tcp,
    input  wire [15:0]            commit_ip_off,
    input  wire [15:0]            commit_l4_off,
    input  wire [15:0]            commit_l4_end,

    output wire [SLOT_BITS:0]     prod_idx,
    output wire [SLOT_BITS:0]     cons_idx,

    output wire [DATA_WIDTH-1:0]  m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]  m_axis_tkeep,
    output wire                   m_axis_tvalid,
    input  wire                   m_axis_tready,
    output wire                   m_axis_tlast,
    output wire                   m_axis_tuser,

    output wire                   done_valid,
    output wire [31:0]            stat_frames,
    output wire [31:0]            stat_bad_commit
);

localparam BEATS = SLOT_BYTES / KEEP_WIDTH;
localparam BEAT_BITS = $clog2(BEATS);
localparam LANES32 = DATA_WIDTH / 32;
localparam LANE_BITS = LANES32 > 1 ? $clog2(LANES32) : 1;
localparam KEEP_BITS = $clog2(KEEP_WIDTH);

initial begin
    if (DATA_WIDTH < 64 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a power of two >= 64, KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if ((SLOTS & (SLOTS - 1)) != 0 || SLOTS < 2 || (1 << SLOT_BITS) != SLOTS) begin
        $error("Error: SLOTS must be a power of two >= 2 (instance %m)");
        $finish;
    end
    if ((SLOT_BYTES & (SLOT_BYTES - 1)) != 0 || SLOT_BYTES < 2 * KEEP_WIDTH || SLOT_BYTES > 16384 ||
            (1 << WORD_BITS) != SLOT_BYTES / 4) begin
        $error("Error: SLOT_BYTES must be a power of two, 2*KEEP_WIDTH..16384 (instance %m)");
        $finish;
    end
end

// ------------------------------------------------------------------------------------
// Descriptors and ring pointers

reg [15:0] len_mem [0:SLOTS-1];
reg [15:0] ipo_mem [0:SLOTS-1];
reg [15:0] l4o_mem [0:SLOTS-1];
reg [15:0] l4e_mem [0:SLOTS-1];
reg        eip_mem [0:SLOTS-1];
reg        etcp_mem [0:SLOTS-1];
reg [15:0] csip_mem [0:SLOTS-1];
reg [15:0] cstcp_mem [0:SLOTS-1];

reg [SLOT_BITS:0] prod_reg = {SLOT_BITS+1{1'b0}};   // committed
reg [SLOT_BITS:0] cidx_reg = {SLOT_BITS+1{1'b0}};   // checksum pass issuing
reg [SLOT_BITS:0] cdone_reg = {SLOT_BITS+1{1'b0}};  // checksums written
reg [SLOT_BITS:0] strm_reg = {SLOT_BITS+1{1'b0}};   // output issuing (= consumer)
reg [31:0]        frames_reg = 32'd0, bad_reg = 32'd0;

wire [SLOT_BITS:0] used = prod_reg - strm_reg;
assign commit_ready = !used[SLOT_BITS];
assign prod_idx = prod_reg;
assign cons_idx = strm_reg;
assign stat_frames = frames_reg;
assign stat_bad_commit = bad_reg;

wire len_ok = commit_len != 16'd0 && commit_len <= SLOT_BYTES;
wire ip_ok = !commit_csum_ip ||
             ({1'b0, commit_ip_off} + 17'd20 <= {1'b0, commit_l4_off} && commit_l4_off <= commit_len);
wire tcp_ok = !commit_csum_tcp ||
              ({1'b0, commit_ip_off} + 17'd20 <= {1'b0, commit_l4_off} &&
               {1'b0, commit_l4_off} + 17'd20 <= {1'b0, commit_l4_end} && commit_l4_end <= commit_len);

always @(posedge clk) begin
    if (commit_valid && commit_ready) begin
        if (len_ok && ip_ok && tcp_ok) begin
            len_mem[prod_reg[SLOT_BITS-1:0]] <= commit_len;
            ipo_mem[prod_reg[SLOT_BITS-1:0]] <= commit_ip_off;
            l4o_mem[prod_reg[SLOT_BITS-1:0]] <= commit_l4_off;
            l4e_mem[prod_reg[SLOT_BITS-1:0]] <= commit_l4_end;
            eip_mem[prod_reg[SLOT_BITS-1:0]] <= commit_csum_ip;
            etcp_mem[prod_reg[SLOT_BITS-1:0]] <= commit_csum_tcp;
            prod_reg <= prod_reg + 1'b1;
        end else begin
            bad_reg <= bad_reg + 1'b1;
        end
    end
    if (rst) begin
        prod_reg <= {SLOT_BITS+1{1'b0}};
        bad_reg <= 32'd0;
    end
end

// ------------------------------------------------------------------------------------
// Read issue of the checksum pass and of the output (see below)
localparam FIFO_DEPTH = 4;

reg  [2:0]  fifo_cnt_reg = 3'd0;
reg         s1_valid_reg = 1'b0;
wire        c_issue = cidx_reg != prod_reg;
wire        s_issue = strm_reg != cdone_reg &&
                      ({1'b0, fifo_cnt_reg} + {3'd0, s1_valid_reg}) < FIFO_DEPTH;

// ------------------------------------------------------------------------------------
// Data RAM: LANES32 banks of 32-bit words, one write port, two read ports

reg  [SLOT_BITS+BEAT_BITS-1:0] ca_addr, sa_addr;
wire [DATA_WIDTH-1:0]          c_rd, s_rd;
wire [SLOT_BITS+BEAT_BITS-1:0] wa_addr = {wr_slot, wr_word[WORD_BITS-1:LANE_BITS]};

genvar l;
generate
for (l = 0; l < LANES32; l = l + 1) begin : lane
    reg [31:0] mem [0:SLOTS*BEATS-1];
    reg [31:0] c_reg = 32'd0, s_reg = 32'd0;
    // (read ports: the data is used only for the beat read, one cycle later)
    always @(posedge clk) begin
        if (wr_valid && wr_word[LANE_BITS-1:0] == l) begin
            mem[wa_addr] <= wr_data;
        end
        if (c_issue) begin
            c_reg <= mem[ca_addr];
        end
        if (s_issue) begin
            s_reg <= mem[sa_addr];
        end
    end
    assign c_rd[l*32 +: 32] = c_reg;
    assign s_rd[l*32 +: 32] = s_reg;
end
endgenerate

// ------------------------------------------------------------------------------------
// Checksum pass. A: issue beat reads; B: per-beat masked byte sums; C: accumulate;
// D: fold, finalise, write the slot's checksums.

reg [BEAT_BITS-1:0] cbeat_reg = {BEAT_BITS{1'b0}};
wire [SLOT_BITS-1:0] cslot = cidx_reg[SLOT_BITS-1:0];
wire [15:0]          c_end = ({{(16-BEAT_BITS){1'b0}}, cbeat_reg} + 16'd1) << KEEP_BITS;
wire                 c_last = c_end >= len_mem[cslot];

reg                 b_valid_reg = 1'b0, b_first_reg = 1'b0, b_last_reg = 1'b0;
reg [SLOT_BITS-1:0] b_slot_reg = {SLOT_BITS{1'b0}};
reg [15:0]          b_base_reg = 16'd0;

always @* begin
    ca_addr = {cslot, cbeat_reg};
end

// (the pass's stage registers are loaded only for a beat read: nothing reads them otherwise)
always @(posedge clk) begin
    b_valid_reg <= c_issue;
    if (c_issue) begin
        b_first_reg <= cbeat_reg == {BEAT_BITS{1'b0}};
        b_last_reg <= c_last;
        b_slot_reg <= cslot;
        b_base_reg <= {{(16-BEAT_BITS){1'b0}}, cbeat_reg} << KEEP_BITS;
        if (c_last) begin
            cbeat_reg <= {BEAT_BITS{1'b0}};
            cidx_reg <= cidx_reg + 1'b1;
        end else begin
            cbeat_reg <= cbeat_reg + 1'b1;
        end
    end
    if (rst) begin
        b_valid_reg <= 1'b0;
        cbeat_reg <= {BEAT_BITS{1'b0}};
        cidx_reg <= {SLOT_BITS+1{1'b0}};
    end
end

// Stage B: masks. Byte j of a beat is at frame offset base + j; j even = high byte of an
// even-aligned 16-bit word (KEEP_WIDTH is even), so sums are taken with even = high.

// {IPv4 sum, TCP sum} of the checksum-covered bytes of a beat
function [63:0] beat_sums(input [DATA_WIDTH-1:0] d, input [15:0] base, input [15:0] ipo,
                          input [15:0] l4o, input [15:0] l4e, input eip, input etcp);
    reg [31:0] ip_sum, tcp_sum;
    reg [15:0] pos;
    reg [31:0] byte_val;
    integer    j;
    begin
        ip_sum = 32'd0;
        tcp_sum = 32'd0;
        for (j = 0; j < KEEP_WIDTH; j = j + 1) begin
            pos = base + j[15:0];
            byte_val = {24'd0, d[j*8 +: 8]};
            if (j % 2 == 0) begin
                byte_val = byte_val << 8;
            end
            if (eip && pos >= ipo && pos < l4o && pos != ipo + 16'd10 && pos != ipo + 16'd11) begin
                ip_sum = ip_sum + byte_val;
            end
            if (etcp && ((pos >= l4o && pos < l4e && pos != l4o + 16'd16 && pos != l4o + 16'd17) ||
                         (pos >= ipo + 16'd12 && pos < ipo + 16'd20) || pos == ipo + 16'd9)) begin
                tcp_sum = tcp_sum + byte_val;
            end
        end
        beat_sums = {ip_sum, tcp_sum};
    end
endfunction

reg                 cc_valid_reg = 1'b0, cc_first_reg = 1'b0, cc_last_reg = 1'b0;
reg [SLOT_BITS-1:0] cc_slot_reg = {SLOT_BITS{1'b0}};
reg [31:0]          cc_ip_reg = 32'd0, cc_tcp_reg = 32'd0;
reg [31:0]          acc_ip_reg = 32'd0, acc_tcp_reg = 32'd0;
reg                 d_valid_reg = 1'b0;
reg [SLOT_BITS-1:0] d_slot_reg = {SLOT_BITS{1'b0}};
reg [31:0]          d_ip_reg = 32'd0, d_tcp_reg = 32'd0;

wire [31:0] ip_tot = (cc_first_reg ? 32'd0 : acc_ip_reg) + cc_ip_reg;
wire [31:0] tcp_tot = (cc_first_reg ? 32'd0 : acc_tcp_reg) + cc_tcp_reg;

always @(posedge clk) begin
    cc_valid_reg <= b_valid_reg;
    if (b_valid_reg) begin
        cc_first_reg <= b_first_reg;
        cc_last_reg <= b_last_reg;
        cc_slot_reg <= b_slot_reg;
        {cc_ip_reg, cc_tcp_reg} <= beat_sums(c_rd, b_base_reg, ipo_mem[b_slot_reg],
                                             l4o_mem[b_slot_reg], l4e_mem[b_slot_reg],
                                             eip_mem[b_slot_reg], etcp_mem[b_slot_reg]);
    end
    d_valid_reg <= cc_valid_reg && cc_last_reg;
    if (cc_valid_reg) begin
        if (cc_last_reg) begin
            d_slot_reg <= cc_slot_reg;
            d_ip_reg <= ip_tot;
            d_tcp_reg <= tcp_tot;
        end
        acc_ip_reg <= ip_tot;
        acc_tcp_reg <= tcp_tot;
    end
    if (rst) begin
        cc_valid_reg <= 1'b0;
        d_valid_reg <= 1'b0;
    end
end

// Stage D: fold to 16 bits, swap to the header's alignment if ip_off is odd, finalise.
function [15:0] fold_rel(input [31:0] sum, input odd);
    reg [16:0] f1;
    reg [15:0] f2;
    begin
        f1 = {1'b0, sum[15:0]} + {1'b0, sum[31:16]};
        f2 = f1[15:0] + {15'd0, f1[16]};
        fold_rel = odd ? {f2[7:0], f2[15:8]} : f2;
    end
endfunction

// the TCP checksum field: the segment length (pseudo-header) added
function [15:0] tcp_final(input [15:0] rel, input [15:0] tcp_len);
    reg [16:0] f3;
    begin
        f3 = {1'b0, rel} + {1'b0, tcp_len};
        tcp_final = ~(f3[15:0] + {15'd0, f3[16]});
    end
endfunction

always @(posedge clk) begin
    if (d_valid_reg) begin
        csip_mem[d_slot_reg] <= ~fold_rel(d_ip_reg, ipo_mem[d_slot_reg][0]);
        cstcp_mem[d_slot_reg] <= tcp_final(fold_rel(d_tcp_reg, ipo_mem[d_slot_reg][0]),
                                           l4e_mem[d_slot_reg] - l4o_mem[d_slot_reg]);
        cdone_reg <= cdone_reg + 1'b1;
    end
    if (rst) begin
        cdone_reg <= {SLOT_BITS+1{1'b0}};
    end
end

// ------------------------------------------------------------------------------------
// Output: S0 issues beat reads of frames whose checksums are done; S1 inserts the
// checksums and pushes into a 4-entry output FIFO.

reg [BEAT_BITS-1:0]  sbeat_reg = {BEAT_BITS{1'b0}};
wire [SLOT_BITS-1:0] sslot = strm_reg[SLOT_BITS-1:0];
wire [15:0]          s_end = ({{(16-BEAT_BITS){1'b0}}, sbeat_reg} + 16'd1) << KEEP_BITS;
wire                 s_last = s_end >= len_mem[sslot];

reg                  s1_last_reg = 1'b0;
reg [SLOT_BITS-1:0]  s1_slot_reg = {SLOT_BITS{1'b0}};
reg [15:0]           s1_base_reg = 16'd0;

reg [DATA_WIDTH-1:0] fifo_data [0:FIFO_DEPTH-1];
reg [KEEP_WIDTH-1:0] fifo_keep [0:FIFO_DEPTH-1];
reg                  fifo_last [0:FIFO_DEPTH-1];
reg [1:0]            fifo_wr_reg = 2'd0, fifo_rd_reg = 2'd0;
reg                  done_reg = 1'b0;


always @* begin
    sa_addr = {sslot, sbeat_reg};
end


// the beat read for the output, checksums inserted
function [DATA_WIDTH-1:0] out_data(input [DATA_WIDTH-1:0] d, input [15:0] base,
                                   input [15:0] ipo, input [15:0] l4o, input eip, input etcp,
                                   input [15:0] csip, input [15:0] cstcp);
    reg [15:0] spos;
    integer    n;
    begin
        out_data = d;
        for (n = 0; n < KEEP_WIDTH; n = n + 1) begin
            spos = base + n[15:0];
            if (eip && spos == ipo + 16'd10) out_data[n*8 +: 8] = csip[15:8];
            if (eip && spos == ipo + 16'd11) out_data[n*8 +: 8] = csip[7:0];
            if (etcp && spos == l4o + 16'd16) out_data[n*8 +: 8] = cstcp[15:8];
            if (etcp && spos == l4o + 16'd17) out_data[n*8 +: 8] = cstcp[7:0];
        end
    end
endfunction

// its tkeep: the bytes below the frame length
function [KEEP_WIDTH-1:0] out_keep(input [15:0] base, input [15:0] len);
    reg [15:0] spos;
    integer    n;
    begin
        for (n = 0; n < KEEP_WIDTH; n = n + 1) begin
            spos = base + n[15:0];
            out_keep[n] = spos < len;
        end
    end
endfunction

wire fifo_pop = m_axis_tvalid && m_axis_tready;

always @(posedge clk) begin
    done_reg <= fifo_pop && fifo_last[fifo_rd_reg];
    s1_valid_reg <= s_issue;
    if (s_issue) begin
        s1_last_reg <= s_last;
        s1_slot_reg <= sslot;
        s1_base_reg <= {{(16-BEAT_BITS){1'b0}}, sbeat_reg} << KEEP_BITS;
        if (s_last) begin
            sbeat_reg <= {BEAT_BITS{1'b0}};
            strm_reg <= strm_reg + 1'b1;
        end else begin
            sbeat_reg <= sbeat_reg + 1'b1;
        end
    end
    if (s1_valid_reg) begin
        fifo_data[fifo_wr_reg] <= out_data(s_rd, s1_base_reg, ipo_mem[s1_slot_reg],
                                           l4o_mem[s1_slot_reg], eip_mem[s1_slot_reg],
                                           etcp_mem[s1_slot_reg], csip_mem[s1_slot_reg],
                                           cstcp_mem[s1_slot_reg]);
        fifo_keep[fifo_wr_reg] <= out_keep(s1_base_reg, len_mem[s1_slot_reg]);
        fifo_last[fifo_wr_reg] <= s1_last_reg;
        fifo_wr_reg <= fifo_wr_reg + 1'b1;
    end
    if (fifo_pop) begin
        fifo_rd_reg <= fifo_rd_reg + 1'b1;
        if (fifo_last[fifo_rd_reg]) begin
            frames_reg <= frames_reg + 1'b1;
        end
    end
    fifo_cnt_reg <= fifo_cnt_reg + {2'd0, s1_valid_reg} - {2'd0, fifo_pop};
    if (rst) begin
        done_reg <= 1'b0;
        s1_valid_reg <= 1'b0;
        sbeat_reg <= {BEAT_BITS{1'b0}};
        strm_reg <= {SLOT_BITS+1{1'b0}};
        fifo_wr_reg <= 2'd0;
        fifo_rd_reg <= 2'd0;
        fifo_cnt_reg <= 3'd0;
        frames_reg <= 32'd0;
    end
end

assign m_axis_tvalid = fifo_cnt_reg != 3'd0;
assign m_axis_tdata = fifo_data[fifo_rd_reg];
assign m_axis_tkeep = fifo_keep[fifo_rd_reg];
assign m_axis_tlast = fifo_last[fifo_rd_reg];
assign m_axis_tuser = 1'b0;
assign done_valid = done_reg;

endmodule

`resetall
