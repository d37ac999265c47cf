// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * L7 rule storage: two banks of RULES rules, split into LANES lanes (rule r lives in lane
 * r % LANES, row r / LANES) so that LANES rules are read per cycle. Each lane holds a
 * 32-bit-wide memory each for ctrl, meta and pool, and a PAT_MAX*8-bit-wide memory each for
 * the path and the host pattern (the PAT_MAX/4 pattern words of a rule side by side, one
 * write enable per 32-bit word): single write port, registered read port (block RAM
 * friendly). The rule valid bits are flip-flops so that reset and "clear bank" empty the
 * table.
 *
 * Write word map (wr_word): enum RuleWordIndex of docs/records.md, see l7_matcher for the
 * field meanings:
 *   CTRL            record L7RuleCtrl (valid, path / host kind, pattern lengths)
 *   META            record L7RuleMeta (rule id, priority)
 *   POOL            [POOL_WIDTH-1:0] pool id
 *   PATH + k        path pattern bytes 4k..4k+3 (byte 4k in bits 7:0)
 *   HOST + k        host pattern bytes 4k..4k+3, stored LAST CHARACTER FIRST
 * Clearing a bank (clr_en) resets the valid bits of all its rules.
 */
module l7_rule_bank #
(
    parameter RULES = 64,
    parameter LANES = 4,
    parameter PAT_MAX = 64,
    parameter POOL_WIDTH = 16,
    parameter RIDX_W = (RULES > 1) ? $clog2(RULES) : 1,
    parameter ROWS = RULES / LANES,
    parameter ROW_W = (ROWS > 1) ? $clog2(ROWS) : 1
)
(
    input  wire                          clk,
    input  wire                          rst,

    // write port
    input  wire                          wr_en,
    input  wire                          wr_bank,
    input  wire [RIDX_W-1:0]             wr_rule,
    input  wire [7:0]                    wr_word,
    input  wire [31:0]                   wr_data,
    input  wire                          clr_en,
    input  wire                          clr_bank,

    // read port: row of LANES rules, data one cycle after rd_en
    input  wire                          rd_en,
    input  wire                          rd_bank,
    input  wire [ROW_W-1:0]              rd_row,
    output wire [LANES-1:0]              rd_valid,
    output wire [LANES*32-1:0]           rd_ctrl,
    output wire [LANES*32-1:0]           rd_meta,
    output wire [LANES*POOL_WIDTH-1:0]   rd_pool,
    output wire [LANES*PAT_MAX*8-1:0]    rd_path,
    output wire [LANES*PAT_MAX*8-1:0]    rd_host
);

localparam PAT_WORDS = PAT_MAX / 4;
localparam DEPTH = 2 * ROWS;
localparam LANE_W = (LANES > 1) ? $clog2(LANES) : 1;
localparam [7:0] W_CTRL = `SNIC_RULE_WORD_INDEX_CTRL;
localparam [7:0] W_META = `SNIC_RULE_WORD_INDEX_META;
localparam [7:0] W_POOL = `SNIC_RULE_WORD_INDEX_POOL;
localparam [7:0] W_PATH = `SNIC_RULE_WORD_INDEX_PATH;
localparam [7:0] W_HOST = `SNIC_RULE_WORD_INDEX_HOST;

initial begin
    if (RULES < 2 || (1 << RIDX_W) != RULES) begin
        $error("Error: RULES must be a power of two >= 2 (instance %m)");
        $finish;
    end
    if (LANES < 1 || ROWS < 2 || ROWS * LANES != RULES || (LANES & (LANES - 1)) != 0) begin
        $error("Error: LANES must be a power of two with RULES/LANES >= 2 (instance %m)");
        $finish;
    end
    if (PAT_MAX % 4 != 0 || PAT_MAX < 4 || PAT_MAX > 256) begin
        $error("Error: PAT_MAX must be a multiple of 4 in 4..256 (instance %m)");
        $finish;
    end
    // the pattern word windows are decoded from wr_word[7:6]: 64-word aligned, distinct
    if (`SNIC_RULE_WORD_INDEX_W != 8 || W_PATH[5:0] != 6'd0 || W_HOST[5:0] != 6'd0
        || W_PATH[7:6] == W_HOST[7:6] || W_PATH[7:6] == W_CTRL[7:6]) begin
        $error("Error: RuleWordIndex does not fit the word decode (instance %m)");
        $finish;
    end
    if (POOL_WIDTH < 1 || POOL_WIDTH > 32) begin
        $error("Error: POOL_WIDTH must be 1..32 (instance %m)");
        $finish;
    end
end

wire [LANE_W-1:0] wr_lane;
wire [ROW_W-1:0]  wr_row;
generate
    if (LANES > 1) begin : g_lane_split
        assign wr_lane = wr_rule[LANE_W-1:0];
        assign wr_row = wr_rule[RIDX_W-1:LANE_W];
    end else begin : g_one_lane
        assign wr_lane = 1'b0;
        assign wr_row = wr_rule;
    end
endgenerate

wire [ROW_W:0] wr_addr = {wr_bank, wr_row};
wire [ROW_W:0] rd_addr = {rd_bank, rd_row};

reg [2*RULES-1:0] valid_reg = {2*RULES{1'b0}};
reg [LANES-1:0]   rd_valid_reg = {LANES{1'b0}};
assign rd_valid = rd_valid_reg;

integer r;
always @(posedge clk) begin
    if (wr_en && wr_word == W_CTRL) begin
        valid_reg[{wr_bank, wr_rule}] <= `SNIC_L7_RULE_CTRL_VALID(wr_data);
    end
    if (clr_en) begin
        for (r = 0; r < RULES; r = r + 1) begin
            valid_reg[{clr_bank, r[RIDX_W-1:0]}] <= 1'b0;
        end
    end
    if (rd_en) begin
        for (r = 0; r < LANES; r = r + 1) begin
            rd_valid_reg[r] <= valid_reg[rd_bank * RULES + rd_row * LANES + r];
        end
    end
    if (rst) begin
        valid_reg <= {2*RULES{1'b0}};
        rd_valid_reg <= {LANES{1'b0}};
    end
end

localparam PB = PAT_MAX * 8;
localparam PBW = $clog2(PB);
localparam [6:0] PAT_WORDS7 = PAT_WORDS[6:0];

// pattern word writes: path word wr_word - PATH, host word wr_word - HOST (below PAT_WORDS)
wire wr_path = wr_word[7:6] == W_PATH[7:6] && {1'b0, wr_word[5:0]} < PAT_WORDS7;
wire wr_host = wr_word[7:6] == W_HOST[7:6] && {1'b0, wr_word[5:0]} < PAT_WORDS7;
// (the word's first bit, PBW bits: the bits above are zero for a word below PAT_WORDS)
// verilator lint_off UNUSEDSIGNAL
wire [10:0] wr_bit_w = {wr_word[5:0], 5'd0};
// verilator lint_on UNUSEDSIGNAL
wire [PBW-1:0] wr_bit = wr_bit_w[PBW-1:0];

// read registers of all lanes (lane l in slice l)
reg [LANES*32-1:0]         ctrl_rd_reg, meta_rd_reg;
reg [LANES*POOL_WIDTH-1:0] pool_rd_reg;
reg [LANES*PB-1:0]         path_rd_reg, host_rd_reg;

assign rd_ctrl = ctrl_rd_reg;
assign rd_meta = meta_rd_reg;
assign rd_pool = pool_rd_reg;
assign rd_path = path_rd_reg;
assign rd_host = host_rd_reg;

genvar l;
generate
    for (l = 0; l < LANES; l = l + 1) begin : g_lane
        wire lane_wr = wr_en && (wr_lane == l);

        reg [31:0] ctrl_mem [0:DEPTH-1];
        reg [31:0] meta_mem [0:DEPTH-1];
        reg [POOL_WIDTH-1:0] pool_mem [0:DEPTH-1];
        // the PAT_WORDS path (host) pattern words of a rule side by side, one write enable
        // per 32-bit word
        reg [PB-1:0] path_mem [0:DEPTH-1];
        reg [PB-1:0] host_mem [0:DEPTH-1];

        always @(posedge clk) begin
            if (lane_wr) begin
                if (wr_word == W_CTRL) ctrl_mem[wr_addr] <= wr_data;
                if (wr_word == W_META) meta_mem[wr_addr] <= wr_data;
                if (wr_word == W_POOL) pool_mem[wr_addr] <= wr_data[POOL_WIDTH-1:0];
                if (wr_path) path_mem[wr_addr][wr_bit +: 32] <= wr_data;
                if (wr_host) host_mem[wr_addr][wr_bit +: 32] <= wr_data;
            end
            if (rd_en) begin
                ctrl_rd_reg[l*32 +: 32] <= ctrl_mem[rd_addr];
                meta_rd_reg[l*32 +: 32] <= meta_mem[rd_addr];
                pool_rd_reg[l*POOL_WIDTH +: POOL_WIDTH] <= pool_mem[rd_addr];
                path_rd_reg[l*PB +: PB] <= path_mem[rd_addr];
                host_rd_reg[l*PB +: PB] <= host_mem[rd_addr];
            end
        end
    end
endgenerate

endmodule

`resetall
