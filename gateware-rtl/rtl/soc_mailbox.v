// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"

/*
 * MBOX block: host-to-firmware mailbox with doorbells, one request in flight.
 * REQ_DOORBELL write: REQ_TAG = value, sets REQ_PENDING, clears RSP_READY.
 * RSP_DOORBELL write: RSP_TAG = value, clears REQ_PENDING, sets RSP_READY.
 * RSP_ACK write: clears RSP_READY. core_clear (core put into reset) clears both bits.
 */
module soc_mailbox
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

localparam [31:0] BASE = `SNIC_MBOX_BASE;
localparam [31:0] REQ_DATA = `SNIC_MBOX_REQ_DATA;
localparam [31:0] RSP_DATA = `SNIC_MBOX_RSP_DATA;
localparam REQ_COUNT = `SNIC_MBOX_REQ_DATA_COUNT;
localparam RSP_COUNT = `SNIC_MBOX_RSP_DATA_COUNT;
localparam PENDING_BIT = `SNIC_MBOX_STATUS_REQ_PENDING_LSB;
localparam READY_BIT = `SNIC_MBOX_STATUS_RSP_READY_LSB;

initial begin
    if (REQ_COUNT != 16 || RSP_COUNT != 16 || (REQ_DATA % 64) != 0 || (RSP_DATA % 64) != 0) begin
        $error("Error: mailbox data arrays must be 16 words on a 64-byte boundary (instance %m)");
        $finish;
    end
end

reg        hit_reg = 1'b0;
reg [31:0] rdata_reg = 32'd0;
reg        req_pending_reg = 1'b0;
reg        rsp_ready_reg = 1'b0;
reg [31:0] req_tag_reg = `SNIC_MBOX_REQ_TAG_RESET;
reg [31:0] rsp_tag_reg = `SNIC_MBOX_RSP_TAG_RESET;
reg [31:0] req_cmd_reg = `SNIC_MBOX_REQ_CMD_RESET;
reg [31:0] req_len_reg = `SNIC_MBOX_REQ_LEN_RESET;
reg [31:0] rsp_status_reg = `SNIC_MBOX_RSP_STATUS_RESET;
reg [31:0] rsp_len_reg = `SNIC_MBOX_RSP_LEN_RESET;
reg [31:0] req_data_reg [0:15];
reg [31:0] rsp_data_reg [0:15];

assign csr_hit = hit_reg;
assign csr_rdata = rdata_reg;

// Both masters may use this block.
// verilator lint_off UNUSED
wire unused_in = ^{csr_master, csr_addr[1:0]};
// verilator lint_on UNUSED

wire [31:0] wmask = {{8{csr_wstrb[3]}}, {8{csr_wstrb[2]}}, {8{csr_wstrb[1]}}, {8{csr_wstrb[0]}}};
wire sel = csr_stb && csr_addr[31:12] == BASE[31:12];
wire [31:0] reg_addr = {csr_addr[31:2], 2'b00};
wire [3:0] idx = csr_addr[5:2];
wire in_req_data = csr_addr[31:6] == REQ_DATA[31:6];
wire in_rsp_data = csr_addr[31:6] == RSP_DATA[31:6];
wire [31:0] status_value = ({{31{1'b0}}, req_pending_reg} << PENDING_BIT) | ({{31{1'b0}}, rsp_ready_reg} << READY_BIT);

function [31:0] merge(input [31:0] old, input [31:0] value, input [31:0] mask);
    merge = (old & ~mask) | (value & mask);
endfunction

integer i;

initial begin
    for (i = 0; i < 16; i = i + 1) begin
        req_data_reg[i] = 32'd0;
        rsp_data_reg[i] = 32'd0;
    end
end

always @(posedge clk) begin
    hit_reg <= 1'b0;
    rdata_reg <= 32'd0;

    if (sel) begin
        hit_reg <= 1'b1;
        if (csr_we) begin
            if (in_req_data) begin
                req_data_reg[idx] <= merge(req_data_reg[idx], csr_wdata, wmask);
            end else if (in_rsp_data) begin
                rsp_data_reg[idx] <= merge(rsp_data_reg[idx], csr_wdata, wmask);
            end else begin
                case (reg_addr)
                    `SNIC_MBOX_REQ_DOORBELL: begin
                        req_tag_reg <= merge(req_tag_reg, csr_wdata, wmask);
                        req_pending_reg <= 1'b1;
                        rsp_ready_reg <= 1'b0;
                    end
                    `SNIC_MBOX_RSP_DOORBELL: begin
                        rsp_tag_reg <= merge(rsp_tag_reg, csr_wdata, wmask);
                        req_pending_reg <= 1'b0;
                        rsp_ready_reg <= 1'b1;
                    end
                    `SNIC_MBOX_RSP_ACK: rsp_ready_reg <= 1'b0;
                    `SNIC_MBOX_REQ_CMD: req_cmd_reg <= merge(req_cmd_reg, csr_wdata, wmask);
                    `SNIC_MBOX_REQ_LEN: req_len_reg <= merge(req_len_reg, csr_wdata, wmask);
                    `SNIC_MBOX_RSP_STATUS: rsp_status_reg <= merge(rsp_status_reg, csr_wdata, wmask);
                    `SNIC_MBOX_RSP_LEN: rsp_len_reg <= merge(rsp_len_reg, csr_wdata, wmask);
                    default: ;
                endcase
            end
        end else begin
            if (in_req_data) begin
                rdata_reg <= req_data_reg[idx];
            end else if (in_rsp_data) begin
                rdata_reg <= rsp_data_reg[idx];
            end else begin
                case (reg_addr)
                    `SNIC_MBOX_BLKID: rdata_reg <= `SNIC_MBOX_BLKID_RESET;
                    `SNIC_MBOX_STATUS: rdata_reg <= status_value;
                    `SNIC_MBOX_REQ_TAG: rdata_reg <= req_tag_reg;
                    `SNIC_MBOX_RSP_TAG: rdata_reg <= rsp_tag_reg;
                    `SNIC_MBOX_REQ_CMD: rdata_reg <= req_cmd_reg;
                    `SNIC_MBOX_REQ_LEN: rdata_reg <= req_len_reg;
                    `SNIC_MBOX_RSP_STATUS: rdata_reg <= rsp_status_reg;
                    `SNIC_MBOX_RSP_LEN: rdata_reg <= rsp_len_reg;
                    default: rdata_reg <= 32'd0;
                endcase
            end
        end
    end

    if (core_clear) begin
        req_pending_reg <= 1'b0;
        rsp_ready_reg <= 1'b0;
    end

    if (rst) begin
        hit_reg <= 1'b0;
        req_pending_reg <= 1'b0;
        rsp_ready_reg <= 1'b0;
        req_tag_reg <= `SNIC_MBOX_REQ_TAG_RESET;
        rsp_tag_reg <= `SNIC_MBOX_RSP_TAG_RESET;
        req_cmd_reg <= `SNIC_MBOX_REQ_CMD_RESET;
        req_len_reg <= `SNIC_MBOX_REQ_LEN_RESET;
        rsp_status_reg <= `SNIC_MBOX_RSP_STATUS_RESET;
        rsp_len_reg <= `SNIC_MBOX_RSP_LEN_RESET;
    end
end

endmodule

`resetall
