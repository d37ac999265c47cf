// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"
`include "splicenic_records.vh"

/*
 * ID block: card magic, register-map version, capabilities, core type, clock and
 * memory sizes. Read-only; writes are ignored.
 */
module csr_id #
(
    parameter [7:0] CPU_CODE = `SNIC_ID_CORE_CPU_PICORV32,
    parameter CLK_HZ = `SNIC_CLK_HZ,
    parameter IMEM_SIZE = `SNIC_IMEM_SIZE,
    parameter DMEM_SIZE = `SNIC_DMEM_SIZE,
    parameter BUILD_ID = 0
)
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

localparam [31:0] BASE = `SNIC_ID_BASE;
localparam [31:0] CORE_VALUE = {24'd0, CPU_CODE[7:0]};
localparam [31:0] CLK_VALUE = CLK_HZ;
localparam [31:0] IMEM_VALUE = IMEM_SIZE;
localparam [31:0] DMEM_VALUE = DMEM_SIZE;
localparam [31:0] BUILD_VALUE = BUILD_ID;

initial begin
    if (CPU_CODE == 8'd0) begin
        $error("Error: CPU_CODE out of range (instance %m)");
        $finish;
    end
end

reg        hit_reg = 1'b0;
reg [31:0] rdata_reg = 32'd0;

assign csr_hit = hit_reg;
assign csr_rdata = rdata_reg;

// Read-only block: write data, strobes and master are not needed.
// verilator lint_off UNUSED
wire unused_in = ^{csr_we, csr_wdata, csr_wstrb, csr_master, csr_addr[1:0]};
// verilator lint_on UNUSED

always @(posedge clk) begin
    hit_reg <= 1'b0;
    rdata_reg <= 32'd0;
    if (csr_stb && csr_addr[31:12] == BASE[31:12]) begin
        hit_reg <= 1'b1;
        case ({csr_addr[31:2], 2'b00})
            `SNIC_ID_MAGIC: rdata_reg <= `SNIC_ID_MAGIC_RESET;
            `SNIC_ID_VERSION: rdata_reg <= `SNIC_ID_VERSION_RESET;
            `SNIC_ID_CAPS: rdata_reg <= `SNIC_ID_CAPS_RESET;
            `SNIC_ID_CORE: rdata_reg <= CORE_VALUE;
            `SNIC_ID_CLK_HZ: rdata_reg <= CLK_VALUE;
            `SNIC_ID_IMEM_SIZE: rdata_reg <= IMEM_VALUE;
            `SNIC_ID_DMEM_SIZE: rdata_reg <= DMEM_VALUE;
            `SNIC_ID_IMEM_WINDOW: rdata_reg <= `SNIC_ID_IMEM_WINDOW_RESET;
            `SNIC_ID_DMEM_WINDOW: rdata_reg <= `SNIC_ID_DMEM_WINDOW_RESET;
            `SNIC_ID_BUILD_ID: rdata_reg <= BUILD_VALUE;
            default: rdata_reg <= 32'd0;
        endcase
    end

    if (rst) begin
        hit_reg <= 1'b0;
    end
end

endmodule

`resetall
