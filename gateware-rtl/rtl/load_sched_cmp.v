// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One comparison of the least-load schedulers, pipelined: a (the earlier or the running
 * winner) against b, the winner four cycles later. Stage 1 registers the inputs, stage 2
 * the partial products (the low 18 bits of K times V in one 18 x 18 multiplier, the high
 * bits in another), stage 3 their sums, stage 4 the decision.
 */
module load_sched_cmp #
(
    parameter KW = 24,
    parameter CRW = 54,
    parameter SIDE = 1
)
(
    input  wire            clk,
    input  wire [CRW-1:0]  a,
    input  wire [CRW-1:0]  b,
    input  wire [SIDE-1:0] side_in,
    output reg  [CRW-1:0]  w = {CRW{1'b0}},
    output reg  [SIDE-1:0] side_out = {SIDE{1'b0}}
);

localparam C_RANK = 6;
localparam C_V = 12;
localparam C_K = 28;
localparam C_ZERO = 28 + KW;
localparam C_VALID = 29 + KW;
localparam PWID = KW + 16;

reg [CRW-1:0]  a1 = {CRW{1'b0}}, b1 = {CRW{1'b0}};
reg [CRW-1:0]  a2 = {CRW{1'b0}}, b2 = {CRW{1'b0}};
reg [CRW-1:0]  a3 = {CRW{1'b0}}, b3 = {CRW{1'b0}};
reg [SIDE-1:0] sd1 = {SIDE{1'b0}}, sd2 = {SIDE{1'b0}}, sd3 = {SIDE{1'b0}};
reg [33:0]     pa_lo = 34'd0, pb_lo = 34'd0;
reg [KW-3:0]   pa_hi = {KW-2{1'b0}}, pb_hi = {KW-2{1'b0}};
reg [PWID-1:0] p1 = {PWID{1'b0}}, p2 = {PWID{1'b0}};

// P1 = a.K * b.V, P2 = b.K * a.V; b wins when P1 > P2
always @(posedge clk) begin
    a1 <= a;
    b1 <= b;
    sd1 <= side_in;
    pa_lo <= a1[C_K +: 18] * b1[C_V +: 16];
    pa_hi <= a1[C_K + 18 +: KW - 18] * b1[C_V +: 16];
    pb_lo <= b1[C_K +: 18] * a1[C_V +: 16];
    pb_hi <= b1[C_K + 18 +: KW - 18] * a1[C_V +: 16];
    a2 <= a1;
    b2 <= b1;
    sd2 <= sd1;
    p1 <= {{PWID-34{1'b0}}, pa_lo} + {pa_hi, 18'd0};
    p2 <= {{PWID-34{1'b0}}, pb_lo} + {pb_hi, 18'd0};
    a3 <= a2;
    b3 <= b2;
    sd3 <= sd2;
    side_out <= sd3;
    if (!a3[C_VALID])
        w <= b3;
    else if (!b3[C_VALID])
        w <= a3;
    else if (a3[C_ZERO] != b3[C_ZERO])
        w <= a3[C_ZERO] ? a3 : b3;
    else if (a3[C_ZERO] || p1 == p2)
        w <= b3[C_RANK +: 6] < a3[C_RANK +: 6] ? b3 : a3;
    else
        w <= p1 > p2 ? b3 : a3;
end

endmodule

`resetall
