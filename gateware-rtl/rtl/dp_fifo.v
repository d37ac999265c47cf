// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * First-word-fall-through synchronous FIFO of WIDTH-bit records (valid/ready on both sides).
 *
 * Storage: a DEPTH-entry RAM with a registered (synchronous) read, so it maps to block or
 * distributed RAM, followed by two registers (RAM read stage and output stage). Capacity
 * is DEPTH + 2 records; one record per cycle in and out, back to back, with no bubbles.
 * Latency: a record written into an empty FIFO shows on m_* three cycles later.
 *
 * count: records held (RAM + both stages), for credit-based producers; s_ready is
 * count < DEPTH + 2 in effect (the RAM not full).
 */
module dp_fifo #
(
    parameter WIDTH = 32,
    // RAM entries (power of two, >= 2)
    parameter DEPTH = 16,
    parameter AW = $clog2(DEPTH)
)
(
    input  wire             clk,
    input  wire             rst,

    input  wire [WIDTH-1:0] s_data,
    input  wire             s_valid,
    output wire             s_ready,

    output wire [WIDTH-1:0] m_data,
    output wire             m_valid,
    input  wire             m_ready,

    output wire [AW+1:0]    count
);

initial begin
    if (DEPTH < 2 || (1 << AW) != DEPTH) begin
        $error("Error: DEPTH must be a power of two >= 2 (instance %m)");
        $finish;
    end
end

reg [WIDTH-1:0] mem [0:DEPTH-1];
reg [AW:0]      wr_ptr_reg = {AW+1{1'b0}};
reg [AW:0]      rd_ptr_reg = {AW+1{1'b0}};
reg [WIDTH-1:0] rd_data_reg = {WIDTH{1'b0}};
reg             rd_valid_reg = 1'b0;
reg [WIDTH-1:0] out_data_reg = {WIDTH{1'b0}};
reg             out_valid_reg = 1'b0;

wire [AW:0] ram_count = wr_ptr_reg - rd_ptr_reg;
wire ram_empty = ram_count == {AW+1{1'b0}};
wire ram_full = ram_count[AW];

wire out_take = out_valid_reg && m_ready;
// the output stage is free or being emptied
wire out_room = !out_valid_reg || m_ready;
// move the read stage into the output stage
wire rd_move = rd_valid_reg && out_room;
// read the RAM into the read stage
wire rd_room = !rd_valid_reg || rd_move;
wire ram_read = !ram_empty && rd_room;

assign s_ready = !ram_full;
assign m_data = out_data_reg;
assign m_valid = out_valid_reg;
assign count = {1'b0, ram_count} + {{AW+1{1'b0}}, rd_valid_reg} + {{AW+1{1'b0}}, out_valid_reg};

always @(posedge clk) begin
    if (s_valid && s_ready) begin
        mem[wr_ptr_reg[AW-1:0]] <= s_data;
    end
    // Loaded whenever the read stage is free, empty RAM or not (rd_valid_reg says whether it
    // holds a record): the WIDTH-bit enable then does not wait for the pointer compare.
    if (rd_room) begin
        rd_data_reg <= mem[rd_ptr_reg[AW-1:0]];
    end
end

always @(posedge clk) begin
    if (s_valid && s_ready) begin
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
    end
    if (ram_read) begin
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
        rd_valid_reg <= 1'b1;
    end else if (rd_move) begin
        rd_valid_reg <= 1'b0;
    end
    if (rd_move) begin
        out_data_reg <= rd_data_reg;
        out_valid_reg <= 1'b1;
    end else if (out_take) begin
        out_valid_reg <= 1'b0;
    end

    if (rst) begin
        wr_ptr_reg <= {AW+1{1'b0}};
        rd_ptr_reg <= {AW+1{1'b0}};
        rd_valid_reg <= 1'b0;
        out_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
