// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"
`include "splicenic_records.vh"

/*
 * SoC interconnect.
 *
 * Core accesses are routed by core address: IMEM at IMEM_BASE, DMEM at DMEM_BASE (constants
 * of docs/records.md), CSR space 0xF000_0000 (256 KiB). Host accesses are routed by BAR0
 * offset: CSR space 0x00000, IMEM window and DMEM window (offsets from the ID block). The
 * memories have one port
 * for each side; the CSR space is shared and arbitrated (alternating priority).
 * Any other address reads 0xDEADBEEF and ignores writes; no access hangs.
 *
 * CSR bus: csr_stb is a one-cycle strobe with address/data/master; every CSR block
 * answers with registered csr_hit/csr_rdata in the next cycle (OR-combined outside).
 */
module soc_interconnect #
(
    parameter IMEM_SIZE = `SNIC_IMEM_SIZE,
    parameter DMEM_SIZE = `SNIC_DMEM_SIZE,
    parameter HOST_ADDR_WIDTH = 20,
    parameter IMEM_AW = $clog2(IMEM_SIZE/4),
    parameter DMEM_AW = $clog2(DMEM_SIZE/4)
)
(
    input  wire                       clk,
    input  wire                       rst,

    // Core bus slave
    input  wire                       s_core_valid,
    input  wire                       s_core_we,
    input  wire [31:0]                s_core_addr,
    input  wire [31:0]                s_core_wdata,
    input  wire [3:0]                 s_core_wstrb,
    output wire                       s_core_ready,
    output wire [31:0]                s_core_rdata,

    // Host bus slave (BAR0 offsets)
    input  wire                       s_host_valid,
    input  wire                       s_host_we,
    input  wire [HOST_ADDR_WIDTH-1:0] s_host_addr,
    input  wire [31:0]                s_host_wdata,
    input  wire [3:0]                 s_host_wstrb,
    output wire                       s_host_ready,
    output wire [31:0]                s_host_rdata,

    // IMEM (port A: core, port B: host)
    output wire                       imem_a_en,
    output wire [3:0]                 imem_a_we,
    output wire [IMEM_AW-1:0]         imem_a_addr,
    output wire [31:0]                imem_a_wdata,
    input  wire [31:0]                imem_a_rdata,
    output wire                       imem_b_en,
    output wire [3:0]                 imem_b_we,
    output wire [IMEM_AW-1:0]         imem_b_addr,
    output wire [31:0]                imem_b_wdata,
    input  wire [31:0]                imem_b_rdata,

    // DMEM (port A: core, port B: host)
    output wire                       dmem_a_en,
    output wire [3:0]                 dmem_a_we,
    output wire [DMEM_AW-1:0]         dmem_a_addr,
    output wire [31:0]                dmem_a_wdata,
    input  wire [31:0]                dmem_a_rdata,
    output wire                       dmem_b_en,
    output wire [3:0]                 dmem_b_we,
    output wire [DMEM_AW-1:0]         dmem_b_addr,
    output wire [31:0]                dmem_b_wdata,
    input  wire [31:0]                dmem_b_rdata,

    // CSR bus master
    output wire                       csr_stb,
    output wire                       csr_we,
    output wire [31:0]                csr_addr,
    output wire [31:0]                csr_wdata,
    output wire [3:0]                 csr_wstrb,
    output wire                       csr_master,
    input  wire                       csr_hit,
    input  wire [31:0]                csr_rdata
);

localparam [31:0] DMEM_BASE = `SNIC_DMEM_BASE;
localparam [31:0] CSR_BASE = `SNIC_CSR_CORE_BASE;
localparam [31:0] CSR_SIZE = 32'h00040000;
localparam [31:0] IMEM_WINDOW = `SNIC_ID_IMEM_WINDOW_RESET;
localparam [31:0] DMEM_WINDOW = `SNIC_ID_DMEM_WINDOW_RESET;
localparam [31:0] IMEM_BYTES = IMEM_SIZE;
localparam [31:0] DMEM_BYTES = DMEM_SIZE;
localparam [31:0] BAD_DATA = 32'hDEADBEEF;

initial begin
    if ((1 << IMEM_AW) * 4 != IMEM_SIZE || (1 << DMEM_AW) * 4 != DMEM_SIZE) begin
        $error("Error: IMEM_SIZE/DMEM_SIZE must be powers of two matching IMEM_AW/DMEM_AW (instance %m)");
        $finish;
    end
    if (IMEM_BYTES > CSR_SIZE || (IMEM_WINDOW % IMEM_BYTES) != 0 || (DMEM_WINDOW % DMEM_BYTES) != 0) begin
        $error("Error: memory windows must be aligned to the memory size (instance %m)");
        $finish;
    end
    // the core decode below takes IMEM at core address 0
    if (`SNIC_IMEM_BASE != 0) begin
        $error("Error: IMEM must be at core address 0 (instance %m)");
        $finish;
    end
    if (HOST_ADDR_WIDTH < 19 || HOST_ADDR_WIDTH > 32) begin
        $error("Error: HOST_ADDR_WIDTH must be 19..32 (instance %m)");
        $finish;
    end
end

localparam [2:0]
    ST_IDLE = 3'd0,
    ST_IMEM = 3'd1,
    ST_DMEM = 3'd2,
    ST_CSR = 3'd3,
    ST_BAD = 3'd4;

reg [2:0] c_state_reg = ST_IDLE;
reg [2:0] h_state_reg = ST_IDLE;
reg       csr_busy_reg = 1'b0;
reg       csr_owner_reg = 1'b0;
reg       csr_last_core_reg = 1'b0;

// Core decode
wire c_hit_imem = s_core_addr < IMEM_BYTES;
wire c_hit_dmem = s_core_addr >= DMEM_BASE && s_core_addr < DMEM_BASE + DMEM_BYTES;
wire c_hit_csr = s_core_addr >= CSR_BASE && s_core_addr < CSR_BASE + CSR_SIZE;
wire c_start = s_core_valid && c_state_reg == ST_IDLE;

// Host decode
wire [31:0] h_addr = {{(32-HOST_ADDR_WIDTH){1'b0}}, s_host_addr};
wire h_hit_csr = h_addr < CSR_SIZE;
wire h_hit_imem = h_addr >= IMEM_WINDOW && h_addr < IMEM_WINDOW + IMEM_BYTES;
wire h_hit_dmem = h_addr >= DMEM_WINDOW && h_addr < DMEM_WINDOW + DMEM_BYTES;
wire h_start = s_host_valid && h_state_reg == ST_IDLE;

// Memories
assign imem_a_en = c_start && c_hit_imem;
assign imem_a_we = s_core_we ? s_core_wstrb : 4'd0;
assign imem_a_addr = s_core_addr[IMEM_AW+1:2];
assign imem_a_wdata = s_core_wdata;
assign dmem_a_en = c_start && c_hit_dmem;
assign dmem_a_we = s_core_we ? s_core_wstrb : 4'd0;
assign dmem_a_addr = s_core_addr[DMEM_AW+1:2];
assign dmem_a_wdata = s_core_wdata;

assign imem_b_en = h_start && h_hit_imem;
assign imem_b_we = s_host_we ? s_host_wstrb : 4'd0;
assign imem_b_addr = h_addr[IMEM_AW+1:2];
assign imem_b_wdata = s_host_wdata;
assign dmem_b_en = h_start && h_hit_dmem;
assign dmem_b_we = s_host_we ? s_host_wstrb : 4'd0;
assign dmem_b_addr = h_addr[DMEM_AW+1:2];
assign dmem_b_wdata = s_host_wdata;

// CSR arbitration
wire core_csr_req = c_state_reg == ST_CSR;
wire host_csr_req = h_state_reg == ST_CSR;
wire grant_core = !csr_busy_reg && core_csr_req && (!host_csr_req || !csr_last_core_reg);
wire grant_host = !csr_busy_reg && host_csr_req && !grant_core;
wire csr_ack_core = csr_busy_reg && csr_owner_reg;
wire csr_ack_host = csr_busy_reg && !csr_owner_reg;
wire [31:0] csr_result = csr_hit ? csr_rdata : BAD_DATA;

assign csr_stb = grant_core || grant_host;
assign csr_we = grant_core ? s_core_we : s_host_we;
assign csr_addr = grant_core ? {14'd0, s_core_addr[17:0]} : {14'd0, h_addr[17:0]};
assign csr_wdata = grant_core ? s_core_wdata : s_host_wdata;
assign csr_wstrb = grant_core ? s_core_wstrb : s_host_wstrb;
assign csr_master = grant_core;

// Responses
assign s_core_ready = c_state_reg == ST_IMEM || c_state_reg == ST_DMEM || c_state_reg == ST_BAD
    || (c_state_reg == ST_CSR && csr_ack_core);
assign s_core_rdata = c_state_reg == ST_IMEM ? imem_a_rdata :
                      c_state_reg == ST_DMEM ? dmem_a_rdata :
                      c_state_reg == ST_CSR ? csr_result : BAD_DATA;
assign s_host_ready = h_state_reg == ST_IMEM || h_state_reg == ST_DMEM || h_state_reg == ST_BAD
    || (h_state_reg == ST_CSR && csr_ack_host);
assign s_host_rdata = h_state_reg == ST_IMEM ? imem_b_rdata :
                      h_state_reg == ST_DMEM ? dmem_b_rdata :
                      h_state_reg == ST_CSR ? csr_result : BAD_DATA;

always @(posedge clk) begin
    // core side
    if (c_start) begin
        if (c_hit_imem) begin
            c_state_reg <= ST_IMEM;
        end else if (c_hit_dmem) begin
            c_state_reg <= ST_DMEM;
        end else if (c_hit_csr) begin
            c_state_reg <= ST_CSR;
        end else begin
            c_state_reg <= ST_BAD;
        end
    end else if (s_core_ready) begin
        c_state_reg <= ST_IDLE;
    end

    // host side
    if (h_start) begin
        if (h_hit_csr) begin
            h_state_reg <= ST_CSR;
        end else if (h_hit_imem) begin
            h_state_reg <= ST_IMEM;
        end else if (h_hit_dmem) begin
            h_state_reg <= ST_DMEM;
        end else begin
            h_state_reg <= ST_BAD;
        end
    end else if (s_host_ready) begin
        h_state_reg <= ST_IDLE;
    end

    // CSR arbiter
    if (csr_busy_reg) begin
        csr_busy_reg <= 1'b0;
    end else if (csr_stb) begin
        csr_busy_reg <= 1'b1;
        csr_owner_reg <= grant_core;
        csr_last_core_reg <= grant_core;
    end

    if (rst) begin
        c_state_reg <= ST_IDLE;
        h_state_reg <= ST_IDLE;
        csr_busy_reg <= 1'b0;
        csr_owner_reg <= 1'b0;
        csr_last_core_reg <= 1'b0;
    end
end

endmodule

`resetall
