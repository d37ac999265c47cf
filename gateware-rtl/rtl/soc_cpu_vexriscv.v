// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * VexRiscv (IMAC variant, caches) on the internal bus. The instruction and data
 * Wishbone buses are merged onto one bus master; each Wishbone strobe is one single
 * access (classic cycles, bursts are carried out beat by beat). Data bus first.
 */
module soc_cpu_vexriscv
(
    input  wire        clk,
    input  wire        rst,

    // Status (VexRiscv handles traps itself through mtvec)
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

wire        ibus_cyc;
wire        ibus_stb;
wire        ibus_we;
wire [29:0] ibus_adr;
wire [31:0] ibus_dat_w;
wire [3:0]  ibus_sel;
wire        dbus_cyc;
wire        dbus_stb;
wire        dbus_we;
wire [29:0] dbus_adr;
wire [31:0] dbus_dat_w;
wire [3:0]  dbus_sel;

reg active_reg = 1'b0;
reg owner_d_reg = 1'b0;

wire ibus_req = ibus_cyc && ibus_stb;
wire dbus_req = dbus_cyc && dbus_stb;

assign trap = 1'b0;

assign m_bus_valid = active_reg;
assign m_bus_we = owner_d_reg ? dbus_we : ibus_we;
assign m_bus_addr = {owner_d_reg ? dbus_adr : ibus_adr, 2'b00};
assign m_bus_wdata = owner_d_reg ? dbus_dat_w : ibus_dat_w;
assign m_bus_wstrb = m_bus_we ? (owner_d_reg ? dbus_sel : ibus_sel) : 4'd0;

wire ibus_ack = active_reg && !owner_d_reg && m_bus_ready;
wire dbus_ack = active_reg && owner_d_reg && m_bus_ready;

always @(posedge clk) begin
    if (active_reg) begin
        if (m_bus_ready) begin
            active_reg <= 1'b0;
        end
    end else if (dbus_req) begin
        active_reg <= 1'b1;
        owner_d_reg <= 1'b1;
    end else if (ibus_req) begin
        active_reg <= 1'b1;
        owner_d_reg <= 1'b0;
    end

    if (rst) begin
        active_reg <= 1'b0;
        owner_d_reg <= 1'b0;
    end
end

// Burst type outputs are not needed for single accesses.
// verilator lint_off PINMISSING
VexRiscv
core_inst (
    .clk(clk),
    .reset(rst),
    .externalResetVector(32'h00000000),
    .timerInterrupt(1'b0),
    .softwareInterrupt(1'b0),
    .externalInterruptArray(32'd0),
    .iBusWishbone_CYC(ibus_cyc),
    .iBusWishbone_STB(ibus_stb),
    .iBusWishbone_ACK(ibus_ack),
    .iBusWishbone_WE(ibus_we),
    .iBusWishbone_ADR(ibus_adr),
    .iBusWishbone_DAT_MISO(m_bus_rdata),
    .iBusWishbone_DAT_MOSI(ibus_dat_w),
    .iBusWishbone_SEL(ibus_sel),
    .iBusWishbone_ERR(1'b0),
    .dBusWishbone_CYC(dbus_cyc),
    .dBusWishbone_STB(dbus_stb),
    .dBusWishbone_ACK(dbus_ack),
    .dBusWishbone_WE(dbus_we),
    .dBusWishbone_ADR(dbus_adr),
    .dBusWishbone_DAT_MISO(m_bus_rdata),
    .dBusWishbone_DAT_MOSI(dbus_dat_w),
    .dBusWishbone_SEL(dbus_sel),
    .dBusWishbone_ERR(1'b0)
);
// verilator lint_on PINMISSING

endmodule

`resetall
