// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"
`include "splicenic_regs.vh"

/*
 * Flow lookup table (the seed's CAM): a hash table with WAYS-way buckets in on-chip RAM.
 *
 * Key (KEY_WIDTH = 96, one half of a spliced flow, IPv4 4-tuple as seen on the wire):
 *   record FlowKey of docs/records.md. The table itself only hashes and compares it.
 * Both halves of a spliced flow are inserted as two keys that map to the same slot; the
 * direction bit stored beside the slot tells which half matched.
 *
 * Hash: Toeplitz hash (the RSS hash) of the key bits, first bit = key MSB, with the fixed
 * 320-bit secret HASH_KEY (default: records.toml FLOW_HASH_KEY, the well-known RSS
 * verification key). For every set input bit i the 32-bit window HASH_KEY[319-i -: 32] is
 * XORed into the result, so in hardware each hash bit is a constant XOR tree of the key
 * bits. The bucket index is hash[BUCKET_BITS-1:0]. (`flow_hash` in the test crate is the
 * software reference.)
 *
 * Entry format (ENTRY_WIDTH = KEY_WIDTH + VALUE_WIDTH + 2 bits, 114 at the defaults):
 *   [KEY_WIDTH-1:0]                   key
 *   [KEY_WIDTH +: VALUE_WIDTH]        value (flow slot index)
 *   [KEY_WIDTH+VALUE_WIDTH]           direction bit (0 = client half, 1 = server half)
 *   [KEY_WIDTH+VALUE_WIDTH+1]         valid
 * One bucket = WAYS entries, way w in RAM bank w at address = bucket index. For an
 * external-memory variant each entry is padded with zero bits to 128 bits (same bit
 * positions, bits 127:ENTRY_WIDTH reserved zero), and a 4-way bucket is one 512-bit
 * (64-byte) memory word at byte address bucket * 64: one burst per lookup.
 * Way choice on insert: the lowest-numbered free way. A key is never stored twice.
 *
 * Lookup port: one key per cycle, no bubbles; results come out in order, LOOKUP_LATENCY = 4
 * cycles after the key is accepted (s_lookup_valid && s_lookup_ready). m_lookup_ready = 0
 * stalls the whole pipeline (s_lookup_ready = 0); tie it high for a fixed latency.
 *   m_lookup_hit, m_lookup_value (slot), m_lookup_dir, m_lookup_bucket.
 *
 * Command port (for a CSR block / the firmware): cmd_valid/cmd_ready handshake, then one
 * rsp_valid pulse; the rsp_* fields stay stable until the next command completes.
 *   cmd_op: 0 LOOKUP key, 1 INSERT key -> (cmd_value, cmd_dir), 2 DELETE key,
 *           3 CLEAR (invalidate every entry, BUCKETS cycles).
 *   rsp_status: 0 OK, 1 EXISTS (insert of a key already present; rsp_value/rsp_dir give
 *           the stored entry), 2 BUCKET_FULL (all ways of rsp_bucket in use), 3 NOT_FOUND
 *           (delete or lookup of a missing key).
 *   rsp_bucket: bucket index of the key; rsp_way: the way hit, written or freed.
 * A command takes 5 cycles (CLEAR: BUCKETS + 1). Each INSERT or DELETE is a single write
 * of a single entry, so every lookup sees the table either before or after a command,
 * never a torn entry; a lookup that reads the bucket in the very cycle of the write gets
 * the written entry forwarded (no reliance on RAM read-during-write behaviour).
 * After reset the table clears itself (BUCKETS cycles, init_done = 0, cmd_ready = 0);
 * lookups during that sweep or a CLEAR may still see entries not yet cleared.
 *
 * Status: stat_entries (entries in use) and 32-bit event counters of inserts, deletes,
 * EXISTS, BUCKET_FULL and NOT_FOUND results (cleared by reset; CLEAR zeroes entries).
 */
module flow_table #
(
    // Number of buckets (power of two); capacity = BUCKETS * WAYS entries
    parameter BUCKETS = 16384,
    // Entries per bucket
    parameter WAYS = 4,
    // Key width (IPv4 4-tuple); at most 288 (HASH_KEY is 320 bits)
    parameter KEY_WIDTH = 96,
    // Value width (flow slot index)
    parameter VALUE_WIDTH = 16,
    // Toeplitz secret key, first key bit = bit 319
    parameter [319:0] HASH_KEY = `SNIC_FLOW_HASH_KEY,
    parameter BUCKET_BITS = $clog2(BUCKETS),
    parameter WAY_BITS = WAYS > 1 ? $clog2(WAYS) : 1
)
(
    input  wire                   clk,
    input  wire                   rst,

    // Lookup request (data path)
    input  wire                   s_lookup_valid,
    output wire                   s_lookup_ready,
    input  wire [KEY_WIDTH-1:0]   s_lookup_key,

    // Lookup result, in order
    output wire                   m_lookup_valid,
    input  wire                   m_lookup_ready,
    output wire                   m_lookup_hit,
    output wire [VALUE_WIDTH-1:0] m_lookup_value,
    output wire                   m_lookup_dir,
    output wire [BUCKET_BITS-1:0] m_lookup_bucket,

    // Command (firmware through CSR)
    input  wire                   cmd_valid,
    output wire                   cmd_ready,
    input  wire [1:0]             cmd_op,
    input  wire [KEY_WIDTH-1:0]   cmd_key,
    input  wire [VALUE_WIDTH-1:0] cmd_value,
    input  wire                   cmd_dir,

    // Command response
    output wire                   rsp_valid,
    output wire [1:0]             rsp_status,
    output wire [VALUE_WIDTH-1:0] rsp_value,
    output wire                   rsp_dir,
    output wire [BUCKET_BITS-1:0] rsp_bucket,
    output wire [WAY_BITS-1:0]    rsp_way,

    // Status
    output wire                   init_done,
    output wire [31:0]            stat_entries,
    output wire [31:0]            stat_inserts,
    output wire [31:0]            stat_deletes,
    output wire [31:0]            stat_exists,
    output wire [31:0]            stat_bucket_full,
    output wire [31:0]            stat_not_found
);

localparam ENTRY_WIDTH = KEY_WIDTH + VALUE_WIDTH + 2;
localparam DIR_BIT = KEY_WIDTH + VALUE_WIDTH;
localparam VALID_BIT = KEY_WIDTH + VALUE_WIDTH + 1;

// command and status codes: FLOW.CMD.OP and FLOW.STATUS.RESULT (registers/splicenic.svd)
localparam [1:0] OP_LOOKUP = `SNIC_FLOW_CMD_OP_LOOKUP, OP_INSERT = `SNIC_FLOW_CMD_OP_INSERT,
                 OP_DELETE = `SNIC_FLOW_CMD_OP_DELETE, OP_CLEAR = `SNIC_FLOW_CMD_OP_CLEAR;
localparam [1:0] ST_OK = `SNIC_FLOW_STATUS_RESULT_OK, ST_EXISTS = `SNIC_FLOW_STATUS_RESULT_EXISTS,
                 ST_BUCKET_FULL = `SNIC_FLOW_STATUS_RESULT_BUCKET_FULL,
                 ST_NOT_FOUND = `SNIC_FLOW_STATUS_RESULT_NOT_FOUND;

localparam [2:0] S_INIT = 3'd0, S_IDLE = 3'd1, S_HASH = 3'd2, S_READ = 3'd3,
                 S_CMP = 3'd4, S_EXEC = 3'd5, S_CLEAR = 3'd6;

initial begin
    if (BUCKETS < 2 || (BUCKETS & (BUCKETS - 1)) != 0) begin
        $error("Error: BUCKETS must be a power of two >= 2 (instance %m)");
        $finish;
    end
    if ((1 << BUCKET_BITS) != BUCKETS || BUCKET_BITS > 32) begin
        $error("Error: BUCKET_BITS must be log2(BUCKETS) and at most 32 (instance %m)");
        $finish;
    end
    if (WAYS < 1 || (WAYS > 1 && (1 << WAY_BITS) < WAYS)) begin
        $error("Error: WAYS must be >= 1 and fit WAY_BITS (instance %m)");
        $finish;
    end
    if (KEY_WIDTH < 1 || KEY_WIDTH > 288) begin
        $error("Error: KEY_WIDTH must be 1..288 (instance %m)");
        $finish;
    end
    if (VALUE_WIDTH < 1) begin
        $error("Error: VALUE_WIDTH must be >= 1 (instance %m)");
        $finish;
    end
end

// Toeplitz hash, reduced to the bucket index bits: h = XOR of HASH_KEY[319-i -: 32] over the
// set key bits k[KEY_WIDTH-1-i]. As a matrix: bucket bit j is the parity of the key bits
// selected by column j (k[KEY_WIDTH-1-i] selected when HASH_KEY[288-i+j] is set).
function [BUCKET_BITS*KEY_WIDTH-1:0] hash_matrix(input integer cols);
    integer i, j;
    begin
        hash_matrix = {BUCKET_BITS*KEY_WIDTH{1'b0}};
        for (j = 0; j < cols; j = j + 1) begin
            for (i = 0; i < KEY_WIDTH; i = i + 1) begin
                hash_matrix[j*KEY_WIDTH + KEY_WIDTH-1-i] = HASH_KEY[288-i+j];
            end
        end
    end
endfunction

localparam [BUCKET_BITS*KEY_WIDTH-1:0] HASH_M = hash_matrix(BUCKET_BITS);

function [BUCKET_BITS-1:0] bucket_of(input [KEY_WIDTH-1:0] k);
    integer j;
    begin
        for (j = 0; j < BUCKET_BITS; j = j + 1) begin
            bucket_of[j] = ^(k & HASH_M[j*KEY_WIDTH +: KEY_WIDTH]);
        end
    end
endfunction

// ---------------------------------------------------------------------------------------
// Bucket RAM: per way, port A reads for the lookup pipeline, port B reads and writes for
// the command engine.

wire                       ram_a_en;
wire [BUCKET_BITS-1:0]     ram_a_addr;
wire [WAYS*ENTRY_WIDTH-1:0] ram_a_rdata;
reg                        ram_b_en;
reg  [WAYS-1:0]            ram_b_we;
reg  [BUCKET_BITS-1:0]     ram_b_addr;
reg  [ENTRY_WIDTH-1:0]     ram_b_wdata;
wire [WAYS*ENTRY_WIDTH-1:0] ram_b_rdata;

genvar gw;
generate
    for (gw = 0; gw < WAYS; gw = gw + 1) begin : way
        reg [ENTRY_WIDTH-1:0] mem [0:BUCKETS-1];
        reg [ENTRY_WIDTH-1:0] a_rdata_reg = {ENTRY_WIDTH{1'b0}};
        reg [ENTRY_WIDTH-1:0] b_rdata_reg = {ENTRY_WIDTH{1'b0}};

        assign ram_a_rdata[gw*ENTRY_WIDTH +: ENTRY_WIDTH] = a_rdata_reg;
        assign ram_b_rdata[gw*ENTRY_WIDTH +: ENTRY_WIDTH] = b_rdata_reg;

        always @(posedge clk) begin
            if (ram_a_en) begin
                a_rdata_reg <= mem[ram_a_addr];
            end
        end

        always @(posedge clk) begin
            if (ram_b_en) begin
                if (ram_b_we[gw]) begin
                    mem[ram_b_addr] <= ram_b_wdata;
                end
                b_rdata_reg <= mem[ram_b_addr];
            end
        end
    end
endgenerate

// ---------------------------------------------------------------------------------------
// Lookup pipeline: s1 key register, s2 bucket index, s3 bucket read, s4 compare/result.

reg                   out_valid_reg = 1'b0;
reg                   out_hit_reg = 1'b0;
reg [VALUE_WIDTH-1:0] out_value_reg = {VALUE_WIDTH{1'b0}};
reg                   out_dir_reg = 1'b0;
reg [BUCKET_BITS-1:0] out_bucket_reg = {BUCKET_BITS{1'b0}};

reg                   s1_valid_reg = 1'b0;
reg [KEY_WIDTH-1:0]   s1_key_reg = {KEY_WIDTH{1'b0}};
reg                   s2_valid_reg = 1'b0;
reg [KEY_WIDTH-1:0]   s2_key_reg = {KEY_WIDTH{1'b0}};
reg [BUCKET_BITS-1:0] s2_bucket_reg = {BUCKET_BITS{1'b0}};
reg                   s3_valid_reg = 1'b0;
reg [KEY_WIDTH-1:0]   s3_key_reg = {KEY_WIDTH{1'b0}};
reg [BUCKET_BITS-1:0] s3_bucket_reg = {BUCKET_BITS{1'b0}};
// Write forwarding: the command engine wrote this bucket in the cycle it was read
reg [WAYS-1:0]        s3_fwd_reg = {WAYS{1'b0}};
reg [ENTRY_WIDTH-1:0] s3_fwd_data_reg = {ENTRY_WIDTH{1'b0}};

wire adv = !out_valid_reg || m_lookup_ready;

assign s_lookup_ready = adv;
assign ram_a_en = adv;
assign ram_a_addr = s2_bucket_reg;

assign m_lookup_valid = out_valid_reg;
assign m_lookup_hit = out_hit_reg;
assign m_lookup_value = out_value_reg;
assign m_lookup_dir = out_dir_reg;
assign m_lookup_bucket = out_bucket_reg;

// s3 compare
reg                   cmp_hit;
reg [VALUE_WIDTH-1:0] cmp_value;
reg                   cmp_dir;
reg [ENTRY_WIDTH-1:0] cmp_entry;
integer li;

always @* begin
    cmp_hit = 1'b0;
    cmp_value = {VALUE_WIDTH{1'b0}};
    cmp_dir = 1'b0;
    for (li = 0; li < WAYS; li = li + 1) begin
        cmp_entry = s3_fwd_reg[li] ? s3_fwd_data_reg : ram_a_rdata[li*ENTRY_WIDTH +: ENTRY_WIDTH];
        if (cmp_entry[VALID_BIT] && cmp_entry[KEY_WIDTH-1:0] == s3_key_reg) begin
            cmp_hit = 1'b1;
            cmp_value = cmp_entry[KEY_WIDTH +: VALUE_WIDTH];
            cmp_dir = cmp_entry[DIR_BIT];
        end
    end
end

always @(posedge clk) begin
    if (adv) begin
        s1_valid_reg <= s_lookup_valid;
        s1_key_reg <= s_lookup_key;

        s2_valid_reg <= s1_valid_reg;
        s2_key_reg <= s1_key_reg;
        // s2_bucket_reg is always bucket_of(s2_key_reg) (loaded together, both zero at
        // start): the hash is evaluated only for a key that differs from the last one
        if (s1_key_reg != s2_key_reg) begin
            s2_bucket_reg <= bucket_of(s1_key_reg);
        end

        s3_valid_reg <= s2_valid_reg;
        s3_key_reg <= s2_key_reg;
        s3_bucket_reg <= s2_bucket_reg;
        s3_fwd_reg <= (ram_b_en && ram_b_addr == s2_bucket_reg) ? ram_b_we : {WAYS{1'b0}};
        s3_fwd_data_reg <= ram_b_wdata;

        out_valid_reg <= s3_valid_reg;
        out_hit_reg <= s3_valid_reg && cmp_hit;
        out_value_reg <= cmp_value;
        out_dir_reg <= cmp_dir;
        out_bucket_reg <= s3_bucket_reg;
    end

    if (rst) begin
        s1_valid_reg <= 1'b0;
        s2_valid_reg <= 1'b0;
        s3_valid_reg <= 1'b0;
        s3_fwd_reg <= {WAYS{1'b0}};
        out_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------------------
// Command engine

reg [2:0]             state_reg = S_INIT;
reg [1:0]             op_reg = OP_LOOKUP;
reg [KEY_WIDTH-1:0]   key_reg = {KEY_WIDTH{1'b0}};
reg [VALUE_WIDTH-1:0] value_reg = {VALUE_WIDTH{1'b0}};
reg                   dir_reg = 1'b0;
reg [BUCKET_BITS-1:0] bucket_reg = {BUCKET_BITS{1'b0}};
reg [BUCKET_BITS-1:0] sweep_reg = {BUCKET_BITS{1'b0}};

reg                   match_reg = 1'b0;
reg [WAY_BITS-1:0]    match_way_reg = {WAY_BITS{1'b0}};
reg [VALUE_WIDTH-1:0] match_value_reg = {VALUE_WIDTH{1'b0}};
reg                   match_dir_reg = 1'b0;
reg                   free_reg = 1'b0;
reg [WAY_BITS-1:0]    free_way_reg = {WAY_BITS{1'b0}};

reg                   rsp_valid_reg = 1'b0;
reg [1:0]             rsp_status_reg = ST_OK;
reg [VALUE_WIDTH-1:0] rsp_value_reg = {VALUE_WIDTH{1'b0}};
reg                   rsp_dir_reg = 1'b0;
reg [BUCKET_BITS-1:0] rsp_bucket_reg = {BUCKET_BITS{1'b0}};
reg [WAY_BITS-1:0]    rsp_way_reg = {WAY_BITS{1'b0}};

reg [31:0] stat_entries_reg = 32'd0;
reg [31:0] stat_inserts_reg = 32'd0;
reg [31:0] stat_deletes_reg = 32'd0;
reg [31:0] stat_exists_reg = 32'd0;
reg [31:0] stat_bucket_full_reg = 32'd0;
reg [31:0] stat_not_found_reg = 32'd0;

assign cmd_ready = state_reg == S_IDLE;
assign init_done = state_reg != S_INIT;
assign rsp_valid = rsp_valid_reg;
assign rsp_status = rsp_status_reg;
assign rsp_value = rsp_value_reg;
assign rsp_dir = rsp_dir_reg;
assign rsp_bucket = rsp_bucket_reg;
assign rsp_way = rsp_way_reg;
assign stat_entries = stat_entries_reg;
assign stat_inserts = stat_inserts_reg;
assign stat_deletes = stat_deletes_reg;
assign stat_exists = stat_exists_reg;
assign stat_bucket_full = stat_bucket_full_reg;
assign stat_not_found = stat_not_found_reg;

// Bucket scan of the port B read data: matching way and lowest free way. Returns
// {match, match way, match value, match dir, free, free way}.
localparam SCAN_W = 1 + WAY_BITS + VALUE_WIDTH + 1 + 1 + WAY_BITS;

function [SCAN_W-1:0] bucket_scan(input [WAYS*ENTRY_WIDTH-1:0] rdata, input [KEY_WIDTH-1:0] key);
    reg                   scan_match;
    reg [WAY_BITS-1:0]    scan_match_way;
    reg [VALUE_WIDTH-1:0] scan_match_value;
    reg                   scan_match_dir;
    reg                   scan_free;
    reg [WAY_BITS-1:0]    scan_free_way;
    reg [ENTRY_WIDTH-1:0] scan_entry;
    integer               ci;
    begin
        scan_match = 1'b0;
        scan_match_way = {WAY_BITS{1'b0}};
        scan_match_value = {VALUE_WIDTH{1'b0}};
        scan_match_dir = 1'b0;
        scan_free = 1'b0;
        scan_free_way = {WAY_BITS{1'b0}};
        for (ci = WAYS - 1; ci >= 0; ci = ci - 1) begin
            scan_entry = rdata[ci*ENTRY_WIDTH +: ENTRY_WIDTH];
            if (scan_entry[VALID_BIT] && scan_entry[KEY_WIDTH-1:0] == key) begin
                scan_match = 1'b1;
                scan_match_way = ci[WAY_BITS-1:0];
                scan_match_value = scan_entry[KEY_WIDTH +: VALUE_WIDTH];
                scan_match_dir = scan_entry[DIR_BIT];
            end
            if (!scan_entry[VALID_BIT]) begin
                scan_free = 1'b1;
                scan_free_way = ci[WAY_BITS-1:0];
            end
        end
        bucket_scan = {scan_match, scan_match_way, scan_match_value, scan_match_dir, scan_free,
                       scan_free_way};
    end
endfunction

// Port B control (combinational from the state)
always @* begin
    ram_b_en = 1'b0;
    ram_b_we = {WAYS{1'b0}};
    ram_b_addr = bucket_reg;
    ram_b_wdata = {ENTRY_WIDTH{1'b0}};
    case (state_reg)
        S_INIT, S_CLEAR: begin
            ram_b_en = 1'b1;
            ram_b_we = {WAYS{1'b1}};
            ram_b_addr = sweep_reg;
        end
        S_READ: begin
            ram_b_en = 1'b1;
        end
        S_EXEC: begin
            if (op_reg == OP_INSERT && !match_reg && free_reg) begin
                ram_b_en = 1'b1;
                ram_b_we[free_way_reg] = 1'b1;
                ram_b_wdata = {1'b1, dir_reg, value_reg, key_reg};
            end else if (op_reg == OP_DELETE && match_reg) begin
                ram_b_en = 1'b1;
                ram_b_we[match_way_reg] = 1'b1;
            end
        end
        default: begin
        end
    endcase
end

always @(posedge clk) begin
    rsp_valid_reg <= 1'b0;

    case (state_reg)
        S_INIT: begin
            sweep_reg <= sweep_reg + 1'b1;
            if (sweep_reg == {BUCKET_BITS{1'b1}}) begin
                state_reg <= S_IDLE;
            end
        end
        S_IDLE: begin
            if (cmd_valid) begin
                op_reg <= cmd_op;
                key_reg <= cmd_key;
                value_reg <= cmd_value;
                dir_reg <= cmd_dir;
                sweep_reg <= {BUCKET_BITS{1'b0}};
                state_reg <= cmd_op == OP_CLEAR ? S_CLEAR : S_HASH;
            end
        end
        S_HASH: begin
            bucket_reg <= bucket_of(key_reg);
            state_reg <= S_READ;
        end
        S_READ: begin
            state_reg <= S_CMP;
        end
        S_CMP: begin
            {match_reg, match_way_reg, match_value_reg, match_dir_reg, free_reg, free_way_reg} <=
                bucket_scan(ram_b_rdata, key_reg);
            state_reg <= S_EXEC;
        end
        S_EXEC: begin
            rsp_valid_reg <= 1'b1;
            rsp_bucket_reg <= bucket_reg;
            rsp_value_reg <= match_value_reg;
            rsp_dir_reg <= match_dir_reg;
            rsp_way_reg <= match_way_reg;
            case (op_reg)
                OP_INSERT: begin
                    if (match_reg) begin
                        rsp_status_reg <= ST_EXISTS;
                        stat_exists_reg <= stat_exists_reg + 1'b1;
                    end else if (!free_reg) begin
                        rsp_status_reg <= ST_BUCKET_FULL;
                        rsp_way_reg <= {WAY_BITS{1'b0}};
                        stat_bucket_full_reg <= stat_bucket_full_reg + 1'b1;
                    end else begin
                        rsp_status_reg <= ST_OK;
                        rsp_value_reg <= value_reg;
                        rsp_dir_reg <= dir_reg;
                        rsp_way_reg <= free_way_reg;
                        stat_inserts_reg <= stat_inserts_reg + 1'b1;
                        stat_entries_reg <= stat_entries_reg + 1'b1;
                    end
                end
                OP_DELETE: begin
                    if (match_reg) begin
                        rsp_status_reg <= ST_OK;
                        stat_deletes_reg <= stat_deletes_reg + 1'b1;
                        stat_entries_reg <= stat_entries_reg - 1'b1;
                    end else begin
                        rsp_status_reg <= ST_NOT_FOUND;
                        stat_not_found_reg <= stat_not_found_reg + 1'b1;
                    end
                end
                default: begin
                    // LOOKUP
                    rsp_status_reg <= match_reg ? ST_OK : ST_NOT_FOUND;
                end
            endcase
            state_reg <= S_IDLE;
        end
        S_CLEAR: begin
            sweep_reg <= sweep_reg + 1'b1;
            if (sweep_reg == {BUCKET_BITS{1'b1}}) begin
                rsp_valid_reg <= 1'b1;
                rsp_status_reg <= ST_OK;
                stat_entries_reg <= 32'd0;
                state_reg <= S_IDLE;
            end
        end
        default: begin
            state_reg <= S_IDLE;
        end
    endcase

    if (rst) begin
        state_reg <= S_INIT;
        sweep_reg <= {BUCKET_BITS{1'b0}};
        rsp_valid_reg <= 1'b0;
        stat_entries_reg <= 32'd0;
        stat_inserts_reg <= 32'd0;
        stat_deletes_reg <= 32'd0;
        stat_exists_reg <= 32'd0;
        stat_bucket_full_reg <= 32'd0;
        stat_not_found_reg <= 32'd0;
    end
end

endmodule

`resetall
