// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * AXI4-Lite slave (host BAR0) to the internal request/ready bus.
 * One transaction at a time; responses are always OKAY (unmapped offsets
 * return data from the interconnect instead of an error, so the host never hangs).
 */
module soc_axil_host #
(
    parameter ADDR_WIDTH = 20
)
(
    input  wire                  clk,
    input  wire                  rst,

    // AXI4-Lite slave
    input  wire [ADDR_WIDTH-1:0] s_axil_awaddr,
    input  wire [2:0]            s_axil_awprot,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output wire                  s_axil_bvalid,
    input  wire                  s_axil_bready,
    input  wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready,

    // Internal bus master
    output wire                  m_req_valid,
    output wire                  m_req_we,
    output wire [ADDR_WIDTH-1:0] m_req_addr,
    output wire [31:0]           m_req_wdata,
    output wire [3:0]            m_req_wstrb,
    input  wire                  m_req_ready,
    input  wire [31:0]           m_req_rdata
);

initial begin
    if (ADDR_WIDTH < 3 || ADDR_WIDTH > 32) begin
        $error("Error: ADDR_WIDTH must be 3..32 (instance %m)");
        $finish;
    end
end

reg                  aw_full_reg = 1'b0;
reg [ADDR_WIDTH-1:0] aw_addr_reg = {ADDR_WIDTH{1'b0}};
reg                  w_full_reg = 1'b0;
reg [31:0]           w_data_reg = 32'd0;
reg [3:0]            w_strb_reg = 4'd0;
reg                  ar_full_reg = 1'b0;
reg [ADDR_WIDTH-1:0] ar_addr_reg = {ADDR_WIDTH{1'b0}};

reg                  busy_reg = 1'b0;
reg                  we_reg = 1'b0;
reg                  bvalid_reg = 1'b0;
reg                  rvalid_reg = 1'b0;
reg [31:0]           rdata_reg = 32'd0;

assign s_axil_awready = !aw_full_reg;
assign s_axil_wready = !w_full_reg;
assign s_axil_arready = !ar_full_reg;
assign s_axil_bresp = 2'b00;
assign s_axil_bvalid = bvalid_reg;
assign s_axil_rdata = rdata_reg;
assign s_axil_rresp = 2'b00;
assign s_axil_rvalid = rvalid_reg;

assign m_req_valid = busy_reg;
assign m_req_we = we_reg;
assign m_req_addr = we_reg ? aw_addr_reg : ar_addr_reg;
assign m_req_wdata = w_data_reg;
assign m_req_wstrb = we_reg ? w_strb_reg : 4'd0;

// Protection bits carry no meaning on this card.
// verilator lint_off UNUSED
wire unused_prot = ^{s_axil_awprot, s_axil_arprot};
// verilator lint_on UNUSED

always @(posedge clk) begin
    if (s_axil_awvalid && !aw_full_reg) begin
        aw_full_reg <= 1'b1;
        aw_addr_reg <= s_axil_awaddr;
    end
    if (s_axil_wvalid && !w_full_reg) begin
        w_full_reg <= 1'b1;
        w_data_reg <= s_axil_wdata;
        w_strb_reg <= s_axil_wstrb;
    end
    if (s_axil_arvalid && !ar_full_reg) begin
        ar_full_reg <= 1'b1;
        ar_addr_reg <= s_axil_araddr;
    end

    if (bvalid_reg && s_axil_bready) begin
        bvalid_reg <= 1'b0;
    end
    if (rvalid_reg && s_axil_rready) begin
        rvalid_reg <= 1'b0;
    end

    if (busy_reg) begin
        if (m_req_ready) begin
            busy_reg <= 1'b0;
            if (we_reg) begin
                aw_full_reg <= 1'b0;
                w_full_reg <= 1'b0;
                bvalid_reg <= 1'b1;
            end else begin
                ar_full_reg <= 1'b0;
                rvalid_reg <= 1'b1;
                rdata_reg <= m_req_rdata;
            end
        end
    end else if (!bvalid_reg && !rvalid_reg) begin
        if (aw_full_reg && w_full_reg) begin
            busy_reg <= 1'b1;
            we_reg <= 1'b1;
        end else if (ar_full_reg) begin
            busy_reg <= 1'b1;
            we_reg <= 1'b0;
        end
    end

    if (rst) begin
        aw_full_reg <= 1'b0;
        w_full_reg <= 1'b0;
        ar_full_reg <= 1'b0;
        busy_reg <= 1'b0;
        we_reg <= 1'b0;
        bvalid_reg <= 1'b0;
        rvalid_reg <= 1'b0;
    end
end

endmodule

`resetall
