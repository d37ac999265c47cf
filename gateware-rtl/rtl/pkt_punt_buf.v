// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Punt buffer: frames the data path hands to the firmware, stored with their metadata in
 * a ring of SLOTS fixed-size slots (SLOT_BYTES each, default 2 KiB) that the firmware reads.
 *
 * Input: AXI-Stream frame (s_axis_*, byte 0 in tdata[7:0], tkeep contiguous from lane 0,
 * all ones except on the last beat) and s_meta (META_WIDTH bits of sideband: port, parse
 * reason, flow id, match result ... as the data path packs it), sampled on the last beat.
 * s_axis_tuser on any beat is kept as flag bit 0 of the slot. s_axis_tready is always 1:
 * the input never stalls. A frame is committed (producer index advanced) only after its
 * last beat, so the firmware never sees a partial frame. Frames arriving when the ring
 * is full (checked at the first beat) are dropped whole and counted (stat_drop_full);
 * frames longer than SLOT_BYTES are dropped and counted (stat_drop_long).
 *
 * Reserve: s_axis_tlow, sampled with the first beat, marks a low-priority frame. The last
 * RESERVE slots are kept for the other frames: a low-priority frame arriving when
 * used >= SLOTS - RESERVE (but the ring is not full) is dropped whole and counted in
 * stat_drop_low; when the ring is really full it counts in stat_drop_full like any other
 * frame. RESERVE = 0 (the default) gives every frame the whole ring (stat_drop_low stays
 * 0). What is low priority is the instantiating block's choice (splice_datapath: TCP SYN
 * without ACK, i.e. new connection attempts).
 *
 * Firmware side (CSR block):
 *   prod_idx, cons_idx: ring indices modulo 2*SLOTS (slot = index mod SLOTS); slots
 *     cons_idx .. prod_idx-1 hold frames. count = prod_idx - cons_idx.
 *   cons_wr + cons_val: the firmware frees slots by writing its new consumer index; a
 *     value outside [cons_idx, prod_idx] is ignored and counted (stat_bad_cons).
 *   Read port (32-bit): rd_valid, rd_desc, rd_slot, rd_word -> rd_data_valid, rd_data two
 *     cycles later (pipelined, one read per cycle).
 *     rd_desc = 1: descriptor word rd_word: word 0 = {15'b0, tuser flag, 16-bit length in
 *       bytes}; words 1.. = s_meta[32*(w-1) +: 32]; words past the metadata read 0.
 *     rd_desc = 0: data word rd_word = frame bytes 4*rd_word .. 4*rd_word+3, little
 *       endian (byte 4*w in rd_data[7:0]); bytes past the length are undefined.
 *   commit_valid pulses with commit_slot for every committed frame (for the event queue).
 * Status: stat_frames (committed), stat_drop_full, stat_drop_low, stat_drop_long,
 * stat_bad_cons.
 */
module pkt_punt_buf #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Number of slots (power of two)
    parameter SLOTS = 16,
    // Bytes per slot (power of two, multiple of KEEP_WIDTH, at most 16384)
    parameter SLOT_BYTES = 2048,
    // Metadata width (multiple of 32; the data path's punt record PuntMeta by default)
    parameter META_WIDTH = `SNIC_PUNT_META_W,
    // Slots low-priority frames (s_axis_tlow) may not take (0 .. SLOTS-1)
    parameter RESERVE = 0,
    parameter SLOT_BITS = $clog2(SLOTS),
    parameter WORD_BITS = $clog2(SLOT_BYTES / 4)
)
(
    input  wire                   clk,
    input  wire                   rst,

    input  wire [DATA_WIDTH-1:0]  s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]  s_axis_tkeep,
    input  wire                   s_axis_tvalid,
    output wire                   s_axis_tready,
    input  wire                   s_axis_tlast,
    input  wire                   s_axis_tuser,
    input  wire                   s_axis_tlow,
    input  wire [META_WIDTH-1:0]  s_meta,

    output wire [SLOT_BITS:0]     prod_idx,
    output wire [SLOT_BITS:0]     cons_idx,
    input  wire                   cons_wr,
    input  wire [SLOT_BITS:0]     cons_val,

    input  wire                   rd_valid,
    input  wire                   rd_desc,
    input  wire [SLOT_BITS-1:0]   rd_slot,
    input  wire [WORD_BITS-1:0]   rd_word,
    output wire                   rd_data_valid,
    output wire [31:0]            rd_data,

    output wire                   commit_valid,
    output wire [SLOT_BITS-1:0]   commit_slot,

    output wire [31:0]            stat_frames,
    output wire [31:0]            stat_drop_full,
    output wire [31:0]            stat_drop_low,
    output wire [31:0]            stat_drop_long,
    output wire [31:0]            stat_bad_cons
);

localparam BEATS = SLOT_BYTES / KEEP_WIDTH;
localparam BEAT_BITS = BEATS > 1 ? $clog2(BEATS) : 1;
localparam LANES32 = DATA_WIDTH / 32;
localparam LANE_BITS = LANES32 > 1 ? $clog2(LANES32) : 1;
localparam META_WORDS = META_WIDTH / 32;
localparam KEEP_BITS = $clog2(KEEP_WIDTH);
// ring occupancy from which low-priority frames are dropped
localparam integer LOW_LIMIT = SLOTS - RESERVE;

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
    if (META_WIDTH < 32 || META_WIDTH % 32 != 0 || META_WORDS >= (1 << WORD_BITS)) begin
        $error("Error: META_WIDTH must be a multiple of 32 and fit the word index (instance %m)");
        $finish;
    end
    if (RESERVE < 0 || RESERVE >= SLOTS) begin
        $error("Error: RESERVE must be 0..SLOTS-1 (instance %m)");
        $finish;
    end
end

assign s_axis_tready = 1'b1;

// Storage
reg [DATA_WIDTH-1:0] data_mem [0:SLOTS*BEATS-1];
reg [15:0]           len_mem [0:SLOTS-1];
reg                  flag_mem [0:SLOTS-1];
reg [META_WIDTH-1:0] meta_mem [0:SLOTS-1];

reg [SLOT_BITS:0]  prod_reg = {SLOT_BITS+1{1'b0}};
reg [SLOT_BITS:0]  cons_reg = {SLOT_BITS+1{1'b0}};
reg                in_frame_reg = 1'b0;   // inside a frame (after its first beat)
reg                drop_reg = 1'b0;       // current frame is being dropped
reg                user_reg = 1'b0;
reg [BEAT_BITS:0]  beat_reg = {BEAT_BITS+1{1'b0}};
reg                commit_reg = 1'b0;
reg [SLOT_BITS-1:0] commit_slot_reg = {SLOT_BITS{1'b0}};
reg [31:0] frames_reg = 32'd0, drop_full_reg = 32'd0, drop_long_reg = 32'd0, bad_cons_reg = 32'd0;
reg [31:0] drop_low_reg = 32'd0;

assign prod_idx = prod_reg;
assign cons_idx = cons_reg;
assign commit_valid = commit_reg;
assign commit_slot = commit_slot_reg;
assign stat_frames = frames_reg;
assign stat_drop_full = drop_full_reg;
assign stat_drop_low = drop_low_reg;
assign stat_drop_long = drop_long_reg;
assign stat_bad_cons = bad_cons_reg;

wire [SLOT_BITS:0] used = prod_reg - cons_reg;
wire               full = used[SLOT_BITS];
// the reserve is taken: no room for a low-priority frame (never with RESERVE = 0)
wire               low_full = !full && used >= LOW_LIMIT[SLOT_BITS:0];
wire               beat = s_axis_tvalid;
wire               first = beat && !in_frame_reg;
wire               drop_low_now = first && s_axis_tlow && low_full;
wire               drop_now = first ? full || drop_low_now : drop_reg;
wire               user_now = (first ? 1'b0 : user_reg) | s_axis_tuser;

// bytes in the last beat: count of tkeep ones (contiguous from lane 0)
reg [KEEP_BITS:0] last_bytes;
integer b;
always @* begin
    last_bytes = {KEEP_BITS+1{1'b0}};
    for (b = 0; b < KEEP_WIDTH; b = b + 1) begin
        if (s_axis_tkeep[b]) begin
            last_bytes = b[KEEP_BITS:0] + 1'b1;
        end
    end
end

wire [BEAT_BITS:0] beat_idx = first ? {BEAT_BITS+1{1'b0}} : beat_reg;
wire               over = beat_idx[BEAT_BITS];
wire [15:0]        frame_len = {{(15-BEAT_BITS-KEEP_BITS){1'b0}}, beat_idx, {KEEP_BITS{1'b0}}} +
                               {{(15-KEEP_BITS){1'b0}}, last_bytes};
wire [SLOT_BITS-1:0] wslot = prod_reg[SLOT_BITS-1:0];

// consumer index check: cons_val - cons_reg <= prod_reg - cons_reg
wire [SLOT_BITS:0] cons_adv = cons_val - cons_reg;
wire               cons_ok = cons_adv <= used;

always @(posedge clk) begin
    commit_reg <= 1'b0;
    if (beat) begin
        in_frame_reg <= !s_axis_tlast;
        drop_reg <= drop_now;
        user_reg <= user_now;
        beat_reg <= over ? beat_idx : beat_idx + 1'b1;
        if (!drop_now && !over) begin
            data_mem[{wslot, beat_idx[BEAT_BITS-1:0]}] <= s_axis_tdata;
        end
        if (first && full) begin
            drop_full_reg <= drop_full_reg + 1'b1;
        end
        if (drop_low_now) begin
            drop_low_reg <= drop_low_reg + 1'b1;
        end
        if (s_axis_tlast && !drop_now) begin
            if (over) begin
                drop_long_reg <= drop_long_reg + 1'b1;
            end else begin
                len_mem[wslot] <= frame_len;
                flag_mem[wslot] <= user_now;
                meta_mem[wslot] <= s_meta;
                prod_reg <= prod_reg + 1'b1;
                frames_reg <= frames_reg + 1'b1;
                commit_reg <= 1'b1;
                commit_slot_reg <= wslot;
            end
        end
    end
    if (cons_wr) begin
        if (cons_ok) begin
            cons_reg <= cons_val;
        end else begin
            bad_cons_reg <= bad_cons_reg + 1'b1;
        end
    end
    if (rst) begin
        prod_reg <= {SLOT_BITS+1{1'b0}};
        cons_reg <= {SLOT_BITS+1{1'b0}};
        in_frame_reg <= 1'b0;
        drop_reg <= 1'b0;
        commit_reg <= 1'b0;
        frames_reg <= 32'd0;
        drop_full_reg <= 32'd0;
        drop_low_reg <= 32'd0;
        drop_long_reg <= 32'd0;
        bad_cons_reg <= 32'd0;
    end
end

// Read port: stage 1 reads the RAMs, stage 2 selects the 32-bit word.
reg                  r1_valid_reg = 1'b0, r2_valid_reg = 1'b0;
reg                  r1_desc_reg = 1'b0;
reg [WORD_BITS-1:0]  r1_word_reg = {WORD_BITS{1'b0}};
reg [DATA_WIDTH-1:0] r1_data_reg = {DATA_WIDTH{1'b0}};
reg [15:0]           r1_len_reg = 16'd0;
reg                  r1_flag_reg = 1'b0;
reg [META_WIDTH-1:0] r1_meta_reg = {META_WIDTH{1'b0}};
reg [31:0]           r2_data_reg = 32'd0;

wire [BEAT_BITS-1:0] rd_beat_word = rd_word[WORD_BITS-1:LANE_BITS];
wire [LANE_BITS-1:0] r1_lane = LANES32 > 1 ? r1_word_reg[LANE_BITS-1:0] : {LANE_BITS{1'b0}};

always @(posedge clk) begin
    r1_valid_reg <= rd_valid;
    r1_desc_reg <= rd_desc;
    r1_word_reg <= rd_word;
    r1_data_reg <= data_mem[{rd_slot, rd_beat_word}];
    r1_len_reg <= len_mem[rd_slot];
    r1_flag_reg <= flag_mem[rd_slot];
    r1_meta_reg <= meta_mem[rd_slot];
    r2_valid_reg <= r1_valid_reg;
    if (r1_desc_reg) begin
        if (r1_word_reg == {WORD_BITS{1'b0}}) begin
            r2_data_reg <= {15'd0, r1_flag_reg, r1_len_reg};
        end else if (r1_word_reg <= META_WORDS[WORD_BITS-1:0]) begin
            r2_data_reg <= r1_meta_reg[(r1_word_reg - 1'b1) * 32 +: 32];
        end else begin
            r2_data_reg <= 32'd0;
        end
    end else begin
        r2_data_reg <= r1_data_reg[r1_lane * 32 +: 32];
    end
    if (rst) begin
        r1_valid_reg <= 1'b0;
        r2_valid_reg <= 1'b0;
    end
end

assign rd_data_valid = r2_valid_reg;
assign rd_data = r2_data_reg;

endmodule

`resetall
