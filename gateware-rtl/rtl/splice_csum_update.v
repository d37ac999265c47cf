// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Incremental Internet checksum update, RFC 1624 equation 3:
 *
 *     HC' = ~(~HC + ~m + m')
 *
 * applied to WORDS 16-bit words at once (one's-complement arithmetic with end-around
 * carry). Chaining the equation over several words equals summing all their terms before
 * the final complement, which is what this unit does; a 32-bit field is two words.
 * A word that did not change (m == m') contributes ~m + m = 0xFFFF (negative zero) and
 * leaves the checksum untouched, so callers may pass whole header regions.
 *
 * Purely combinational (no clock): the caller registers around it. Word i is
 * old_words[16*i +: 16] / new_words[16*i +: 16], each in network order (first byte in
 * bits [15:8]).
 */
module splice_csum_update #
(
    // number of 16-bit words updated at once
    parameter WORDS = 2
)
(
    // checksum field as found in the header
    input  wire [15:0]         csum_in,
    // the words before (m) and after (m') the rewrite
    input  wire [16*WORDS-1:0] old_words,
    input  wire [16*WORDS-1:0] new_words,
    // updated checksum field
    output wire [15:0]         csum_out
);

// enough headroom for 2*WORDS+1 terms of 16 bits
localparam SUM_W = 16 + $clog2(2*WORDS+2);

initial begin
    if (WORDS < 1 || WORDS > 1024) begin
        $error("Error: WORDS must be 1..1024 (instance %m)");
        $finish;
    end
end

reg [SUM_W-1:0] sum;
reg [SUM_W-1:0] fold1;
reg [16:0]      fold2;
integer i;

always @* begin
    sum = {{(SUM_W-16){1'b0}}, ~csum_in};
    for (i = 0; i < WORDS; i = i + 1) begin
        sum = sum + {{(SUM_W-16){1'b0}}, ~old_words[16*i +: 16]}
                  + {{(SUM_W-16){1'b0}}, new_words[16*i +: 16]};
    end
    // end-around carry: two folds bring any SUM_W <= 32 bit sum into 16 bits
    fold1 = {{(SUM_W-16){1'b0}}, sum[15:0]} + {16'd0, sum[SUM_W-1:16]};
    fold2 = {1'b0, fold1[15:0]} + {{(33-SUM_W){1'b0}}, fold1[SUM_W-1:16]};
end

assign csum_out = ~(fold2[15:0] + {15'd0, fold2[16]});

endmodule

`resetall
