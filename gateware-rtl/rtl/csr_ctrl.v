// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"

/*
 * CTRL block: soft-core reset control, core status, scratch, firmware state and
 * heartbeat. CORE_CTRL.RESET resets to 1 and holds the core; writing RESET=1 pulses
 * core_clear, which clears FW_STATE, HEARTBEAT, CORE_STATUS.TRAP here and the log
 * write pointer and mailbox doorbells in their blocks.
 */
module csr_ctrl
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

    // Core control
    input  wire        core_trap,
    output wire        core_rst,
    output wire        core_clear
);

localparam [31:0] BASE = `SNIC_CTRL_BASE;
localparam [31:0] CORE_CTRL_RESET = `SNIC_CTRL_CORE_CTRL_RESET;
localparam RESET_BIT = `SNIC_CTRL_CORE_CTRL_RESET_LSB;
localparam TRAP_BIT = `SNIC_CTRL_CORE_STATUS_TRAP_LSB;
localparam IN_RESET_BIT = `SNIC_CTRL_CORE_STATUS_IN_RESET_LSB;

reg        hit_reg = 1'b0;
reg [31:0] rdata_reg = 32'd0;
reg        core_rst_reg = CORE_CTRL_RESET[RESET_BIT];
reg        core_clear_reg = 1'b0;
reg        trap_reg = 1'b0;
reg [31:0] scratch_reg = `SNIC_CTRL_SCRATCH_RESET;
reg [31:0] fw_state_reg = `SNIC_CTRL_FW_STATE_RESET;
reg [31:0] heartbeat_reg = `SNIC_CTRL_HEARTBEAT_RESET;

assign csr_hit = hit_reg;
assign csr_rdata = rdata_reg;
assign core_rst = core_rst_reg;
assign core_clear = core_clear_reg;

wire [31:0] wmask = {{8{csr_wstrb[3]}}, {8{csr_wstrb[2]}}, {8{csr_wstrb[1]}}, {8{csr_wstrb[0]}}};
wire sel = csr_stb && csr_addr[31:12] == BASE[31:12];
wire [31:0] reg_addr = {csr_addr[31:2], 2'b00};
wire wr = sel && csr_we;

// Both masters may use this block.
// verilator lint_off UNUSED
wire unused_in = ^{csr_master, csr_addr[1:0]};
// verilator lint_on UNUSED

wire [31:0] ctrl_value = {{31{1'b0}}, core_rst_reg} << RESET_BIT;
wire [31:0] ctrl_next = (ctrl_value & ~wmask) | (csr_wdata & wmask);
wire [31:0] status_value = ({{31{1'b0}}, trap_reg} << TRAP_BIT) | ({{31{1'b0}}, core_rst_reg} << IN_RESET_BIT);

always @(posedge clk) begin
    hit_reg <= 1'b0;
    rdata_reg <= 32'd0;
    core_clear_reg <= 1'b0;

    if (core_trap && !core_rst_reg) begin
        trap_reg <= 1'b1;
    end

    if (sel && !csr_we) begin
        hit_reg <= 1'b1;
        case (reg_addr)
            `SNIC_CTRL_BLKID: rdata_reg <= `SNIC_CTRL_BLKID_RESET;
            `SNIC_CTRL_CORE_CTRL: rdata_reg <= ctrl_value;
            `SNIC_CTRL_CORE_STATUS: rdata_reg <= status_value;
            `SNIC_CTRL_SCRATCH: rdata_reg <= scratch_reg;
            `SNIC_CTRL_FW_STATE: rdata_reg <= fw_state_reg;
            `SNIC_CTRL_HEARTBEAT: rdata_reg <= heartbeat_reg;
            default: rdata_reg <= 32'd0;
        endcase
    end

    if (wr) begin
        hit_reg <= 1'b1;
        case (reg_addr)
            `SNIC_CTRL_CORE_CTRL: begin
                core_rst_reg <= ctrl_next[RESET_BIT];
                if (ctrl_next[RESET_BIT]) begin
                    core_clear_reg <= 1'b1;
                end
            end
            `SNIC_CTRL_SCRATCH: scratch_reg <= (scratch_reg & ~wmask) | (csr_wdata & wmask);
            `SNIC_CTRL_FW_STATE: fw_state_reg <= (fw_state_reg & ~wmask) | (csr_wdata & wmask);
            `SNIC_CTRL_HEARTBEAT: heartbeat_reg <= (heartbeat_reg & ~wmask) | (csr_wdata & wmask);
            default: ;
        endcase
    end

    if (core_clear_reg) begin
        fw_state_reg <= 32'd0;
        heartbeat_reg <= 32'd0;
        trap_reg <= 1'b0;
    end

    if (rst) begin
        hit_reg <= 1'b0;
        core_rst_reg <= CORE_CTRL_RESET[RESET_BIT];
        core_clear_reg <= 1'b0;
        trap_reg <= 1'b0;
        scratch_reg <= `SNIC_CTRL_SCRATCH_RESET;
        fw_state_reg <= `SNIC_CTRL_FW_STATE_RESET;
        heartbeat_reg <= `SNIC_CTRL_HEARTBEAT_RESET;
    end
end

endmodule

`resetall
