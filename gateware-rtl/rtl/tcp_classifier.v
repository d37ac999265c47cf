// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Packet classifier: takes one parsed header (from eth_tcp_parser) per frame and decides
 * where the frame goes. One header per cycle, one cycle of latency (registered output with
 * a valid/ready handshake; s_hdr_ready = output register free or being taken).
 *
 * Codes: enumerations FrameClass, PuntWhy, TcpKind and ParserReason of docs/records.md.
 * Class (m_cls_class):
 *   VIP       TCP (parser verdict OK) to one of the configured virtual services
 *             (ip_dst == cfg_vip_addr[i] and tcp_dst_port == cfg_vip_port[i], entry enabled);
 *             m_cls_index = i (the lowest matching entry). -> flow lookup, client half.
 *   SERVER    TCP (OK) to a card-owned server-side address (ip_dst == cfg_local_addr[j],
 *             entry enabled); m_cls_index = j. -> flow lookup, server half.
 *             A VIP match wins over a server-side match.
 *   PUNT      to the soft core
 *   DROP
 * Why (m_cls_why), for PUNT/DROP and for counters:
 *   NONE (VIP/SERVER), ARP (ethertype 0x0806), ICMP (IPv4 protocol 1), OTHER (any other
 *   non-IPv4 or non-TCP frame: parser reason OTHER_L3 or OTHER_L4), MALFORMED (any other
 *   parser reason but OK), NOMATCH (well-formed TCP to no VIP and no server-side address).
 * Policy: cfg_punt[why] = 1 punts, 0 drops, for why = ARP, ICMP, OTHER, MALFORMED, NOMATCH
 *   (bit NONE unused).
 * TCP kind (m_cls_kind), for parser verdict OK only, first match wins:
 *   NONE (not a parsed TCP segment), RST (RST set), SYN (SYN without ACK), SYNACK (SYN and
 *   ACK), FIN (FIN set, with or without data), DATA (payload_len > 0), ACK (pure ACK: ACK
 *   set, no payload), OTHER (no ACK/SYN/FIN/RST and no payload).
 * Configuration ports are plain levels for a CSR block to drive (change them only while no
 * header is in flight, or accept that a header in the cycle of the change sees either value).
 */
module tcp_classifier #
(
    parameter VIP_ENTRIES = 8,
    parameter LOCAL_ENTRIES = 4,
    parameter INDEX_WIDTH = 4
)
(
    input  wire                        clk,
    input  wire                        rst,

    // Parsed header in (subset of eth_tcp_parser m_hdr_*)
    input  wire                        s_hdr_valid,
    output wire                        s_hdr_ready,
    input  wire [`SNIC_PARSER_REASON_W-1:0] s_hdr_reason,
    input  wire [15:0]                 s_hdr_eth_type,
    input  wire [7:0]                  s_hdr_ip_protocol,
    input  wire [31:0]                 s_hdr_ip_dst,
    input  wire [15:0]                 s_hdr_tcp_dst_port,
    input  wire [8:0]                  s_hdr_tcp_flags,
    input  wire [15:0]                 s_hdr_payload_len,

    // Decision out
    output wire                        m_cls_valid,
    input  wire                        m_cls_ready,
    output wire [`SNIC_FRAME_CLASS_W-1:0] m_cls_class,
    output wire [`SNIC_PUNT_WHY_W-1:0] m_cls_why,
    output wire [`SNIC_TCP_KIND_W-1:0] m_cls_kind,
    output wire [INDEX_WIDTH-1:0]      m_cls_index,

    // Configuration
    input  wire [VIP_ENTRIES-1:0]      cfg_vip_enable,
    input  wire [VIP_ENTRIES*32-1:0]   cfg_vip_addr,
    input  wire [VIP_ENTRIES*16-1:0]   cfg_vip_port,
    input  wire [LOCAL_ENTRIES-1:0]    cfg_local_enable,
    input  wire [LOCAL_ENTRIES*32-1:0] cfg_local_addr,
    input  wire [7:0]                  cfg_punt
);

localparam CL_W = `SNIC_FRAME_CLASS_W;
localparam WHY_W = `SNIC_PUNT_WHY_W;
localparam KIND_W = `SNIC_TCP_KIND_W;
localparam [CL_W-1:0] C_VIP = `SNIC_FRAME_CLASS_VIP, C_SERVER = `SNIC_FRAME_CLASS_SERVER,
    C_PUNT = `SNIC_FRAME_CLASS_PUNT, C_DROP = `SNIC_FRAME_CLASS_DROP;
localparam [WHY_W-1:0] W_NONE = `SNIC_PUNT_WHY_NONE, W_ARP = `SNIC_PUNT_WHY_ARP,
    W_ICMP = `SNIC_PUNT_WHY_ICMP, W_OTHER = `SNIC_PUNT_WHY_OTHER,
    W_MALFORMED = `SNIC_PUNT_WHY_MALFORMED, W_NOMATCH = `SNIC_PUNT_WHY_NOMATCH;
localparam [KIND_W-1:0] K_NONE = `SNIC_TCP_KIND_NONE, K_RST = `SNIC_TCP_KIND_RST,
    K_SYN = `SNIC_TCP_KIND_SYN, K_SYN_ACK = `SNIC_TCP_KIND_SYNACK, K_FIN = `SNIC_TCP_KIND_FIN,
    K_DATA = `SNIC_TCP_KIND_DATA, K_ACK = `SNIC_TCP_KIND_ACK, K_OTHER = `SNIC_TCP_KIND_OTHER;

initial begin
    if (VIP_ENTRIES < 1 || LOCAL_ENTRIES < 1) begin
        $error("Error: VIP_ENTRIES and LOCAL_ENTRIES must be at least 1 (instance %m)");
        $finish;
    end
    if ((1 << INDEX_WIDTH) < VIP_ENTRIES || (1 << INDEX_WIDTH) < LOCAL_ENTRIES) begin
        $error("Error: INDEX_WIDTH too small for the table sizes (instance %m)");
        $finish;
    end
end

// The class of a header: {class, why, kind, index}, against the cfg_* tables (read here
// directly). Table matches: lowest matching entry wins. Only some flag bits decide the kind
// (NS, CWR, ECE, URG, PSH do not). Evaluated only for a header taken: the result registers
// are loaded only then (nothing reads them otherwise).
localparam CLS_W = CL_W + WHY_W + KIND_W + INDEX_WIDTH;

// verilator lint_off UNUSEDSIGNAL
function [CLS_W-1:0] classify(input [`SNIC_PARSER_REASON_W-1:0] reason,
                              input [15:0] eth_type, input [7:0] proto, input [31:0] ip_dst,
                              input [15:0] dst_port, input [8:0] flags,
                              input [15:0] payload_len);
// verilator lint_on UNUSEDSIGNAL
    reg                   vip_hit;
    reg [INDEX_WIDTH-1:0] vip_idx;
    reg                   local_hit;
    reg [INDEX_WIDTH-1:0] local_idx;
    reg                   is_ok, is_other;
    reg [CL_W-1:0]        cls;
    reg [WHY_W-1:0]       why;
    reg [KIND_W-1:0]      kind;
    reg [INDEX_WIDTH-1:0] idx;
    integer               i;
    begin
        vip_hit = 1'b0;
        vip_idx = {INDEX_WIDTH{1'b0}};
        for (i = VIP_ENTRIES - 1; i >= 0; i = i - 1) begin
            if (cfg_vip_enable[i] && cfg_vip_addr[i*32 +: 32] == ip_dst &&
                    cfg_vip_port[i*16 +: 16] == dst_port) begin
                vip_hit = 1'b1;
                vip_idx = i[INDEX_WIDTH-1:0];
            end
        end
        local_hit = 1'b0;
        local_idx = {INDEX_WIDTH{1'b0}};
        for (i = LOCAL_ENTRIES - 1; i >= 0; i = i - 1) begin
            if (cfg_local_enable[i] && cfg_local_addr[i*32 +: 32] == ip_dst) begin
                local_hit = 1'b1;
                local_idx = i[INDEX_WIDTH-1:0];
            end
        end

        is_ok = reason == `SNIC_PARSER_REASON_OK;
        is_other = (reason == `SNIC_PARSER_REASON_OTHER_L3) ||
                   (reason == `SNIC_PARSER_REASON_OTHER_L4);

        idx = {INDEX_WIDTH{1'b0}};
        if (is_ok && vip_hit) begin
            why = W_NONE;
            idx = vip_idx;
        end else if (is_ok && local_hit) begin
            why = W_NONE;
            idx = local_idx;
        end else if (is_ok) begin
            why = W_NOMATCH;
        end else if (is_other && eth_type == 16'h0806) begin
            why = W_ARP;
        end else if (is_other && eth_type == 16'h0800 && proto == 8'd1) begin
            why = W_ICMP;
        end else if (is_other) begin
            why = W_OTHER;
        end else begin
            why = W_MALFORMED;
        end

        if (is_ok && vip_hit) cls = C_VIP;
        else if (is_ok && local_hit) cls = C_SERVER;
        else if (cfg_punt[why]) cls = C_PUNT;
        else cls = C_DROP;

        if (!is_ok) kind = K_NONE;
        else if (flags[2]) kind = K_RST;
        else if (flags[1] && !flags[4]) kind = K_SYN;
        else if (flags[1]) kind = K_SYN_ACK;
        else if (flags[0]) kind = K_FIN;
        else if (payload_len != 16'd0) kind = K_DATA;
        else if (flags[4]) kind = K_ACK;
        else kind = K_OTHER;

        classify = {cls, why, kind, idx};
    end
endfunction

reg                   valid_reg = 1'b0;
reg [CL_W-1:0]        cls_reg;
reg [WHY_W-1:0]       why_reg;
reg [KIND_W-1:0]      kind_reg;
reg [INDEX_WIDTH-1:0] idx_reg;

assign s_hdr_ready = !valid_reg || m_cls_ready;

always @(posedge clk) begin
    if (s_hdr_ready) begin
        valid_reg <= s_hdr_valid;
        if (s_hdr_valid) begin
            {cls_reg, why_reg, kind_reg, idx_reg} <=
                classify(s_hdr_reason, s_hdr_eth_type, s_hdr_ip_protocol, s_hdr_ip_dst,
                         s_hdr_tcp_dst_port, s_hdr_tcp_flags, s_hdr_payload_len);
        end
    end
    if (rst) begin
        valid_reg <= 1'b0;
    end
end

assign m_cls_valid = valid_reg;
assign m_cls_class = cls_reg;
assign m_cls_why = why_reg;
assign m_cls_kind = kind_reg;
assign m_cls_index = idx_reg;

endmodule

`resetall
