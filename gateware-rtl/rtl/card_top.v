// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"
`include "splicenic_records.vh"

/*
 * SpliceNIC card top: host BAR0 (AXI4-Lite), soft core with IMEM/DMEM, CSR blocks
 * (ID, CTRL, TIMER, MBOX, LOG/LOGBUF), and the splicer data path (splice_datapath, with
 * its CSR blocks DP, FLOW, L7, PUNT, INJECT, EVQ, STATS) between the two Ethernet ports
 * (client, server). Flow-table and flow-state sizes are parameters (defaults: 128K table
 * entries, two per flow, and 64K flow slots: 64K flows).
 */
module card_top #
(
    // Soft core: "PICORV32" or "VEXRISCV"
    parameter CPU = "PICORV32",
    parameter CLK_HZ = `SNIC_CLK_HZ,
    parameter IMEM_SIZE = `SNIC_IMEM_SIZE,
    parameter DMEM_SIZE = `SNIC_DMEM_SIZE,
    parameter BUILD_ID = 0,
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    parameter FLOW_BUCKETS = 32768,
    parameter FLOW_WAYS = 4,
    parameter FLOW_SLOTS = 65536,
    parameter L7_RULES = 64
)
(
    input  wire                  clk,
    input  wire                  rst,

    // Host BAR0, AXI4-Lite slave
    input  wire [19:0]           s_axil_awaddr,
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
    input  wire [19:0]           s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready,

    // Client-side Ethernet port, RX (frames from the client network)
    input  wire [DATA_WIDTH-1:0] s_axis_c_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_c_tkeep,
    input  wire                  s_axis_c_tvalid,
    output wire                  s_axis_c_tready,
    input  wire                  s_axis_c_tlast,
    input  wire                  s_axis_c_tuser,
    // Client-side Ethernet port, TX
    output wire [DATA_WIDTH-1:0] m_axis_c_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_c_tkeep,
    output wire                  m_axis_c_tvalid,
    input  wire                  m_axis_c_tready,
    output wire                  m_axis_c_tlast,
    output wire                  m_axis_c_tuser,

    // Server-side Ethernet port, RX
    input  wire [DATA_WIDTH-1:0] s_axis_s_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_s_tkeep,
    input  wire                  s_axis_s_tvalid,
    output wire                  s_axis_s_tready,
    input  wire                  s_axis_s_tlast,
    input  wire                  s_axis_s_tuser,
    // Server-side Ethernet port, TX
    output wire [DATA_WIDTH-1:0] m_axis_s_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_s_tkeep,
    output wire                  m_axis_s_tvalid,
    input  wire                  m_axis_s_tready,
    output wire                  m_axis_s_tlast,
    output wire                  m_axis_s_tuser
);

localparam CPU_IS_PICORV32 = CPU == "PICORV32";
localparam CPU_IS_VEXRISCV = CPU == "VEXRISCV";
// ID.CORE.CPU code (SVD enumeration)
localparam [7:0] CPU_CODE = CPU_IS_VEXRISCV ? `SNIC_ID_CORE_CPU_VEXRISCV : `SNIC_ID_CORE_CPU_PICORV32;

initial begin
    if (!CPU_IS_PICORV32 && !CPU_IS_VEXRISCV) begin
        $error("Error: CPU must be \"PICORV32\" or \"VEXRISCV\" (instance %m)");
        $finish;
    end
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: KEEP_WIDTH must be DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

localparam IMEM_AW = $clog2(IMEM_SIZE/4);
localparam DMEM_AW = $clog2(DMEM_SIZE/4);

// Host bus
wire        host_valid;
wire        host_we;
wire [19:0] host_addr;
wire [31:0] host_wdata;
wire [3:0]  host_wstrb;
wire        host_ready;
wire [31:0] host_rdata;

soc_axil_host #(
    .ADDR_WIDTH(20)
)
axil_host_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .m_req_valid(host_valid),
    .m_req_we(host_we),
    .m_req_addr(host_addr),
    .m_req_wdata(host_wdata),
    .m_req_wstrb(host_wstrb),
    .m_req_ready(host_ready),
    .m_req_rdata(host_rdata)
);

// Soft core
wire        core_rst;
wire        core_clear;
wire        core_trap;
wire        core_valid;
wire        core_we;
wire [31:0] core_addr;
wire [31:0] core_wdata;
wire [3:0]  core_wstrb;
wire        core_ready;
wire [31:0] core_rdata;

generate
if (CPU_IS_VEXRISCV) begin : g_vexriscv
    soc_cpu_vexriscv
    cpu_inst (
        .clk(clk),
        .rst(rst || core_rst),
        .trap(core_trap),
        .m_bus_valid(core_valid),
        .m_bus_we(core_we),
        .m_bus_addr(core_addr),
        .m_bus_wdata(core_wdata),
        .m_bus_wstrb(core_wstrb),
        .m_bus_ready(core_ready),
        .m_bus_rdata(core_rdata)
    );
end else begin : g_picorv32
    soc_cpu_picorv32 #(
        .DMEM_BASE(`SNIC_DMEM_BASE),
        .DMEM_SIZE(DMEM_SIZE)
    )
    cpu_inst (
        .clk(clk),
        .rst(rst || core_rst),
        .trap(core_trap),
        .m_bus_valid(core_valid),
        .m_bus_we(core_we),
        .m_bus_addr(core_addr),
        .m_bus_wdata(core_wdata),
        .m_bus_wstrb(core_wstrb),
        .m_bus_ready(core_ready),
        .m_bus_rdata(core_rdata)
    );
end
endgenerate

// Interconnect and memories
wire               imem_a_en;
wire [3:0]         imem_a_we;
wire [IMEM_AW-1:0] imem_a_addr;
wire [31:0]        imem_a_wdata;
wire [31:0]        imem_a_rdata;
wire               imem_b_en;
wire [3:0]         imem_b_we;
wire [IMEM_AW-1:0] imem_b_addr;
wire [31:0]        imem_b_wdata;
wire [31:0]        imem_b_rdata;
wire               dmem_a_en;
wire [3:0]         dmem_a_we;
wire [DMEM_AW-1:0] dmem_a_addr;
wire [31:0]        dmem_a_wdata;
wire [31:0]        dmem_a_rdata;
wire               dmem_b_en;
wire [3:0]         dmem_b_we;
wire [DMEM_AW-1:0] dmem_b_addr;
wire [31:0]        dmem_b_wdata;
wire [31:0]        dmem_b_rdata;

wire        csr_stb;
wire        csr_we;
wire [31:0] csr_addr;
wire [31:0] csr_wdata;
wire [3:0]  csr_wstrb;
wire        csr_master;
wire        id_hit, ctrl_hit, timer_hit, mbox_hit, log_hit, dp_hit;
wire [31:0] id_rdata, ctrl_rdata, timer_rdata, mbox_rdata, log_rdata, dp_rdata;

soc_interconnect #(
    .IMEM_SIZE(IMEM_SIZE),
    .DMEM_SIZE(DMEM_SIZE),
    .HOST_ADDR_WIDTH(20)
)
interconnect_inst (
    .clk(clk),
    .rst(rst),
    .s_core_valid(core_valid),
    .s_core_we(core_we),
    .s_core_addr(core_addr),
    .s_core_wdata(core_wdata),
    .s_core_wstrb(core_wstrb),
    .s_core_ready(core_ready),
    .s_core_rdata(core_rdata),
    .s_host_valid(host_valid),
    .s_host_we(host_we),
    .s_host_addr(host_addr),
    .s_host_wdata(host_wdata),
    .s_host_wstrb(host_wstrb),
    .s_host_ready(host_ready),
    .s_host_rdata(host_rdata),
    .imem_a_en(imem_a_en),
    .imem_a_we(imem_a_we),
    .imem_a_addr(imem_a_addr),
    .imem_a_wdata(imem_a_wdata),
    .imem_a_rdata(imem_a_rdata),
    .imem_b_en(imem_b_en),
    .imem_b_we(imem_b_we),
    .imem_b_addr(imem_b_addr),
    .imem_b_wdata(imem_b_wdata),
    .imem_b_rdata(imem_b_rdata),
    .dmem_a_en(dmem_a_en),
    .dmem_a_we(dmem_a_we),
    .dmem_a_addr(dmem_a_addr),
    .dmem_a_wdata(dmem_a_wdata),
    .dmem_a_rdata(dmem_a_rdata),
    .dmem_b_en(dmem_b_en),
    .dmem_b_we(dmem_b_we),
    .dmem_b_addr(dmem_b_addr),
    .dmem_b_wdata(dmem_b_wdata),
    .dmem_b_rdata(dmem_b_rdata),
    .csr_stb(csr_stb),
    .csr_we(csr_we),
    .csr_addr(csr_addr),
    .csr_wdata(csr_wdata),
    .csr_wstrb(csr_wstrb),
    .csr_master(csr_master),
    .csr_hit(id_hit || ctrl_hit || timer_hit || mbox_hit || log_hit || dp_hit),
    .csr_rdata(id_rdata | ctrl_rdata | timer_rdata | mbox_rdata | log_rdata | dp_rdata)
);

soc_ram_dp #(
    .SIZE(IMEM_SIZE)
)
imem_inst (
    .clk(clk),
    .a_en(imem_a_en),
    .a_we(imem_a_we),
    .a_addr(imem_a_addr),
    .a_wdata(imem_a_wdata),
    .a_rdata(imem_a_rdata),
    .b_en(imem_b_en),
    .b_we(imem_b_we),
    .b_addr(imem_b_addr),
    .b_wdata(imem_b_wdata),
    .b_rdata(imem_b_rdata)
);

soc_ram_dp #(
    .SIZE(DMEM_SIZE)
)
dmem_inst (
    .clk(clk),
    .a_en(dmem_a_en),
    .a_we(dmem_a_we),
    .a_addr(dmem_a_addr),
    .a_wdata(dmem_a_wdata),
    .a_rdata(dmem_a_rdata),
    .b_en(dmem_b_en),
    .b_we(dmem_b_we),
    .b_addr(dmem_b_addr),
    .b_wdata(dmem_b_wdata),
    .b_rdata(dmem_b_rdata)
);

// CSR blocks
csr_id #(
    .CPU_CODE(CPU_CODE),
    .CLK_HZ(CLK_HZ),
    .IMEM_SIZE(IMEM_SIZE),
    .DMEM_SIZE(DMEM_SIZE),
    .BUILD_ID(BUILD_ID)
)
id_inst (
    .clk(clk),
    .rst(rst),
    .csr_stb(csr_stb),
    .csr_we(csr_we),
    .csr_addr(csr_addr),
    .csr_wdata(csr_wdata),
    .csr_wstrb(csr_wstrb),
    .csr_master(csr_master),
    .csr_hit(id_hit),
    .csr_rdata(id_rdata)
);

csr_ctrl
ctrl_inst (
    .clk(clk),
    .rst(rst),
    .csr_stb(csr_stb),
    .csr_we(csr_we),
    .csr_addr(csr_addr),
    .csr_wdata(csr_wdata),
    .csr_wstrb(csr_wstrb),
    .csr_master(csr_master),
    .csr_hit(ctrl_hit),
    .csr_rdata(ctrl_rdata),
    .core_trap(core_trap),
    .core_rst(core_rst),
    .core_clear(core_clear)
);

soc_timer
timer_inst (
    .clk(clk),
    .rst(rst),
    .csr_stb(csr_stb),
    .csr_we(csr_we),
    .csr_addr(csr_addr),
    .csr_wdata(csr_wdata),
    .csr_wstrb(csr_wstrb),
    .csr_master(csr_master),
    .csr_hit(timer_hit),
    .csr_rdata(timer_rdata)
);

soc_mailbox
mbox_inst (
    .clk(clk),
    .rst(rst),
    .csr_stb(csr_stb),
    .csr_we(csr_we),
    .csr_addr(csr_addr),
    .csr_wdata(csr_wdata),
    .csr_wstrb(csr_wstrb),
    .csr_master(csr_master),
    .csr_hit(mbox_hit),
    .csr_rdata(mbox_rdata),
    .core_clear(core_clear)
);

soc_logring
logring_inst (
    .clk(clk),
    .rst(rst),
    .csr_stb(csr_stb),
    .csr_we(csr_we),
    .csr_addr(csr_addr),
    .csr_wdata(csr_wdata),
    .csr_wstrb(csr_wstrb),
    .csr_master(csr_master),
    .csr_hit(log_hit),
    .csr_rdata(log_rdata),
    .core_clear(core_clear)
);

// Splicer data path between the Ethernet ports
splice_datapath #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .FLOW_BUCKETS(FLOW_BUCKETS),
    .FLOW_WAYS(FLOW_WAYS),
    .FLOW_SLOTS(FLOW_SLOTS),
    .L7_RULES(L7_RULES)
)
datapath_inst (
    .clk(clk),
    .rst(rst),
    .csr_stb(csr_stb),
    .csr_we(csr_we),
    .csr_addr(csr_addr),
    .csr_wdata(csr_wdata),
    .csr_wstrb(csr_wstrb),
    .csr_master(csr_master),
    .csr_hit(dp_hit),
    .csr_rdata(dp_rdata),
    .s_axis_c_tdata(s_axis_c_tdata),
    .s_axis_c_tkeep(s_axis_c_tkeep),
    .s_axis_c_tvalid(s_axis_c_tvalid),
    .s_axis_c_tready(s_axis_c_tready),
    .s_axis_c_tlast(s_axis_c_tlast),
    .s_axis_c_tuser(s_axis_c_tuser),
    .m_axis_c_tdata(m_axis_c_tdata),
    .m_axis_c_tkeep(m_axis_c_tkeep),
    .m_axis_c_tvalid(m_axis_c_tvalid),
    .m_axis_c_tready(m_axis_c_tready),
    .m_axis_c_tlast(m_axis_c_tlast),
    .m_axis_c_tuser(m_axis_c_tuser),
    .s_axis_s_tdata(s_axis_s_tdata),
    .s_axis_s_tkeep(s_axis_s_tkeep),
    .s_axis_s_tvalid(s_axis_s_tvalid),
    .s_axis_s_tready(s_axis_s_tready),
    .s_axis_s_tlast(s_axis_s_tlast),
    .s_axis_s_tuser(s_axis_s_tuser),
    .m_axis_s_tdata(m_axis_s_tdata),
    .m_axis_s_tkeep(m_axis_s_tkeep),
    .m_axis_s_tvalid(m_axis_s_tvalid),
    .m_axis_s_tready(m_axis_s_tready),
    .m_axis_s_tlast(m_axis_s_tlast),
    .m_axis_s_tuser(m_axis_s_tuser)
);

endmodule

`resetall
