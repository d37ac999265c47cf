// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Statistics block: COUNTERS 64-bit counters in RAM, incremented by up to INPUTS events per
 * cycle, read by the firmware / host as a consistent snapshot.
 *
 * Counter index map (a convention of the card, the block itself only sees indices;
 * splice_datapath uses COUNTERS = 512, docs/datapath.md has the details):
 *     0..15    per Ethernet port: rx / tx frames and bytes, forwarded / punted / dropped
 *    16..79    per virtual service (32 services x {frames, bytes})
 *    80..207   per real server, both directions (64 servers x {frames, bytes})
 *   208..255   per drop reason (parser reasons, classifier reasons)
 *   256..511   per real server and direction (64 servers x {frames, bytes} x
 *              {client to server, server to client})
 *
 * Increment inputs (data path, no back-pressure, one event per input per cycle):
 *   inc_valid[k], inc_idx[k*IDX_BITS +: IDX_BITS], inc_amount[k*INC_WIDTH +: INC_WIDTH]
 *   (amount 1 for a packet count, a byte count up to 2^INC_WIDTH-1). Several inputs may
 *   name the same counter in the same cycle, and any input may name the same counter on
 *   back-to-back cycles: nothing is lost.
 *
 * Structure: one RAM bank per input k (live_k, snap_k: COUNTERS x 64 bits each, plus
 * 3 x COUNTERS flag flip-flops, below) holding that input's share of every counter; a
 * counter's value is the sum of its INPUTS shares (mod 2^64, so the 64-bit wrap is exact).
 * The cost therefore grows with INPUTS x COUNTERS: each input adds a bank. Each bank has a
 * two-stage read-modify-write pipeline (read in stage 0, add and write in stage 1) with
 * forwarding of the value written in the previous cycle, so back-to-back increments of the
 * same counter are never lost.
 *
 * Consistent snapshot (`snapshot` pulse at cycle S): the snapshot holds every increment
 * presented in cycles < S and none presented in cycles >= S. It is taken in one cycle with
 * per-counter "touched since the snapshot" flags (flip-flops, INPUTS x COUNTERS bits): the
 * first increment of a counter after S copies its pre-increment share into snap_k; a
 * counter not touched since S still holds its snapshot value in live_k. Reads therefore
 * see all counters as of cycle S, however long the firmware takes, until the next snapshot.
 *
 * Clear on snapshot (`clear_on_snapshot` = 1 at the snapshot pulse, default 0 at the CSR):
 * after capturing, all counters restart from 0 (snapshots then report deltas). Done lazily
 * with two more flag vectors (logically-zero now / at the snapshot).
 *
 * Snapshot read port: rd_valid + rd_idx (one read per cycle, pipelined) -> rd_data_valid
 * and rd_data (64 bits, snapshot value of the counter) exactly RD_LATENCY = 3 cycles later.
 * A read in the same cycle as a snapshot pulse reads the new snapshot.
 *
 * Init / clear all: after reset and on `clear_all` the block writes init_value to every
 * counter (share of input 0; the other shares 0) in COUNTERS cycles; init_done is low
 * meanwhile, increments presented then are dropped and counted in stat_init_drops, and
 * snapshots read back init_value. init_value is normally 0 (a non-zero base lets a test
 * check the 64-bit wrap).
 *
 * Status: stat_snapshots (snapshot pulses taken), stat_init_drops.
 */
module stats_counters #
(
    // Number of counters (power of two)
    parameter COUNTERS = 256,
    // Increment inputs per cycle
    parameter INPUTS = 4,
    // Width of an increment amount
    parameter INC_WIDTH = 16,
    parameter IDX_BITS = $clog2(COUNTERS)
)
(
    input  wire                          clk,
    input  wire                          rst,

    // Increment events
    input  wire [INPUTS-1:0]             inc_valid,
    input  wire [INPUTS*IDX_BITS-1:0]    inc_idx,
    input  wire [INPUTS*INC_WIDTH-1:0]   inc_amount,

    // Commands (CSR)
    input  wire                          snapshot,
    input  wire                          clear_on_snapshot,
    input  wire                          clear_all,
    input  wire [63:0]                   init_value,

    // Snapshot read port
    input  wire                          rd_valid,
    input  wire [IDX_BITS-1:0]           rd_idx,
    output wire                          rd_data_valid,
    output wire [63:0]                   rd_data,

    // Status
    output wire                          init_done,
    output wire [31:0]                   stat_snapshots,
    output wire [31:0]                   stat_init_drops
);

initial begin
    if (COUNTERS < 2 || (COUNTERS & (COUNTERS - 1)) != 0 || (1 << IDX_BITS) != COUNTERS) begin
        $error("Error: COUNTERS must be a power of two >= 2, IDX_BITS its log2 (instance %m)");
        $finish;
    end
    if (INPUTS < 1 || INC_WIDTH < 1 || INC_WIDTH > 63) begin
        $error("Error: INPUTS >= 1 and 1 <= INC_WIDTH <= 63 required (instance %m)");
        $finish;
    end
end

// Init sweep
reg                init_busy_reg = 1'b1;
reg [IDX_BITS-1:0] init_idx_reg = {IDX_BITS{1'b0}};
reg [31:0]         snapshots_reg = 32'd0;
reg [31:0]         init_drops_reg = 32'd0;

assign init_done = !init_busy_reg;
assign stat_snapshots = snapshots_reg;
assign stat_init_drops = init_drops_reg;

wire snap_now = snapshot && !init_busy_reg;

always @(posedge clk) begin
    if (init_busy_reg) begin
        init_idx_reg <= init_idx_reg + 1'b1;
        if (init_idx_reg == {IDX_BITS{1'b1}}) begin
            init_busy_reg <= 1'b0;
        end
    end else if (clear_all) begin
        init_busy_reg <= 1'b1;
        init_idx_reg <= {IDX_BITS{1'b0}};
    end
    if (snap_now) begin
        snapshots_reg <= snapshots_reg + 1'b1;
    end
    if (init_busy_reg && inc_valid != {INPUTS{1'b0}}) begin
        init_drops_reg <= init_drops_reg + 1'b1;
    end
    if (rst) begin
        init_busy_reg <= 1'b1;
        init_idx_reg <= {IDX_BITS{1'b0}};
        snapshots_reg <= 32'd0;
        init_drops_reg <= 32'd0;
    end
end

// Read port pipeline: stage A samples the flags, stage B reads the RAMs, stage C sums.
reg                rda_valid_reg = 1'b0;
reg [IDX_BITS-1:0] rda_idx_reg = {IDX_BITS{1'b0}};
reg                rdb_valid_reg = 1'b0;
reg                rdc_valid_reg = 1'b0;
reg [63:0]         rdc_data_reg = 64'd0;

assign rd_data_valid = rdc_valid_reg;
assign rd_data = rdc_data_reg;

wire [INPUTS*64-1:0] bank_rd;

// (the read pipeline's data registers are loaded only for a read in the stage)
always @(posedge clk) begin
    rda_valid_reg <= rd_valid;
    if (rd_valid) begin
        rda_idx_reg <= rd_idx;
    end
    rdb_valid_reg <= rda_valid_reg;
    rdc_valid_reg <= rdb_valid_reg;
    if (rst) begin
        rda_valid_reg <= 1'b0;
        rdb_valid_reg <= 1'b0;
        rdc_valid_reg <= 1'b0;
    end
end

function [63:0] bank_sum(input [INPUTS*64-1:0] b);
    integer i;
    begin
        bank_sum = 64'd0;
        for (i = 0; i < INPUTS; i = i + 1) begin
            bank_sum = bank_sum + b[i*64 +: 64];
        end
    end
endfunction

always @(posedge clk) begin
    if (rdb_valid_reg) begin
        rdc_data_reg <= bank_sum(bank_rd);
    end
end

genvar k;
generate
for (k = 0; k < INPUTS; k = k + 1) begin : bank
    reg [63:0] live_mem [0:COUNTERS-1];
    reg [63:0] snap_mem [0:COUNTERS-1];
    // touched since the snapshot / logically zero now / logically zero at the snapshot
    reg [COUNTERS-1:0] t_reg = {COUNTERS{1'b0}};
    reg [COUNTERS-1:0] z_reg = {COUNTERS{1'b0}};
    reg [COUNTERS-1:0] zs_reg = {COUNTERS{1'b0}};

    wire                 in_v = inc_valid[k] && !init_busy_reg;
    wire [IDX_BITS-1:0]  in_idx = inc_idx[k*IDX_BITS +: IDX_BITS];
    wire [INC_WIDTH-1:0] in_amt = inc_amount[k*INC_WIDTH +: INC_WIDTH];

    // Stage 1 registers
    reg                 s1_valid_reg = 1'b0;
    reg [IDX_BITS-1:0]  s1_idx_reg = {IDX_BITS{1'b0}};
    reg [INC_WIDTH-1:0] s1_amt_reg = {INC_WIDTH{1'b0}};
    reg                 s1_t_reg = 1'b0, s1_z_reg = 1'b0, s1_zs_reg = 1'b0;
    reg [63:0]          s1_ram_reg = 64'd0;
    // Value written in the previous cycle (forwarding)
    reg                 w_valid_reg = 1'b0;
    reg [IDX_BITS-1:0]  w_idx_reg = {IDX_BITS{1'b0}};
    reg [63:0]          w_val_reg = 64'd0;

    // the counter value before the increment in stage 1: forwarded from the write in the
    // previous cycle, else as read
    wire        fwd = w_valid_reg && w_idx_reg == s1_idx_reg;
    wire [63:0] cur = fwd ? w_val_reg : s1_ram_reg;

    // Read port: flags at stage A (after a snapshot in the same cycle), RAMs at stage B.
    reg        ra_t_reg = 1'b0, ra_zs_reg = 1'b0;
    reg [63:0] rb_live_reg = 64'd0, rb_snap_reg = 64'd0;
    reg        rb_t_reg = 1'b0, rb_zs_reg = 1'b0;

    // (one block: the flags are read here before they are updated)
    always @(posedge clk) begin
        // Read port (stage registers loaded only for a read)
        if (rd_valid) begin
            ra_t_reg <= snap_now ? 1'b0 : t_reg[rd_idx];
            ra_zs_reg <= snap_now ? z_reg[rd_idx] : zs_reg[rd_idx];
        end
        if (rda_valid_reg) begin
            rb_live_reg <= live_mem[rda_idx_reg];
            rb_snap_reg <= snap_mem[rda_idx_reg];
            rb_t_reg <= ra_t_reg;
            rb_zs_reg <= ra_zs_reg;
        end

        // Stage 0: read, with the flags of the increment as seen after a snapshot in this
        // cycle (stage registers loaded only for an increment)
        s1_valid_reg <= in_v;
        if (in_v) begin
            s1_idx_reg <= in_idx;
            s1_amt_reg <= in_amt;
            s1_t_reg <= snap_now ? 1'b0 : t_reg[in_idx];
            s1_z_reg <= (snap_now && clear_on_snapshot) ? 1'b1 : z_reg[in_idx];
            s1_zs_reg <= snap_now ? z_reg[in_idx] : zs_reg[in_idx];
            s1_ram_reg <= live_mem[in_idx];
        end

        // Flags
        if (snap_now) begin
            t_reg <= {COUNTERS{1'b0}};
            zs_reg <= z_reg;
            if (clear_on_snapshot) begin
                z_reg <= {COUNTERS{1'b1}};
            end
        end
        if (in_v) begin
            t_reg[in_idx] <= 1'b1;
            z_reg[in_idx] <= 1'b0;
        end
        if (init_busy_reg) begin
            t_reg <= {COUNTERS{1'b0}};
            z_reg <= {COUNTERS{1'b0}};
            zs_reg <= {COUNTERS{1'b0}};
        end

        // Stage 1: add and write (the init sweep writes instead)
        w_valid_reg <= s1_valid_reg;
        if (s1_valid_reg) begin
            w_idx_reg <= s1_idx_reg;
            w_val_reg <= (s1_z_reg ? 64'd0 : cur) + {{(64-INC_WIDTH){1'b0}}, s1_amt_reg};
        end
        if (init_busy_reg || s1_valid_reg) begin
            live_mem[init_busy_reg ? init_idx_reg : s1_idx_reg] <=
                init_busy_reg ? (k == 0 ? init_value : 64'd0) :
                                (s1_z_reg ? 64'd0 : cur) + {{(64-INC_WIDTH){1'b0}}, s1_amt_reg};
        end
        if (s1_valid_reg && !s1_t_reg) begin
            snap_mem[s1_idx_reg] <= s1_zs_reg ? 64'd0 : cur;
        end

        if (rst || init_busy_reg) begin
            s1_valid_reg <= 1'b0;
            w_valid_reg <= 1'b0;
        end
        if (rst) begin
            t_reg <= {COUNTERS{1'b0}};
            z_reg <= {COUNTERS{1'b0}};
            zs_reg <= {COUNTERS{1'b0}};
        end
    end

    assign bank_rd[k*64 +: 64] = rb_t_reg ? rb_snap_reg : (rb_zs_reg ? 64'd0 : rb_live_reg);
end
endgenerate

endmodule

`resetall
