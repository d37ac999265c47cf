// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"

/*
 * TIMER block: free-running 64-bit cycle counter. Reading COUNT_LO latches bits 63:32
 * for the master that read it; COUNT_HI returns that master's latch.
 */
module soc_timer
(
    input  wire        clk,
    input  wire        rst,

    // CSR bus slave
    input  wire        csr_stb,
    input  wire        csr_we,
    input  wire [31:0] csr_addr,
    input  wire [31:0] csr_wdata,
    input  wire [3:0]  csr_wstrb,
    input  wire        csr_master,
    output wire        csr_hit,
    output wire [31:0] csr_rdata
);

localparam [31:0] BASE = `SNIC_TIMER_BASE;

reg        hit_reg = 1'b0;
reg [31:0] rdata_reg = 32'd0;
reg [63:0] count_reg = 64'd0;
reg [31:0] hi_host_reg = 32'd0;
reg [31:0] hi_core_reg = 32'd0;

assign csr_hit = hit_reg;
assign csr_rdata = rdata_reg;

// All registers are read-only.
// verilator lint_off UNUSED
wire unused_in = ^{csr_wdata, csr_wstrb, csr_addr[1:0]};
// verilator lint_on UNUSED

wire sel = csr_stb && csr_addr[31:12] == BASE[31:12];

always @(posedge clk) begin
    hit_reg <= 1'b0;
    rdata_reg <= 32'd0;
    count_reg <= count_reg + 64'd1;

    if (sel) begin
        hit_reg <= 1'b1;
        if (!csr_we) begin
            case ({csr_addr[31:2], 2'b00})
                `SNIC_TIMER_BLKID: rdata_reg <= `SNIC_TIMER_BLKID_RESET;
                `SNIC_TIMER_COUNT_LO: begin
                    rdata_reg <= count_reg[31:0];
                    if (csr_master) begin
                        hi_core_reg <= count_reg[63:32];
                    end else begin
                        hi_host_reg <= count_reg[63:32];
                    end
                end
                `SNIC_TIMER_COUNT_HI: rdata_reg <= csr_master ? hi_core_reg : hi_host_reg;
                default: rdata_reg <= 32'd0;
            endcase
        end
    end

    if (rst) begin
        hit_reg <= 1'b0;
        count_reg <= 64'd0;
        hi_host_reg <= 32'd0;
        hi_core_reg <= 32'd0;
    end
end

endmodule

`resetall
