// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Per-server counts of first FINs (docs/engine.md, "Teardown"): for each real server, the
 * spliced flows whose close began (the first FIN of either side forwarded, flow_state_mem's
 * fin1) while their static entry had the ACTIVE flag: the connections that left ESTABLISHED,
 * IPVS's move from the active count to the inactive one, counted by the card instead of by
 * a FIN event to the firmware. The firmware folds the differences into its counts when it
 * needs them (DP.FIN_COUNT_IDX / DP.FIN_COUNT).
 *
 * inc_valid/inc_rs: one increment per cycle at most (an index at or past SERVERS is
 * dropped). Stage 1 registers it; stage 2 reads the count, adds one and writes it back in
 * one cycle (distributed RAM with an asynchronous read), so back-to-back increments of one
 * server all count. rd_rs -> rd_count: a second copy's read, registered (valid the cycle
 * after rd_rs; a count two cycles after its increment).
 */
module fin_count #
(
    parameter SERVERS = `SNIC_REAL_SERVERS,
    parameter RS_W = 8
)
(
    input  wire            clk,
    input  wire            rst,

    input  wire            inc_valid,
    input  wire [RS_W-1:0] inc_rs,

    input  wire [RS_W-1:0] rd_rs,
    output reg  [31:0]     rd_count = 32'd0
);

localparam IW = $clog2(SERVERS);

initial begin
    if (SERVERS < 2 || (SERVERS & (SERVERS - 1)) != 0 || IW > RS_W) begin
        $error("Error: SERVERS must be a power of two >= 2 and fit RS_W (instance %m)");
        $finish;
    end
end

reg [31:0] cnt_a [0:SERVERS-1];
reg [31:0] cnt_b [0:SERVERS-1];
integer i;
initial begin
    for (i = 0; i < SERVERS; i = i + 1) begin
        cnt_a[i] = 32'd0;
        cnt_b[i] = 32'd0;
    end
end

reg          v1_reg = 1'b0;
reg [IW-1:0] rs1_reg = {IW{1'b0}};

localparam [RS_W:0] LIMIT = SERVERS;
wire in_range = {1'b0, inc_rs} < LIMIT;
wire rd_in_range = {1'b0, rd_rs} < LIMIT;
wire [31:0] next = cnt_a[rs1_reg] + 32'd1;

always @(posedge clk) begin
    v1_reg <= inc_valid && in_range;
    rs1_reg <= inc_rs[IW-1:0];
    if (v1_reg) begin
        cnt_a[rs1_reg] <= next;
        cnt_b[rs1_reg] <= next;
    end
    rd_count <= rd_in_range ? cnt_b[rd_rs[IW-1:0]] : 32'd0;
    if (rst) begin
        v1_reg <= 1'b0;
    end
end

endmodule

`resetall
