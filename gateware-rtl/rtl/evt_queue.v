// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Hardware -> firmware event queue: PRODUCERS event sources, arbitrated round robin into
 * one FIFO (RAM, DEPTH records) read by the firmware.
 *
 * Event record (EVT_WIDTH bits, default 128 = 4 words of 32 bits): the event records of
 * docs/records.md (EvtHead: the type, enum EventType, then EvtFinRst, EvtRequestMatched,
 * EvtPuntReady per type). The queue treats the record as opaque; head_src gives the
 * producer that sent it.
 *
 * Producer port p: evt_valid[p], evt_ready[p], evt_data[p*EVT_WIDTH +: EVT_WIDTH].
 * Each producer has a one-record holding register; evt_ready[p] is high when it is free
 * or being emptied this cycle. The arbiter moves one record per cycle from a holding
 * register into the FIFO, round robin starting after the last producer served, so a
 * producer offering a record every cycle waits at most PRODUCERS-1 cycles per record (it
 * gets at least 1/PRODUCERS of the cycles), independent of the firmware. When the FIFO is
 * full the granted record is dropped and counted (stat_overflow total and per producer in
 * stat_overflow_prod[p*32 +: 32]); producers are never held up by a full queue.
 * Records of one producer reach the FIFO in the order they were offered.
 *
 * Firmware read port: head_valid, head_src, head_data (whole record, shown also as
 * 32-bit words: head_word = head_data[head_word_sel*32 +: 32]); pop (ignored when
 * !head_valid) removes the head; the next record shows the following cycle.
 * Status: level (records queued, incl. head), stat_pushed (records written to the FIFO).
 */
module evt_queue #
(
    parameter PRODUCERS = 4,
    parameter EVT_WIDTH = 128,
    // FIFO depth in records (power of two)
    parameter DEPTH = 256,
    parameter SRC_BITS = PRODUCERS > 1 ? $clog2(PRODUCERS) : 1,
    parameter ADDR_BITS = $clog2(DEPTH),
    parameter WORD_SEL_BITS = EVT_WIDTH > 32 ? $clog2(EVT_WIDTH / 32) : 1
)
(
    input  wire                           clk,
    input  wire                           rst,

    input  wire [PRODUCERS-1:0]           evt_valid,
    output wire [PRODUCERS-1:0]           evt_ready,
    input  wire [PRODUCERS*EVT_WIDTH-1:0] evt_data,

    output wire                           head_valid,
    output wire [SRC_BITS-1:0]            head_src,
    output wire [EVT_WIDTH-1:0]           head_data,
    input  wire [WORD_SEL_BITS-1:0]       head_word_sel,
    output wire [31:0]                    head_word,
    input  wire                           pop,

    output wire [ADDR_BITS+1:0]           level,
    output wire [31:0]                    stat_pushed,
    output wire [31:0]                    stat_overflow,
    output wire [PRODUCERS*32-1:0]        stat_overflow_prod
);

initial begin
    if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0 || (1 << ADDR_BITS) != DEPTH) begin
        $error("Error: DEPTH must be a power of two >= 2 (instance %m)");
        $finish;
    end
    if (EVT_WIDTH < 32 || EVT_WIDTH % 32 != 0 || PRODUCERS < 1) begin
        $error("Error: EVT_WIDTH must be a multiple of 32, PRODUCERS >= 1 (instance %m)");
        $finish;
    end
end

localparam REC_WIDTH = EVT_WIDTH + SRC_BITS;

// Holding registers
reg [PRODUCERS-1:0]           hold_valid_reg = {PRODUCERS{1'b0}};
reg [PRODUCERS*EVT_WIDTH-1:0] hold_data_reg = {PRODUCERS*EVT_WIDTH{1'b0}};
reg [SRC_BITS-1:0]            last_reg = {SRC_BITS{1'b0}};

// Round robin pick: first valid holding register after last_reg (none while all are empty)
reg                grant_valid;
reg [SRC_BITS-1:0] grant;
integer i, j;
always @* begin
    grant_valid = 1'b0;
    grant = {SRC_BITS{1'b0}};
    // Both loop variables assigned on every path (else synth_ecp5 infers a latch for i).
    i = 0;
    j = 0;
    if (hold_valid_reg != {PRODUCERS{1'b0}}) begin
        for (i = PRODUCERS; i >= 1; i = i - 1) begin
            j = {{(32-SRC_BITS){1'b0}}, last_reg};
            j = (j + i) % PRODUCERS;
            if (hold_valid_reg[j]) begin
                grant_valid = 1'b1;
                grant = j[SRC_BITS-1:0];
            end
        end
    end
end

wire [PRODUCERS-1:0] grant_oh = grant_valid ? ({{(PRODUCERS-1){1'b0}}, 1'b1} << grant) :
                                              {PRODUCERS{1'b0}};
assign evt_ready = ~hold_valid_reg | grant_oh;

// FIFO
reg [REC_WIDTH-1:0] mem [0:DEPTH-1];
reg [ADDR_BITS:0]   wr_ptr_reg = {ADDR_BITS+1{1'b0}};
reg [ADDR_BITS:0]   rd_ptr_reg = {ADDR_BITS+1{1'b0}};
reg                 head_valid_reg = 1'b0;
reg [REC_WIDTH-1:0] head_reg = {REC_WIDTH{1'b0}};
reg [31:0]          pushed_reg = 32'd0;
reg [31:0]          overflow_reg = 32'd0;
reg [PRODUCERS*32-1:0] overflow_prod_reg = {PRODUCERS*32{1'b0}};

wire [ADDR_BITS:0] ram_count = wr_ptr_reg - rd_ptr_reg;
wire               ram_full = ram_count[ADDR_BITS];
wire               ram_empty = ram_count == {ADDR_BITS+1{1'b0}};
wire               do_pop = pop && head_valid_reg;
wire               do_load = (!head_valid_reg || do_pop) && !ram_empty;

assign head_valid = head_valid_reg;
assign head_src = head_reg[EVT_WIDTH +: SRC_BITS];
assign head_data = head_reg[EVT_WIDTH-1:0];
assign head_word = head_reg[head_word_sel*32 +: 32];
assign level = {1'b0, ram_count} + {{ADDR_BITS+1{1'b0}}, head_valid_reg};
assign stat_pushed = pushed_reg;
assign stat_overflow = overflow_reg;
assign stat_overflow_prod = overflow_prod_reg;

integer p;
always @(posedge clk) begin
    for (p = 0; p < PRODUCERS; p = p + 1) begin
        if (evt_valid[p] && evt_ready[p]) begin
            hold_valid_reg[p] <= 1'b1;
            hold_data_reg[p*EVT_WIDTH +: EVT_WIDTH] <= evt_data[p*EVT_WIDTH +: EVT_WIDTH];
        end else if (grant_oh[p]) begin
            hold_valid_reg[p] <= 1'b0;
        end
    end
    if (grant_valid) begin
        last_reg <= grant;
        if (!ram_full) begin
            mem[wr_ptr_reg[ADDR_BITS-1:0]] <= {grant, hold_data_reg[grant*EVT_WIDTH +: EVT_WIDTH]};
            wr_ptr_reg <= wr_ptr_reg + 1'b1;
            pushed_reg <= pushed_reg + 1'b1;
        end else begin
            overflow_reg <= overflow_reg + 1'b1;
            overflow_prod_reg[grant*32 +: 32] <= overflow_prod_reg[grant*32 +: 32] + 1'b1;
        end
    end
    if (do_load) begin
        head_reg <= mem[rd_ptr_reg[ADDR_BITS-1:0]];
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
        head_valid_reg <= 1'b1;
    end else if (do_pop) begin
        head_valid_reg <= 1'b0;
    end
    if (rst) begin
        hold_valid_reg <= {PRODUCERS{1'b0}};
        last_reg <= {SRC_BITS{1'b0}};
        wr_ptr_reg <= {ADDR_BITS+1{1'b0}};
        rd_ptr_reg <= {ADDR_BITS+1{1'b0}};
        head_valid_reg <= 1'b0;
        pushed_reg <= 32'd0;
        overflow_reg <= 32'd0;
        overflow_prod_reg <= {PRODUCERS*32{1'b0}};
    end
end

endmodule

`resetall
