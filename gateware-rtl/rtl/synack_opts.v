// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * SYN-ACK option layouts (docs/server-open.md, "The absorber in the data path"): recognises
 * the option area of a server's SYN-ACK when it is one of the eight layouts a Linux server
 * (and the card's own SYNs, tcp_tx_gen's SYN form) writes, and reports its MSS, window
 * shift, SACK-permitted and TSval:
 *
 *   MSS (02 04 m m), then
 *     04 02 08 0a TSval TSecr   SACK-permitted and timestamps   (12 bytes)
 *     01 01 08 0a TSval TSecr   timestamps only                 (12 bytes)
 *     01 01 04 02               SACK-permitted only             (4 bytes)
 *     nothing
 *   then 01 03 03 s (window scale) or nothing, and nothing more (the option area's length
 *   is exactly the layout's).
 *
 * Every byte is compared at a fixed position (no walk, no variable shift); any other area
 * (another order, another option, no MSS) gives ok = 0 and the SYN-ACK goes to the
 * firmware, whose parser reads any layout. Combinational: the caller registers the result.
 * Option byte k is in opt[8k+7:8k], bytes past the area are zero (eth_tcp_parser).
 */
module synack_opts
(
    input  wire [5:0]   opt_len,
    // only the first 20 bytes are read
    // verilator lint_off UNUSEDSIGNAL
    input  wire [319:0] opt,
    // verilator lint_on UNUSEDSIGNAL
    output wire         ok,
    output wire [15:0]  mss,
    output wire         ws,
    output wire [7:0]   ws_shift,
    output wire         sack_perm,
    output wire         ts,
    output wire [31:0]  tsval
);

// the first 20 option bytes
wire [7:0] b [0:19];
genvar gk;
generate
for (gk = 0; gk < 20; gk = gk + 1) begin : g_b
    assign b[gk] = opt[8*gk +: 8];
end
endgenerate

wire mss_ok = b[0] == 8'h02 && b[1] == 8'h04;
wire l_st = b[4] == 8'h04 && b[5] == 8'h02 && b[6] == 8'h08 && b[7] == 8'h0a;
wire l_t = b[4] == 8'h01 && b[5] == 8'h01 && b[6] == 8'h08 && b[7] == 8'h0a;
wire l_s = b[4] == 8'h01 && b[5] == 8'h01 && b[6] == 8'h04 && b[7] == 8'h02;
wire has_ts = l_st || l_t;
// the window-scale option's place after each middle part
wire ws16 = b[16] == 8'h01 && b[17] == 8'h03 && b[18] == 8'h03;
wire ws8 = b[8] == 8'h01 && b[9] == 8'h03 && b[10] == 8'h03;
wire ws4 = b[4] == 8'h01 && b[5] == 8'h03 && b[6] == 8'h03;

assign ts = has_ts;
assign sack_perm = l_st || l_s;
assign ws = has_ts ? ws16 : l_s ? ws8 : ws4;
assign ws_shift = has_ts ? b[19] : l_s ? b[11] : b[7];
assign mss = {b[2], b[3]};
assign tsval = {b[8], b[9], b[10], b[11]};
// the area's length is the layout's exactly
assign ok = mss_ok && opt_len == (6'd4 + (has_ts ? 6'd12 : l_s ? 6'd4 : 6'd0)
                                  + (ws ? 6'd4 : 6'd0));

endmodule

`resetall
