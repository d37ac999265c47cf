// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Test top (not part of the card): eth_tcp_parser feeding tcp_opt_decoder through the
 * parser's option window (m_hdr_tcp_opt_len, m_hdr_tcp_options), header handshake to the
 * decoder's input handshake. The frame output is always taken and dropped. The result's
 * tag is {8'd0, data offset, parser reason}.
 */
module tb_parser_opts #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8
)
(
    input  wire                        clk,
    input  wire                        rst,
    input  wire [DATA_WIDTH-1:0]       s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]       s_axis_tkeep,
    input  wire                        s_axis_tvalid,
    output wire                        s_axis_tready,
    input  wire                        s_axis_tlast,
    output wire                        m_valid,
    input  wire                        m_ready,
    output wire [`SNIC_TCP_OPTS_W-1:0] m_opts,
    output wire [15:0]                 m_tag
);

wire                             hdr_valid, hdr_ready;
wire [`SNIC_PARSER_REASON_W-1:0] hdr_reason;
wire [3:0]                       hdr_doff;
wire [5:0]                       hdr_opt_len;
wire [319:0]                     hdr_opts;

eth_tcp_parser #(
    .DATA_WIDTH(DATA_WIDTH)
) parser (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(1'b0),
    .m_axis_tdata(),
    .m_axis_tkeep(),
    .m_axis_tvalid(),
    .m_axis_tready(1'b1),
    .m_axis_tlast(),
    .m_axis_tuser(),
    .m_hdr_valid(hdr_valid),
    .m_hdr_ready(hdr_ready),
    .m_hdr_reason(hdr_reason),
    .m_hdr_ok(),
    .m_hdr_other(),
    .m_hdr_malformed(),
    .m_hdr_eth_dst(),
    .m_hdr_eth_src(),
    .m_hdr_vlan(),
    .m_hdr_vlan_tci(),
    .m_hdr_eth_type(),
    .m_hdr_ip_version(),
    .m_hdr_ip_ihl(),
    .m_hdr_ip_tos(),
    .m_hdr_ip_length(),
    .m_hdr_ip_id(),
    .m_hdr_ip_flags(),
    .m_hdr_ip_frag_offset(),
    .m_hdr_ip_ttl(),
    .m_hdr_ip_protocol(),
    .m_hdr_ip_checksum(),
    .m_hdr_ip_src(),
    .m_hdr_ip_dst(),
    .m_hdr_tcp_src_port(),
    .m_hdr_tcp_dst_port(),
    .m_hdr_tcp_seq(),
    .m_hdr_tcp_ack(),
    .m_hdr_tcp_data_offset(hdr_doff),
    .m_hdr_tcp_flags(),
    .m_hdr_tcp_window(),
    .m_hdr_tcp_checksum(),
    .m_hdr_tcp_urgent(),
    .m_hdr_tcp_opt_len(hdr_opt_len),
    .m_hdr_tcp_options(hdr_opts),
    .m_hdr_l3_offset(),
    .m_hdr_l4_offset(),
    .m_hdr_payload_offset(),
    .m_hdr_payload_len(),
    .m_hdr_frame_len(),
    .stat_event()
);

tcp_opt_decoder #(
    .TAG_WIDTH(16)
) decoder (
    .clk(clk),
    .rst(rst),
    .s_valid(hdr_valid),
    .s_ready(hdr_ready),
    .s_opt_len(hdr_opt_len),
    .s_opt(hdr_opts),
    .s_tag({8'd0, hdr_doff, hdr_reason}),
    .m_valid(m_valid),
    .m_ready(m_ready),
    .m_opts(m_opts),
    .m_tag(m_tag)
);

endmodule

`resetall
