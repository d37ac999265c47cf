// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"

/*
 * LOG block (ring control: SIZE, WPTR) and LOGBUF (the ring memory, byte-writable).
 * WPTR is cleared when the core is put into reset (core_clear).
 */
module soc_logring
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
    output wire [31:0] csr_rdata,

    // Core put into reset
    input  wire        core_clear
);

localparam [31:0] LOG_BASE = `SNIC_LOG_BASE;
localparam [31:0] BUF_BASE = `SNIC_LOGBUF_BASE;
localparam [31:0] RING_SIZE = `SNIC_LOG_SIZE_RESET;
localparam WORDS = `SNIC_LOGBUF_DATA_COUNT;

initial begin
    if (WORDS != 1024 || RING_SIZE != 4 * WORDS) begin
        $error("Error: LOGBUF must be 1024 words and match LOG.SIZE (instance %m)");
        $finish;
    end
end

reg        log_hit_reg = 1'b0;
reg [31:0] log_rdata_reg = 32'd0;
reg        buf_hit_reg = 1'b0;
reg [31:0] buf_rdata_reg = 32'd0;
reg [31:0] wptr_reg = `SNIC_LOG_WPTR_RESET;
reg [31:0] mem [0:1023];

assign csr_hit = log_hit_reg || buf_hit_reg;
assign csr_rdata = buf_hit_reg ? buf_rdata_reg : log_rdata_reg;

// Both masters may use this block.
// verilator lint_off UNUSED
wire unused_in = ^{csr_master, csr_addr[1:0]};
// verilator lint_on UNUSED

wire [31:0] wmask = {{8{csr_wstrb[3]}}, {8{csr_wstrb[2]}}, {8{csr_wstrb[1]}}, {8{csr_wstrb[0]}}};
wire log_sel = csr_stb && csr_addr[31:12] == LOG_BASE[31:12];
wire buf_sel = csr_stb && csr_addr[31:12] == BUF_BASE[31:12];
wire [9:0] buf_idx = csr_addr[11:2];
wire [3:0] buf_we = (buf_sel && csr_we) ? csr_wstrb : 4'd0;

integer i;

// Ring memory: single port, byte enables, registered read.
always @(posedge clk) begin
    if (buf_sel) begin
        for (i = 0; i < 4; i = i + 1) begin
            if (buf_we[i]) begin
                mem[buf_idx][8*i +: 8] <= csr_wdata[8*i +: 8];
            end
        end
        buf_rdata_reg <= mem[buf_idx];
    end
end

always @(posedge clk) begin
    log_hit_reg <= 1'b0;
    log_rdata_reg <= 32'd0;
    buf_hit_reg <= buf_sel;

    if (log_sel) begin
        log_hit_reg <= 1'b1;
        if (csr_we) begin
            if ({csr_addr[31:2], 2'b00} == `SNIC_LOG_WPTR) begin
                wptr_reg <= (wptr_reg & ~wmask) | (csr_wdata & wmask);
            end
        end else begin
            case ({csr_addr[31:2], 2'b00})
                `SNIC_LOG_BLKID: log_rdata_reg <= `SNIC_LOG_BLKID_RESET;
                `SNIC_LOG_SIZE: log_rdata_reg <= RING_SIZE;
                `SNIC_LOG_WPTR: log_rdata_reg <= wptr_reg;
                default: log_rdata_reg <= 32'd0;
            endcase
        end
    end

    if (core_clear) begin
        wptr_reg <= 32'd0;
    end

    if (rst) begin
        log_hit_reg <= 1'b0;
        buf_hit_reg <= 1'b0;
        wptr_reg <= `SNIC_LOG_WPTR_RESET;
    end
end

endmodule

`resetall
