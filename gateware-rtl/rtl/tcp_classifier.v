// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Packet classifier: takes one parsed header (from eth_tcp_parser) per frame and decides
 * where the frame goes. One header per cycle, one cycle of latency (registered output with
 * a valid/ready handshake; s_hdr_ready = output register free or being taken).
 *
 * Class (m_cls_class):
 *   0 VIP     TCP (parser verdict OK) to one of the configured virtual services
 *             (ip_dst == cfg_vip_addr[i] and tcp_dst_port == cfg_vip_port[i], entry enabled);
 *             m_cls_index = i (the lowest matching entry). -> flow lookup, client half.
 *   1 SERVER  TCP (OK) to a card-owned server-side address (ip_dst == cfg_local_addr[j],
 *             entry enabled); m_cls_index = j. -> flow lookup, server half.
 *             A VIP match wins over a server-side match.
 *   2 PUNT    to the soft core
 *   3 DROP
 * Why (m_cls_why), for PUNT/DROP and for counters:
 *   0 NONE (VIP/SERVER), 1 ARP (ethertype 0x0806), 2 ICMP (IPv4 protocol 1), 3 OTHER
 *   (any other non-IPv4 or non-TCP frame), 4 MALFORMED (parser reason >= 3), 5 NOMATCH
 *   (well-formed TCP to no VIP and no server-side address).
 * Policy: cfg_punt[why] = 1 punts, 0 drops, for why = ARP, ICMP, OTHER, MALFORMED, NOMATCH
 *   (bit 0 unused).
 * TCP kind (m_cls_kind), for parser verdict OK only, first match wins:
 *   0 NONE (not a parsed TCP segment), 1 RST (RST set), 2 SYN (SYN without ACK),
 *   3 SYN_ACK (SYN and ACK), 4 FIN (FIN set, with or without data), 5 DATA (payload_len > 0),
 *   6 ACK (pure ACK: ACK set, no payload), 7 OTHER (no ACK/SYN/FIN/RST and no payload).
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
    input  wire [3:0]                  s_hdr_reason,
    input  wire [15:0]                 s_hdr_eth_type,
    input  wire [7:0]                  s_hdr_ip_protocol,
    input  wire [31:0]                 s_hdr_ip_dst,
    input  wire [15:0]                 s_hdr_tcp_dst_port,
    input  wire [8:0]                  s_hdr_tcp_flags,
    input  wire [15:0]                 s_hdr_payload_len,

    // Decision out
    output wire                        m_cls_valid,
    input  wire                        m_cls_ready,
    output wire [1:0]                  m_cls_class,
    output wire [2:0]                  m_cls_why,
    output wire [2:0]                  m_cls_kind,
    output wire [INDEX_WIDTH-1:0]      m_cls_index,

    // Configuration
    input  wire [VIP_ENTRIES-1:0]      cfg_vip_enable,
    input  wire [VIP_ENTRIES*32-1:0]   cfg_vip_addr,
    input  wire [VIP_ENTRIES*16-1:0]   cfg_vip_port,
    input  wire [LOCAL_ENTRIES-1:0]    cfg_local_enable,
    input  wire [LOCAL_ENTRIES*32-1:0] cfg_local_addr,
    input  wire [7:0]                  cfg_punt
);

localparam [1:0] C_VIP = 2'd0, C_SERVER = 2'd1, C_PUNT = 2'd2, C_DROP = 2'd3;
localparam [2:0] W_NONE = 3'd0, W_ARP = 3'd1, W_ICMP = 3'd2, W_OTHER = 3'd3,
    W_MALFORMED = 3'd4, W_NOMATCH = 3'd5;
localparam [2:0] K_NONE = 3'd0, K_RST = 3'd1, K_SYN = 3'd2, K_SYN_ACK = 3'd3, K_FIN = 3'd4,
    K_DATA = 3'd5, K_ACK = 3'd6, K_OTHER = 3'd7;

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
localparam CLS_W = 2 + 3 + 3 + INDEX_WIDTH;

// verilator lint_off UNUSEDSIGNAL
function [CLS_W-1:0] classify(input [3:0] reason, input [15:0] eth_type, input [7:0] proto,
                              input [31:0] ip_dst, input [15:0] dst_port, input [8:0] flags,
                              input [15:0] payload_len);
// verilator lint_on UNUSEDSIGNAL
    reg                   vip_hit;
    reg [INDEX_WIDTH-1:0] vip_idx;
    reg                   local_hit;
    reg [INDEX_WIDTH-1:0] local_idx;
    reg                   is_ok, is_other;
    reg [1:0]             cls;
    reg [2:0]             why;
    reg [2:0]             kind;
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

        is_ok = reason == 4'd0;
        is_other = (reason == 4'd1) || (reason == 4'd2);

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
reg [1:0]             cls_reg;
reg [2:0]             why_reg;
reg [2:0]             kind_reg;
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
