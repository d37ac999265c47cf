// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * True dual-port RAM, 32-bit words with byte enables, one clock, registered reads.
 * Written so that synthesis infers a block RAM.
 */
module soc_ram_dp #
(
    // Size in bytes (power of two)
    parameter SIZE = 65536,
    parameter ADDR_WIDTH = $clog2(SIZE/4)
)
(
    input  wire                  clk,

    // Port A
    input  wire                  a_en,
    input  wire [3:0]            a_we,
    input  wire [ADDR_WIDTH-1:0] a_addr,
    input  wire [31:0]           a_wdata,
    output wire [31:0]           a_rdata,

    // Port B
    input  wire                  b_en,
    input  wire [3:0]            b_we,
    input  wire [ADDR_WIDTH-1:0] b_addr,
    input  wire [31:0]           b_wdata,
    output wire [31:0]           b_rdata
);

localparam DEPTH = SIZE / 4;

initial begin
    if (SIZE < 8 || (SIZE & (SIZE - 1)) != 0) begin
        $error("Error: SIZE must be a power of two >= 8 (instance %m)");
        $finish;
    end
    if ((1 << ADDR_WIDTH) != DEPTH) begin
        $error("Error: ADDR_WIDTH does not match SIZE (instance %m)");
        $finish;
    end
end

// Block RAMs leave a read of a word the other port writes in the same cycle undefined; the
// SoC never depends on it (the host loads IMEM with the core in reset, and a host read of
// DMEM racing a core write may see either value). no_rw_check lets synthesis map the
// memory to block RAM instead of flip-flops.
(* no_rw_check *)
reg [31:0] mem [0:DEPTH-1];
reg [31:0] a_rdata_reg = 32'd0;
reg [31:0] b_rdata_reg = 32'd0;

assign a_rdata = a_rdata_reg;
assign b_rdata = b_rdata_reg;

integer i;

always @(posedge clk) begin
    if (a_en) begin
        for (i = 0; i < 4; i = i + 1) begin
            if (a_we[i]) begin
                mem[a_addr][8*i +: 8] <= a_wdata[8*i +: 8];
            end
        end
        a_rdata_reg <= mem[a_addr];
    end
    if (b_en) begin
        for (i = 0; i < 4; i = i + 1) begin
            if (b_we[i]) begin
                mem[b_addr][8*i +: 8] <= b_wdata[8*i +: 8];
            end
        end
        b_rdata_reg <= mem[b_addr];
    end
end

endmodule

`resetall
