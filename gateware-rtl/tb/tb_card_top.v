// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"

/*
 * Smoke test of card_top in Icarus: ID.MAGIC and SCRATCH over AXI4-Lite,
 * an unmapped offset reads 0xDEADBEEF.
 */
module tb_card_top;

reg clk = 1'b0;
reg rst = 1'b1;
always #3.2 clk = !clk;

reg  [19:0] awaddr = 20'd0;
reg         awvalid = 1'b0;
wire        awready;
reg  [31:0] wdata = 32'd0;
reg         wvalid = 1'b0;
wire        wready;
wire [1:0]  bresp;
wire        bvalid;
reg  [19:0] araddr = 20'd0;
reg         arvalid = 1'b0;
wire        arready;
wire [31:0] rdata;
wire [1:0]  rresp;
wire        rvalid;
integer     errors = 0;

card_top dut (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(awaddr), .s_axil_awprot(3'd0), .s_axil_awvalid(awvalid), .s_axil_awready(awready),
    .s_axil_wdata(wdata), .s_axil_wstrb(4'hF), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
    .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(1'b1),
    .s_axil_araddr(araddr), .s_axil_arprot(3'd0), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
    .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid), .s_axil_rready(1'b1),
    .s_axis_c_tdata(64'd0), .s_axis_c_tkeep(8'd0), .s_axis_c_tvalid(1'b0), .s_axis_c_tready(),
    .s_axis_c_tlast(1'b0), .s_axis_c_tuser(1'b0),
    .m_axis_c_tdata(), .m_axis_c_tkeep(), .m_axis_c_tvalid(), .m_axis_c_tready(1'b1),
    .m_axis_c_tlast(), .m_axis_c_tuser(),
    .s_axis_s_tdata(64'd0), .s_axis_s_tkeep(8'd0), .s_axis_s_tvalid(1'b0), .s_axis_s_tready(),
    .s_axis_s_tlast(1'b0), .s_axis_s_tuser(1'b0),
    .m_axis_s_tdata(), .m_axis_s_tkeep(), .m_axis_s_tvalid(), .m_axis_s_tready(1'b1),
    .m_axis_s_tlast(), .m_axis_s_tuser()
);

task axil_write(input [19:0] addr, input [31:0] data);
    begin
        @(negedge clk);
        awaddr = addr; awvalid = 1'b1; wdata = data; wvalid = 1'b1;
        @(posedge clk);
        while (!(awready && wready)) @(posedge clk);
        @(negedge clk);
        awvalid = 1'b0; wvalid = 1'b0;
        while (!bvalid) @(posedge clk);
        @(posedge clk);
    end
endtask

task axil_read(input [19:0] addr, output [31:0] data);
    begin
        @(negedge clk);
        araddr = addr; arvalid = 1'b1;
        @(posedge clk);
        while (!arready) @(posedge clk);
        @(negedge clk);
        arvalid = 1'b0;
        while (!rvalid) @(negedge clk);
        data = rdata;
        @(posedge clk);
    end
endtask

task check_read(input [19:0] addr, input [31:0] value);
    reg [31:0] got;
    begin
        axil_read(addr, got);
        if (got !== value) begin
            $display("FAIL: read %h = %h, expected %h", addr, got, value);
            errors = errors + 1;
        end
    end
endtask

initial begin
    repeat (8) @(posedge clk);
    rst = 1'b0;
    check_read(`SNIC_ID_MAGIC, `SNIC_ID_MAGIC_RESET);
    check_read(`SNIC_CTRL_CORE_STATUS, `SNIC_CTRL_CORE_STATUS_RESET);
    axil_write(`SNIC_CTRL_SCRATCH, 32'hC0FFEE01);
    check_read(`SNIC_CTRL_SCRATCH, 32'hC0FFEE01);
    check_read(20'hF0000, 32'hDEADBEEF);
    if (errors == 0) begin
        $display("PASS: tb_card_top");
    end
    $finish;
end

initial begin
    #100000;
    $display("FAIL: tb_card_top timed out");
    $finish;
end

endmodule

`resetall
