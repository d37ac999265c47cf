// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * PicoRV32 (RV32IMC) on the internal bus. The native PicoRV32 memory interface already
 * is a valid/ready bus: a write has a non-zero wstrb.
 */
module soc_cpu_picorv32 #
(
    parameter DMEM_BASE = `SNIC_DMEM_BASE,
    parameter DMEM_SIZE = `SNIC_DMEM_SIZE
)
(
    input  wire        clk,
    input  wire        rst,

    // Status
    output wire        trap,

    // Internal bus master
    output wire        m_bus_valid,
    output wire        m_bus_we,
    output wire [31:0] m_bus_addr,
    output wire [31:0] m_bus_wdata,
    output wire [3:0]  m_bus_wstrb,
    input  wire        m_bus_ready,
    input  wire [31:0] m_bus_rdata
);

initial begin
    if (DMEM_SIZE < 16) begin
        $error("Error: DMEM_SIZE too small (instance %m)");
        $finish;
    end
end

localparam [31:0] STACK_TOP = DMEM_BASE + DMEM_SIZE;

wire [3:0] mem_wstrb;

assign m_bus_we = |mem_wstrb;
assign m_bus_wstrb = mem_wstrb;

// Look-ahead, co-processor, IRQ and trace outputs are not used.
// verilator lint_off PINMISSING
picorv32 #(
    .COMPRESSED_ISA(1),
    .ENABLE_MUL(1),
    .ENABLE_DIV(1),
    .ENABLE_IRQ(0),
    .CATCH_MISALIGN(1),
    .CATCH_ILLINSN(1),
    .PROGADDR_RESET(32'h00000000),
    .STACKADDR(STACK_TOP)
)
core_inst (
    .clk(clk),
    .resetn(!rst),
    .trap(trap),
    .mem_valid(m_bus_valid),
    .mem_ready(m_bus_ready),
    .mem_addr(m_bus_addr),
    .mem_wdata(m_bus_wdata),
    .mem_wstrb(mem_wstrb),
    .mem_rdata(m_bus_rdata),
    .pcpi_wr(1'b0),
    .pcpi_rd(32'd0),
    .pcpi_wait(1'b0),
    .pcpi_ready(1'b0),
    .irq(32'd0)
);
// verilator lint_on PINMISSING

endmodule

`resetall
