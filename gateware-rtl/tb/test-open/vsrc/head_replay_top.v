// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Test top (simulation only): head_buf with head_replay on its replay port, as the engine
 * connects them: the test fills a buffer through head_buf's append port and asks
 * head_replay for the frame (tests/replay.rs).
 */
module head_replay_top #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    parameter IW = $clog2(`SNIC_HEAD_BUFFERS),
    parameter BA = $clog2(`SNIC_HEAD_BUFFER_BYTES)
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  alloc_req,
    output wire                  alloc_valid,
    output wire                  alloc_ok,
    output wire [IW-1:0]         alloc_id,
    input  wire                  free_en,
    input  wire [IW-1:0]         free_id,

    input  wire                  s_valid,
    output wire                  s_ready,
    input  wire [IW-1:0]         s_buf,
    input  wire [15:0]           s_off,
    input  wire [15:0]           s_len,
    input  wire [63:0]           s_data,
    input  wire                  s_last,
    output wire                  res_valid,

    input  wire                  r_valid,
    output wire                  r_ready,
    input  wire [IW-1:0]         r_buf,
    input  wire [15:0]           r_max_len,
    input  wire [47:0]           r_dst_mac,
    input  wire [47:0]           r_src_mac,
    input  wire [31:0]           r_src_ip,
    input  wire [31:0]           r_dst_ip,
    input  wire [15:0]           r_sport,
    input  wire [15:0]           r_dport,
    input  wire [31:0]           r_seq,
    input  wire [31:0]           r_ack,
    input  wire [7:0]            r_flags,
    input  wire [15:0]           r_window,
    input  wire                  r_ts,
    input  wire [31:0]           r_tsval,
    input  wire [31:0]           r_tsecr,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,

    output wire                  rr_valid,
    output wire                  rr_long,
    output wire [BA:0]           rr_len,
    output wire [31:0]           stat_sent,
    output wire [31:0]           stat_long
);

wire          rd_start, rd_idle;
wire [IW-1:0] rd_buf;
wire [BA:0]   rd_len;
wire [15:0]   rd_sum;
wire          hb_valid, hb_ready, hb_last;
wire [63:0]   hb_data;
wire [7:0]    hb_keep;

// verilator lint_off PINCONNECTEMPTY
head_buf hb_inst (
    .clk(clk),
    .rst(rst),
    .alloc_req(alloc_req),
    .alloc_valid(alloc_valid),
    .alloc_ok(alloc_ok),
    .alloc_id(alloc_id),
    .free_en(free_en),
    .free_id(free_id),
    .free_bad(),
    .s_valid(s_valid),
    .s_ready(s_ready),
    .s_buf(s_buf),
    .s_off(s_off),
    .s_len(s_len),
    .s_data(s_data),
    .s_last(s_last),
    .res_valid(res_valid),
    .res_buf(),
    .res_len(),
    .res_added(),
    .res_hole(),
    .res_cut(),
    .res_bad(),
    .rd_start(rd_start),
    .rd_buf(rd_buf),
    .rd_idle(rd_idle),
    .rd_len(rd_len),
    .rd_sum(rd_sum),
    .m_valid(hb_valid),
    .m_ready(hb_ready),
    .m_data(hb_data),
    .m_keep(hb_keep),
    .m_last(hb_last),
    .in_use(),
    .in_use_max(),
    .in_use_max_clear(1'b0)
);

head_replay #(
    .DATA_WIDTH(DATA_WIDTH)
)
replay_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(r_valid),
    .s_ready(r_ready),
    .s_buf(r_buf),
    .s_max_len(r_max_len),
    .s_dst_mac(r_dst_mac),
    .s_src_mac(r_src_mac),
    .s_src_ip(r_src_ip),
    .s_dst_ip(r_dst_ip),
    .s_sport(r_sport),
    .s_dport(r_dport),
    .s_seq(r_seq),
    .s_ack(r_ack),
    .s_flags(r_flags),
    .s_window(r_window),
    .s_ts(r_ts),
    .s_tsval(r_tsval),
    .s_tsecr(r_tsecr),
    .hb_rd_start(rd_start),
    .hb_rd_buf(rd_buf),
    .hb_rd_idle(rd_idle),
    .hb_rd_len(rd_len),
    .hb_rd_sum(rd_sum),
    .hb_valid(hb_valid),
    .hb_ready(hb_ready),
    .hb_data(hb_data),
    .hb_keep(hb_keep),
    .hb_last(hb_last),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(),
    .res_valid(rr_valid),
    .res_long(rr_long),
    .res_len(rr_len),
    .stat_sent(stat_sent),
    .stat_long(stat_long)
);
// verilator lint_on PINCONNECTEMPTY

endmodule

`resetall
