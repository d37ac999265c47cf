// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * L7 matcher (the seed's string match table): classifies the first request segment of a
 * connection by method, path and Host against a double-banked rule table.
 *
 * Input: one AXI-Stream packet = the TCP payload of one request segment (or a buffer the
 * firmware assembled from several segments: the firmware command path feeds this same
 * input through a small mux, added at integration). The first beat of a packet is the
 * start of a request; s_axis_tuser is an opaque tag (e.g. the flow id / punt slot) sampled
 * on the first beat and returned with the result, so the punted packet's metadata rides
 * along. tkeep lanes may be sparse; bytes with tkeep = 0 are skipped.
 *
 * Scanning (l7_req_scan): only the first WINDOW bytes (default L7_BUFFER_BYTES, 1024) are
 * looked at.
 * Request line "METHOD SP target SP HTTP/1.0|1.1 CRLF", headers with CRLF line ends.
 *   method (enum HttpMethod of docs/records.md): GET, HEAD, POST, PUT, DELETE, OPTIONS,
 *           anything else OTHER.
 *   path:   the request-target up to the first '?' or SP (query ignored). Absolute form
 *           "http://authority/path" / "https://..." (scheme case-insensitive): the path is
 *           taken from the first '/' after the authority ("/" if none), flag absform is set.
 *           The authority is NOT compared with Host: firmware checks them when absform = 1.
 *           Other forms ("*", "host:port") are matched as they are.
 *   host:   the value of the Host header (name case-insensitive), leading/trailing OWS
 *           removed, ":port" removed (digits only; a ':' inside "[...]" is part of an IPv6
 *           literal), lower-cased. Missing Host: only host-kind "any" rules can match.
 * Normalisation policy. Done in hardware: host lower-casing, port strip, OWS strip.
 * NOT done in hardware: percent-decoding, dot-segment removal, duplicate-slash merging,
 * backslash conversion, trailing-dot removal on the host. Instead needs_norm is set when
 * the path holds '%', '\', "//", a "." or ".." segment ("/./", "/../", or at the end), or
 * the host holds '%' or ends in '.'. The match result of such a request is advisory only:
 * firmware normalises and re-runs it through the command path, so no encoding trick can
 * bypass a rule. Paths are case-sensitive.
 * not_http: bytes that are not an HTTP/1.x request head (TLS ClientHello, the HTTP/2
 * preface "PRI * HTTP/2.0", a non-token method, a bad version, a bare CR or LF, a CTL in
 * the target, a space in a header name, an obs-fold line, a second Host header). Result:
 * default pool, matched = 0, method as parsed (other if the method was not complete).
 * incomplete: the request line, or the Host line (when no end of headers was seen), is not
 * complete within the segment and the window: default pool, matched = 0; firmware
 * assembles more and uses the command path. over_window says bytes past WINDOW were
 * ignored (assembling more will not help then).
 *
 * Rules (written through cfg_wr_*, see l7_rule_bank for the word map), RULES per bank:
 *   valid; priority (16 bit, LOWER wins; ties: lower rule index = declaration order);
 *   path kind (enum PathKind) ANY, EXACT (path == pattern), PREFIX (path starts with
 *     pattern), NEVER; pattern up to PAT_MAX bytes (longer length: rule never matches). Exact and
 *     prefix rules are ranked ONLY by priority; longest prefix is not implied.
 *   host kind (enum HostKind) ANY, EXACT, SUFFIX (wildcard), NEVER. Patterns are lower-case and
 *     stored last character first. Wildcard "*.example.com" is written as the suffix
 *     ".example.com" and matches any host ending in it with at least one more character
 *     before it: "a.example.com", "a.b.example.com", NOT the bare "example.com" (add an
 *     exact rule for that).
 *   rule id (16 bit, returned), pool id (POOL_WIDTH bits).
 * A rule matches when valid, path and host both match. The result is the matching rule
 * with the lowest (priority, index); none -> the bank's default pool, matched = 0.
 * Special write words (RuleWordIndex): CLEAR_BANK clears the valid bits of the whole
 * inactive bank, DEFAULT_POOL sets the inactive bank's default pool
 * (wr_data[POOL_WIDTH-1:0]).
 *
 * Banks: writes always go to the INACTIVE bank. cmd_bank_switch (one-cycle pulse) swaps the
 * banks at once; every request uses the bank that was active when its first beat was
 * accepted, to the end. status_inactive_busy is high while a request that started on the
 * now-inactive bank is still in flight: writes are held off (cfg_wr_ready = 0) until it
 * finishes (at most one scan plus one segment), and in the cycle of a switch.
 *
 * Timing (measured by tests/random.rs, RULES 64, LANES 4): input one beat per cycle;
 * s_axis_tready drops only on a tlast beat while the previous request still waits for
 * its scan (tready depends on tlast). Result handshake RULES/LANES + 5 = 21 cycles after
 * the tlast beat (not_http / incomplete skip the scan: 2 cycles). Parsing the next request
 * overlaps the scan: back-to-back one request per max(beats, RULES/LANES + 4) cycles, i.e.
 * 0.05 requests/cycle for short requests, line rate (1.00 beats/cycle) from 20 beats up.
 * Resources: the rule table is 2 x RULES x (2 x PAT_MAX + 12) bytes of RAM (148 RAMs kept
 * as memories by Yosys); compare logic LANES x 2 x PAT_MAX byte comparators; the scanner
 * unrolls its byte FSM over KEEP_WIDTH lanes (the bulk of ~85k generic cells at DATA_WIDTH
 * 64; its critical path is KEEP_WIDTH FSM steps, long at DATA_WIDTH 512).
 *
 * Ports for a later CSR block:
 *   cfg_wr_valid/ready, cfg_wr_rule (rule index), cfg_wr_word, cfg_wr_data: rule writes.
 *   cmd_bank_switch: pulse. status_active_bank, status_inactive_busy: status bits.
 * Result: m_res_valid/ready with tag, rule id, pool, method, bank used, flags (enum
 *   L7Flag masks: {over_window, host_found, absform, not_http, needs_norm, incomplete,
 *   matched}).
 */
module l7_matcher #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    parameter TAG_WIDTH = 16,
    parameter RULES = 64,
    parameter LANES = 4,
    parameter PAT_MAX = 64,
    parameter POOL_WIDTH = 16,
    parameter WINDOW = `SNIC_L7_BUFFER_BYTES,
    parameter RIDX_W = (RULES > 1) ? $clog2(RULES) : 1
)
(
    input  wire                     clk,
    input  wire                     rst,

    // request segment bytes (or a firmware-assembled buffer)
    input  wire [DATA_WIDTH-1:0]    s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]    s_axis_tkeep,
    input  wire                     s_axis_tvalid,
    output wire                     s_axis_tready,
    input  wire                     s_axis_tlast,
    input  wire [TAG_WIDTH-1:0]     s_axis_tuser,

    // rule table write port (inactive bank)
    input  wire                     cfg_wr_valid,
    output wire                     cfg_wr_ready,
    input  wire [RIDX_W-1:0]        cfg_wr_rule,
    input  wire [7:0]               cfg_wr_word,
    input  wire [31:0]              cfg_wr_data,

    // commands and status
    input  wire                     cmd_bank_switch,
    output wire                     status_active_bank,
    output wire                     status_inactive_busy,

    // result
    output wire                     m_res_valid,
    input  wire                     m_res_ready,
    output wire [TAG_WIDTH-1:0]     m_res_tag,
    output wire [15:0]              m_res_rule_id,
    output wire [POOL_WIDTH-1:0]    m_res_pool,
    output wire [2:0]               m_res_method,
    output wire                     m_res_bank,
    output wire [6:0]               m_res_flags
);

localparam ROWS = RULES / LANES;
localparam ROW_W = (ROWS > 1) ? $clog2(ROWS) : 1;
localparam PB = PAT_MAX * 8;
localparam integer LAST_ROW_I = ROWS - 1;
localparam [ROW_W-1:0] LAST_ROW = LAST_ROW_I[ROW_W-1:0];

initial begin
    if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: KEEP_WIDTH must be DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (TAG_WIDTH < 1) begin
        $error("Error: TAG_WIDTH must be >= 1 (instance %m)");
        $finish;
    end
    // result flags: {scanner flags, matched}
    if (`SNIC_L7_FLAG_W != 7 || `SNIC_L7_FLAG_MATCHED != 1) begin
        $error("Error: L7Flag does not fit the result flags (instance %m)");
        $finish;
    end
end

reg active_bank_reg = 1'b0;

// ---------------------------------------------------------------- request scanner
wire               job_valid;
wire               job_ready;
wire [TAG_WIDTH-1:0] job_tag;
wire               job_bank;
wire [2:0]         job_method;
wire [PB-1:0]      job_path;
wire [15:0]        job_path_len;
wire [PB-1:0]      job_host;
wire [15:0]        job_host_len;
wire [5:0]         job_flags;
wire               scan_busy, scan_busy_bank;

l7_req_scan #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .TAG_WIDTH(TAG_WIDTH),
    .PAT_MAX(PAT_MAX),
    .WINDOW(WINDOW)
) req_scan_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .cur_bank(active_bank_reg),
    .busy(scan_busy),
    .busy_bank(scan_busy_bank),
    .job_valid(job_valid),
    .job_ready(job_ready),
    .job_tag(job_tag),
    .job_bank(job_bank),
    .job_method(job_method),
    .job_path(job_path),
    .job_path_len(job_path_len),
    .job_host(job_host),
    .job_host_len(job_host_len),
    .job_flags(job_flags)
);

// job_flags = {over_window, host_found, absform, not_http, needs_norm, incomplete}: the
// result flags (L7Flag) above MATCHED, bit 0
localparam [`SNIC_L7_FLAG_W-1:0] FL_SKIP = `SNIC_L7_FLAG_INCOMPLETE | `SNIC_L7_FLAG_NOT_HTTP;
wire [`SNIC_L7_FLAG_W-1:0] job_fl = {job_flags, 1'b0};
wire job_skip = |(job_fl & FL_SKIP);
wire job_host_found = |(job_fl & `SNIC_L7_FLAG_HOST_FOUND);

// ---------------------------------------------------------------- banks and writes
wire inactive_bank = ~active_bank_reg;
wire inactive_busy = (scan_busy && scan_busy_bank == inactive_bank) ||
                     (job_valid && job_bank == inactive_bank);
assign status_active_bank = active_bank_reg;
assign status_inactive_busy = inactive_busy;
assign cfg_wr_ready = !inactive_busy && !cmd_bank_switch;

wire wr_fire = cfg_wr_valid && cfg_wr_ready;
reg [POOL_WIDTH-1:0] dflt_pool_reg_0 = {POOL_WIDTH{1'b0}};
reg [POOL_WIDTH-1:0] dflt_pool_reg_1 = {POOL_WIDTH{1'b0}};

always @(posedge clk) begin
    if (cmd_bank_switch) active_bank_reg <= ~active_bank_reg;
    if (wr_fire && cfg_wr_word == `SNIC_RULE_WORD_INDEX_DEFAULT_POOL) begin
        if (inactive_bank) dflt_pool_reg_1 <= cfg_wr_data[POOL_WIDTH-1:0];
        else dflt_pool_reg_0 <= cfg_wr_data[POOL_WIDTH-1:0];
    end
    if (rst) begin
        active_bank_reg <= 1'b0;
        dflt_pool_reg_0 <= {POOL_WIDTH{1'b0}};
        dflt_pool_reg_1 <= {POOL_WIDTH{1'b0}};
    end
end

wire [POOL_WIDTH-1:0] job_dflt_pool = job_bank ? dflt_pool_reg_1 : dflt_pool_reg_0;

// ---------------------------------------------------------------- rule scan
reg              run_reg = 1'b0;      // scanning the job in the job register
reg              issue_reg = 1'b0;    // still issuing reads
reg [ROW_W-1:0]  step_reg = {ROW_W{1'b0}};
reg              p1_valid_reg = 1'b0, p1_last_reg = 1'b0;
reg              p2_valid_reg = 1'b0, p2_last_reg = 1'b0;
reg              fin_reg = 1'b0;

reg [LANES-1:0]            p2_match_reg;
reg [LANES*16-1:0]         p2_prio_reg;
reg [LANES*16-1:0]         p2_rid_reg;
reg [LANES*POOL_WIDTH-1:0] p2_pool_reg;

reg                  best_found_reg = 1'b0;
reg [15:0]           best_prio_reg = 16'd0;
reg [15:0]           best_rid_reg = 16'd0;
reg [POOL_WIDTH-1:0] best_pool_reg = {POOL_WIDTH{1'b0}};

wire [LANES-1:0]            rd_valid;
// ctrl bits 31:30, 25, 15:9 are reserved (valid lives in the bank's flip-flops)
/* verilator lint_off UNUSEDSIGNAL */
wire [LANES*32-1:0]         rd_ctrl;
/* verilator lint_on UNUSEDSIGNAL */
wire [LANES*32-1:0]         rd_meta;
wire [LANES*POOL_WIDTH-1:0] rd_pool;
wire [LANES*PB-1:0]         rd_path, rd_host;

wire issue = run_reg && issue_reg;

l7_rule_bank #(
    .RULES(RULES),
    .LANES(LANES),
    .PAT_MAX(PAT_MAX),
    .POOL_WIDTH(POOL_WIDTH)
) rule_bank_inst (
    .clk(clk),
    .rst(rst),
    .wr_en(wr_fire && cfg_wr_word != `SNIC_RULE_WORD_INDEX_CLEAR_BANK
           && cfg_wr_word != `SNIC_RULE_WORD_INDEX_DEFAULT_POOL),
    .wr_bank(inactive_bank),
    .wr_rule(cfg_wr_rule),
    .wr_word(cfg_wr_word),
    .wr_data(cfg_wr_data),
    .clr_en(wr_fire && cfg_wr_word == `SNIC_RULE_WORD_INDEX_CLEAR_BANK),
    .clr_bank(inactive_bank),
    .rd_en(issue),
    .rd_bank(job_bank),
    .rd_row(step_reg),
    .rd_valid(rd_valid),
    .rd_ctrl(rd_ctrl),
    .rd_meta(rd_meta),
    .rd_pool(rd_pool),
    .rd_path(rd_path),
    .rd_host(rd_host)
);

// per-lane compare of the rule read last cycle against the job (evaluated only for a read
// row, p1_valid_reg: the compare registers are not read otherwise). ctrl bits 31:30, 25,
// 15:9 are reserved.
/* verilator lint_off UNUSEDSIGNAL */
function lane_ok(input [31:0] ctrl, input [PB-1:0] ppat, input [PB-1:0] hpat,
                 input [PB-1:0] jpath, input [15:0] jplen, input [PB-1:0] jhost,
                 input [15:0] jhlen, input host_found);
    // ctrl word: record L7RuleCtrl
    reg [`SNIC_PATH_KIND_W-1:0] pkind;
    reg [`SNIC_HOST_KIND_W-1:0] hkind;
    reg [8:0] hlen, plen;
    reg       p_bytes_ok, h_bytes_ok, plen_ok, hlen_ok, path_ok, host_ok;
    integer   k;
    begin
        pkind = `SNIC_L7_RULE_CTRL_PATH_KIND(ctrl);
        hkind = `SNIC_L7_RULE_CTRL_HOST_KIND(ctrl);
        hlen = `SNIC_L7_RULE_CTRL_HOST_LEN(ctrl);
        plen = `SNIC_L7_RULE_CTRL_PATH_LEN(ctrl);
        p_bytes_ok = 1'b1;
        h_bytes_ok = 1'b1;
        for (k = 0; k < PAT_MAX; k = k + 1) begin
            if (k < plen && jpath[k*8 +: 8] != ppat[k*8 +: 8]) p_bytes_ok = 1'b0;
            if (k < hlen && jhost[k*8 +: 8] != hpat[k*8 +: 8]) h_bytes_ok = 1'b0;
        end
        plen_ok = plen <= PAT_MAX;
        hlen_ok = hlen <= PAT_MAX;
        path_ok = (pkind == `SNIC_PATH_KIND_ANY) ||
                  (pkind == `SNIC_PATH_KIND_EXACT && plen_ok && jplen == {7'd0, plen}
                   && p_bytes_ok) ||
                  (pkind == `SNIC_PATH_KIND_PREFIX && plen_ok && jplen >= {7'd0, plen}
                   && p_bytes_ok);
        host_ok = (hkind == `SNIC_HOST_KIND_ANY) ||
                  (hkind == `SNIC_HOST_KIND_EXACT && host_found && hlen_ok
                   && jhlen == {7'd0, hlen} && h_bytes_ok) ||
                  (hkind == `SNIC_HOST_KIND_SUFFIX && host_found && hlen_ok
                   && jhlen > {7'd0, hlen} && h_bytes_ok);
        lane_ok = path_ok && host_ok;
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// lane reduction of the compare registers: lower priority value wins, ties to the lower
// lane (= lower index). Returns {found, priority, rule id, pool}.
function [1+16+16+POOL_WIDTH-1:0] lane_best(input [LANES-1:0] match,
                                            input [LANES*16-1:0] prio,
                                            input [LANES*16-1:0] rid,
                                            input [LANES*POOL_WIDTH-1:0] pool);
    reg                  c_found;
    reg [15:0]           c_prio, c_rid;
    reg [POOL_WIDTH-1:0] c_pool;
    integer              j;
    begin
        c_found = 1'b0;
        c_prio = 16'd0;
        c_rid = 16'd0;
        c_pool = {POOL_WIDTH{1'b0}};
        for (j = 0; j < LANES; j = j + 1) begin
            if (match[j] && (!c_found || prio[j*16 +: 16] < c_prio)) begin
                c_found = 1'b1;
                c_prio = prio[j*16 +: 16];
                c_rid = rid[j*16 +: 16];
                c_pool = pool[j*POOL_WIDTH +: POOL_WIDTH];
            end
        end
        lane_best = {c_found, c_prio, c_rid, c_pool};
    end
endfunction

// the reduction finds a lane better than the best so far
/* verilator lint_off UNUSEDSIGNAL */
function best_take(input [1+16+16+POOL_WIDTH-1:0] c, input found, input [15:0] prio);
    best_take = c[32+POOL_WIDTH] && (!found || c[16+POOL_WIDTH +: 16] < prio);
endfunction
/* verilator lint_on UNUSEDSIGNAL */

integer j;

// result register
reg                  res_valid_reg = 1'b0;
reg [TAG_WIDTH-1:0]  res_tag_reg = {TAG_WIDTH{1'b0}};
reg [15:0]           res_rid_reg = 16'd0;
reg [POOL_WIDTH-1:0] res_pool_reg = {POOL_WIDTH{1'b0}};
reg [2:0]            res_method_reg = 3'd0;
reg                  res_bank_reg = 1'b0;
reg [6:0]            res_flags_reg = 7'd0;

wire res_free = !res_valid_reg || m_res_ready;
wire fast_done = job_valid && !run_reg && job_skip && res_free;
wire scan_done = run_reg && fin_reg && res_free;
assign job_ready = fast_done || scan_done;

always @(posedge clk) begin
    // start a scan
    if (job_valid && !run_reg && !job_skip) begin
        run_reg <= 1'b1;
        issue_reg <= 1'b1;
        step_reg <= {ROW_W{1'b0}};
        best_found_reg <= 1'b0;
    end
    if (issue) begin
        step_reg <= step_reg + 1'b1;
        if (step_reg == LAST_ROW) issue_reg <= 1'b0;
    end
    p1_valid_reg <= issue;
    p1_last_reg <= issue && step_reg == LAST_ROW;
    p2_valid_reg <= p1_valid_reg;
    p2_last_reg <= p1_valid_reg && p1_last_reg;
    if (p1_valid_reg) begin
        for (j = 0; j < LANES; j = j + 1) begin
            p2_match_reg[j] <= rd_valid[j] &&
                               lane_ok(rd_ctrl[j*32 +: 32], rd_path[j*PB +: PB],
                                       rd_host[j*PB +: PB], job_path, job_path_len, job_host,
                                       job_host_len, job_host_found);
            p2_prio_reg[j*16 +: 16] <= rd_meta[j*32 + `SNIC_L7_RULE_META_PRIORITY_LSB +: 16];
            p2_rid_reg[j*16 +: 16] <= rd_meta[j*32 + `SNIC_L7_RULE_META_RULE_ID_LSB +: 16];
        end
        p2_pool_reg <= rd_pool;
    end
    if (p2_valid_reg) begin
        if (best_take(lane_best(p2_match_reg, p2_prio_reg, p2_rid_reg, p2_pool_reg),
                      best_found_reg, best_prio_reg)) begin
            {best_found_reg, best_prio_reg, best_rid_reg, best_pool_reg} <=
                lane_best(p2_match_reg, p2_prio_reg, p2_rid_reg, p2_pool_reg);
        end
    end
    if (p2_valid_reg && p2_last_reg) fin_reg <= 1'b1;

    if (m_res_ready) res_valid_reg <= 1'b0;
    if (fast_done) begin
        res_valid_reg <= 1'b1;
        res_tag_reg <= job_tag;
        res_rid_reg <= 16'd0;
        res_pool_reg <= job_dflt_pool;
        res_method_reg <= job_method;
        res_bank_reg <= job_bank;
        res_flags_reg <= {job_flags, 1'b0};
    end
    if (scan_done) begin
        run_reg <= 1'b0;
        fin_reg <= 1'b0;
        res_valid_reg <= 1'b1;
        res_tag_reg <= job_tag;
        res_rid_reg <= best_found_reg ? best_rid_reg : 16'd0;
        res_pool_reg <= best_found_reg ? best_pool_reg : job_dflt_pool;
        res_method_reg <= job_method;
        res_bank_reg <= job_bank;
        res_flags_reg <= {job_flags, best_found_reg};
    end

    if (rst) begin
        run_reg <= 1'b0;
        issue_reg <= 1'b0;
        p1_valid_reg <= 1'b0;
        p1_last_reg <= 1'b0;
        p2_valid_reg <= 1'b0;
        p2_last_reg <= 1'b0;
        fin_reg <= 1'b0;
        best_found_reg <= 1'b0;
        res_valid_reg <= 1'b0;
    end
end

assign m_res_valid = res_valid_reg;
assign m_res_tag = res_tag_reg;
assign m_res_rule_id = res_rid_reg;
assign m_res_pool = res_pool_reg;
assign m_res_method = res_method_reg;
assign m_res_bank = res_bank_reg;
assign m_res_flags = res_flags_reg;

endmodule

`resetall
