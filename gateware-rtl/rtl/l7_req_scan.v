// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * L7 request scanner: streams the payload bytes of one HTTP/1.x request segment (one
 * AXI-Stream packet) and extracts, within the first WINDOW bytes, the method, the path and
 * the Host header value. At tlast it hands one job (valid/ready) to the rule matcher.
 * All KEEP_WIDTH byte lanes of a beat are scanned in one cycle (lanes with tkeep = 0 are
 * skipped), so the input runs at one beat per cycle; the only stall is at tlast while the
 * previous job has not been taken.
 *
 * Extraction (see l7_matcher for the full policy):
 * - request line "METHOD SP target SP HTTP/1.0|HTTP/1.1 CRLF", method a token; anything
 *   else (TLS, HTTP/2 preface, bare LF, CTL bytes) sets not_http.
 * - path = target up to '?' or SP. Absolute form "http://authority/path" or
 *   "https://..." (scheme case-insensitive): the authority is skipped, the path starts at
 *   the first '/' after it ("/" when there is none), absform is reported.
 * - path buffer holds the first PAT_MAX path bytes, path_len counts all of them (saturating).
 * - needs_norm (path): '%', '\', '#' (a backend ends the path there), an empty segment
 *   ("//"), a "." or ".." segment.
 * - Host header: name compared case-insensitively, OWS skipped, ":port" stripped (not
 *   inside "[...]"), port must be digits, trailing OWS allowed, letters lower-cased. The
 *   host buffer keeps the LAST PAT_MAX host bytes, last character in byte 0.
 *   needs_norm (host): '%' in the host, a trailing '.'. A second Host header, a space
 *   before ':' in a header name, an obs-fold line, or CR not followed by LF -> not_http.
 * - complete = request line done and (Host line done or end of headers seen).
 */
module l7_req_scan #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    parameter TAG_WIDTH = 16,
    parameter PAT_MAX = 64,
    parameter WINDOW = `SNIC_L7_BUFFER_BYTES
)
(
    input  wire                     clk,
    input  wire                     rst,

    // request bytes: one packet = one request segment; tuser = tag, sampled on the first beat
    input  wire [DATA_WIDTH-1:0]    s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]    s_axis_tkeep,
    input  wire                     s_axis_tvalid,
    output wire                     s_axis_tready,
    input  wire                     s_axis_tlast,
    input  wire [TAG_WIDTH-1:0]     s_axis_tuser,

    // bank active now; captured on a request's first beat
    input  wire                     cur_bank,
    // a request is in flight in this stage (first beat taken, tlast not yet), and its bank
    output wire                     busy,
    output wire                     busy_bank,

    // job out
    output wire                     job_valid,
    input  wire                     job_ready,
    output wire [TAG_WIDTH-1:0]     job_tag,
    output wire                     job_bank,
    output wire [`SNIC_HTTP_METHOD_W-1:0] job_method,
    output wire [PAT_MAX*8-1:0]     job_path,
    output wire [15:0]              job_path_len,
    output wire [PAT_MAX*8-1:0]     job_host,
    output wire [15:0]              job_host_len,
    // {over_window, host_found, absform, not_http, needs_norm, incomplete}: the L7Flag
    // result flags above MATCHED (bit 0)
    output wire [5:0]               job_flags
);

// states
localparam [4:0]
    S_METHOD = 5'd0,
    S_PATH   = 5'd1,
    S_AUTH   = 5'd2,
    S_QUERY  = 5'd3,
    S_VER    = 5'd4,
    S_VER_LF = 5'd5,
    S_HNAME  = 5'd6,
    S_SKIP   = 5'd7,
    S_LF     = 5'd8,
    S_HOWS   = 5'd9,
    S_HVAL   = 5'd10,
    S_HPORT  = 5'd11,
    S_HTRAIL = 5'd12,
    S_END_LF = 5'd13,
    S_DONE   = 5'd14,
    S_ERR    = 5'd15;

localparam PIDX_W = $clog2(PAT_MAX);

// method codes (enum HttpMethod)
localparam [`SNIC_HTTP_METHOD_W-1:0]
    M_OTHER = `SNIC_HTTP_METHOD_OTHER, M_GET = `SNIC_HTTP_METHOD_GET,
    M_HEAD = `SNIC_HTTP_METHOD_HEAD, M_POST = `SNIC_HTTP_METHOD_POST,
    M_PUT = `SNIC_HTTP_METHOD_PUT, M_DELETE = `SNIC_HTTP_METHOD_DELETE,
    M_OPTIONS = `SNIC_HTTP_METHOD_OPTIONS;

// job_flags from the flags (L7Flag masks, MATCHED left out)
/* verilator lint_off UNUSEDSIGNAL */
function [5:0] job_flags_of(input over, input host_found, input absf, input not_http,
                            input norm, input incomplete);
    reg [`SNIC_L7_FLAG_W-1:0] f;
    begin
        f = ({`SNIC_L7_FLAG_W{over}} & `SNIC_L7_FLAG_OVER_WINDOW)
            | ({`SNIC_L7_FLAG_W{host_found}} & `SNIC_L7_FLAG_HOST_FOUND)
            | ({`SNIC_L7_FLAG_W{absf}} & `SNIC_L7_FLAG_ABSFORM)
            | ({`SNIC_L7_FLAG_W{not_http}} & `SNIC_L7_FLAG_NOT_HTTP)
            | ({`SNIC_L7_FLAG_W{norm}} & `SNIC_L7_FLAG_NEEDS_NORM)
            | ({`SNIC_L7_FLAG_W{incomplete}} & `SNIC_L7_FLAG_INCOMPLETE);
        job_flags_of = f[`SNIC_L7_FLAG_W-1:1];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

initial begin
    if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: KEEP_WIDTH must be DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (PAT_MAX < 4 || PAT_MAX > 256) begin
        $error("Error: PAT_MAX must be 4..256 (instance %m)");
        $finish;
    end
    if (WINDOW < 16 || WINDOW > 32768) begin
        $error("Error: WINDOW must be 16..32768 (instance %m)");
        $finish;
    end
end

function [7:0] lc;
    input [7:0] b;
    lc = (b >= 8'h41 && b <= 8'h5a) ? (b + 8'h20) : b;
endfunction

function is_ctl;
    input [7:0] b;
    is_ctl = (b < 8'h20) || (b == 8'h7f);
endfunction

function is_ws;
    input [7:0] b;
    is_ws = (b == 8'h20) || (b == 8'h09);
endfunction

function is_tchar;
    input [7:0] b;
    is_tchar = (b >= 8'h30 && b <= 8'h39) || (b >= 8'h41 && b <= 8'h5a) ||
               (b >= 8'h61 && b <= 8'h7a) ||
               b == "!" || b == "#" || b == "$" || b == "%" || b == "&" || b == 8'h27 ||
               b == "*" || b == "+" || b == "-" || b == "." || b == "^" || b == "_" ||
               b == "`" || b == "|" || b == "~";
endfunction

// "http://"[i] and "https://"[i]
function [7:0] http_ch;
    input [3:0] i;
    case (i)
        4'd0: http_ch = "h"; 4'd1: http_ch = "t"; 4'd2: http_ch = "t"; 4'd3: http_ch = "p";
        4'd4: http_ch = ":"; 4'd5: http_ch = "/"; 4'd6: http_ch = "/";
        default: http_ch = 8'h00;
    endcase
endfunction

function [7:0] https_ch;
    input [3:0] i;
    case (i)
        4'd0: https_ch = "h"; 4'd1: https_ch = "t"; 4'd2: https_ch = "t"; 4'd3: https_ch = "p";
        4'd4: https_ch = "s"; 4'd5: https_ch = ":"; 4'd6: https_ch = "/"; 4'd7: https_ch = "/";
        default: https_ch = 8'h00;
    endcase
endfunction

// "HTTP/1."[i]
function [7:0] ver_ch;
    input [3:0] i;
    case (i)
        4'd0: ver_ch = "H"; 4'd1: ver_ch = "T"; 4'd2: ver_ch = "T"; 4'd3: ver_ch = "P";
        4'd4: ver_ch = "/"; 4'd5: ver_ch = "1"; 4'd6: ver_ch = ".";
        default: ver_ch = 8'h00;
    endcase
endfunction

// "host"[i]
function [7:0] host_ch;
    input [2:0] i;
    case (i)
        3'd0: host_ch = "h"; 3'd1: host_ch = "o"; 3'd2: host_ch = "s"; 3'd3: host_ch = "t";
        default: host_ch = 8'h00;
    endcase
endfunction

// scanner state
reg [4:0]            st_reg = S_METHOD;
reg [55:0]           meth_buf_reg = 56'd0;
reg [3:0]            meth_len_reg = 4'd0;
reg [`SNIC_HTTP_METHOD_W-1:0] meth_reg = M_OTHER;
reg [3:0]            tpos_reg = 4'd0;
reg                  http_m_reg = 1'b0, https_m_reg = 1'b0;
reg [1:0]            seg_reg = 2'd3;
reg [PAT_MAX*8-1:0]  path_buf_reg;
reg [15:0]           path_len_reg = 16'd0;
reg                  pnorm_reg = 1'b0;
reg                  absform_reg = 1'b0;
reg [3:0]            vpos_reg = 4'd0;
reg                  reqline_reg = 1'b0;
reg [2:0]            hpos_reg = 3'd0;
reg                  hname_reg = 1'b1;
reg [PAT_MAX*8-1:0]  host_buf_reg;
reg [15:0]           host_len_reg = 16'd0;
reg                  hseen_reg = 1'b0, hdone_reg = 1'b0;
reg                  in_br_reg = 1'b0;
reg                  hnorm_reg = 1'b0;
reg                  end_reg = 1'b0;
reg [15:0]           off_reg = 16'd0;
reg                  over_reg = 1'b0;
reg                  in_req_reg = 1'b0;
reg                  req_bank_reg = 1'b0;
reg [TAG_WIDTH-1:0]  req_tag_reg = {TAG_WIDTH{1'b0}};

// job register
reg                  job_valid_reg = 1'b0;
reg [TAG_WIDTH-1:0]  job_tag_reg = {TAG_WIDTH{1'b0}};
reg                  job_bank_reg = 1'b0;
reg [`SNIC_HTTP_METHOD_W-1:0] job_method_reg = M_OTHER;
reg [PAT_MAX*8-1:0]  job_path_reg;
reg [15:0]           job_path_len_reg = 16'd0;
reg [PAT_MAX*8-1:0]  job_host_reg;
reg [15:0]           job_host_len_reg = 16'd0;
reg [5:0]            job_flags_reg = 6'd0;

assign s_axis_tready = !job_valid_reg || job_ready || !s_axis_tlast;
assign busy = in_req_reg;
assign busy_bank = req_bank_reg;
assign job_valid = job_valid_reg;
assign job_tag = job_tag_reg;
assign job_bank = job_bank_reg;
assign job_method = job_method_reg;
assign job_path = job_path_reg;
assign job_path_len = job_path_len_reg;
assign job_host = job_host_reg;
assign job_host_len = job_host_len_reg;
assign job_flags = job_flags_reg;

// combinational scan of one beat: all lanes in order
reg [4:0]            st;
reg [55:0]           meth_buf;
reg [3:0]            meth_len;
reg [`SNIC_HTTP_METHOD_W-1:0] meth;
reg [3:0]            tpos;
reg                  http_m, https_m;
reg [1:0]            seg;
reg [PAT_MAX*8-1:0]  path_buf;
reg [15:0]           path_len;
reg                  pnorm, absform;
reg [3:0]            vpos;
reg                  reqline;
reg [2:0]            hpos;
reg                  hname;
reg [PAT_MAX*8-1:0]  host_buf;
reg [15:0]           host_len;
reg                  hseen, hdone, in_br, hnorm, endh;
reg [15:0]           off;
reg                  over;
reg [7:0]            b;
reg                  store_host, store_path;
reg [7:0]            pbyte;
integer              i;

// result of the beat when it is the last one
reg                  r_complete, r_not_http, r_norm;
reg [`SNIC_HTTP_METHOD_W-1:0] r_method;

always @* begin
    st = st_reg; meth_buf = meth_buf_reg; meth_len = meth_len_reg; meth = meth_reg;
    tpos = tpos_reg; http_m = http_m_reg; https_m = https_m_reg; seg = seg_reg;
    path_buf = path_buf_reg; path_len = path_len_reg; pnorm = pnorm_reg;
    absform = absform_reg; vpos = vpos_reg; reqline = reqline_reg; hpos = hpos_reg;
    hname = hname_reg; host_buf = host_buf_reg; host_len = host_len_reg;
    hseen = hseen_reg; hdone = hdone_reg; in_br = in_br_reg; hnorm = hnorm_reg;
    endh = end_reg; off = off_reg; over = over_reg;
    b = 8'd0; store_host = 1'b0; store_path = 1'b0; pbyte = 8'd0;

    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        b = s_axis_tdata[i*8 +: 8];
        store_host = 1'b0;
        store_path = 1'b0;
        pbyte = b;
        if (s_axis_tkeep[i]) begin
            if (off >= WINDOW) begin
                over = 1'b1;
            end else begin
                off = off + 16'd1;
                // OWS before the Host value: the first other byte is a value byte
                if (st == S_HOWS && !is_ws(b)) begin
                    st = S_HVAL;
                end
                case (st)
                    S_METHOD: begin
                        if (b == 8'h20 && meth_len != 4'd0) begin
                            if (meth_len == 4'd3 && meth_buf[23:0] == "GET") meth = M_GET;
                            else if (meth_len == 4'd4 && meth_buf[31:0] == "HEAD") meth = M_HEAD;
                            else if (meth_len == 4'd4 && meth_buf[31:0] == "POST") meth = M_POST;
                            else if (meth_len == 4'd3 && meth_buf[23:0] == "PUT") meth = M_PUT;
                            else if (meth_len == 4'd6 && meth_buf[47:0] == "DELETE") meth = M_DELETE;
                            else if (meth_len == 4'd7 && meth_buf[55:0] == "OPTIONS") meth = M_OPTIONS;
                            else meth = M_OTHER;
                            st = S_PATH;
                            tpos = 4'd0; http_m = 1'b1; https_m = 1'b1; seg = 2'd3;
                            path_len = 16'd0; pnorm = 1'b0; absform = 1'b0;
                        end else if (is_tchar(b)) begin
                            meth_buf = {meth_buf[47:0], b};
                            if (meth_len != 4'd15) meth_len = meth_len + 4'd1;
                        end else begin
                            st = S_ERR;
                        end
                    end
                    S_PATH: begin
                        if (b == 8'h20 || b == "?") begin
                            if (b == 8'h20 && tpos == 4'd0) begin
                                st = S_ERR;
                            end else begin
                                if (seg == 2'd1 || seg == 2'd2) pnorm = 1'b1;
                                st = (b == 8'h20) ? S_VER : S_QUERY;
                                vpos = 4'd0;
                            end
                        end else if (is_ctl(b)) begin
                            st = S_ERR;
                        end else begin
                            http_m = http_m && tpos < 4'd7 && lc(b) == http_ch(tpos);
                            https_m = https_m && tpos < 4'd8 && lc(b) == https_ch(tpos);
                            if ((http_m && tpos == 4'd6) || (https_m && tpos == 4'd7)) begin
                                absform = 1'b1;
                                http_m = 1'b0; https_m = 1'b0;
                                path_len = 16'd0; pnorm = 1'b0; seg = 2'd3;
                                st = S_AUTH;
                            end else begin
                                store_path = 1'b1; pbyte = b;
                                if (b == "/") begin
                                    if (seg != 2'd3) pnorm = 1'b1;
                                    seg = 2'd0;
                                end else if (b == ".") begin
                                    seg = (seg == 2'd0) ? 2'd1 : (seg == 2'd1) ? 2'd2 : 2'd3;
                                end else begin
                                    seg = 2'd3;
                                    if (b == "%" || b == 8'h5c || b == "#") pnorm = 1'b1;
                                end
                            end
                            if (tpos != 4'd15) tpos = tpos + 4'd1;
                        end
                    end
                    S_AUTH: begin
                        if (b == "/") begin
                            store_path = 1'b1; pbyte = "/"; seg = 2'd0;
                            st = S_PATH;
                        end else if (b == "?" || b == 8'h20) begin
                            // no path after the authority: the path is "/"
                            store_path = 1'b1; pbyte = "/"; seg = 2'd0;
                            st = (b == 8'h20) ? S_VER : S_QUERY;
                            vpos = 4'd0;
                        end else if (is_ctl(b)) begin
                            st = S_ERR;
                        end
                    end
                    S_QUERY: begin
                        if (b == 8'h20) begin
                            st = S_VER; vpos = 4'd0;
                        end else if (is_ctl(b)) begin
                            st = S_ERR;
                        end
                    end
                    S_VER: begin
                        if (vpos < 4'd7) begin
                            if (b == ver_ch(vpos)) vpos = vpos + 4'd1;
                            else st = S_ERR;
                        end else if (vpos == 4'd7) begin
                            if (b == "0" || b == "1") vpos = 4'd8;
                            else st = S_ERR;
                        end else begin
                            if (b == 8'h0d) st = S_VER_LF;
                            else st = S_ERR;
                        end
                    end
                    S_VER_LF: begin
                        if (b == 8'h0a) begin
                            reqline = 1'b1;
                            st = S_HNAME; hpos = 3'd0; hname = 1'b1;
                        end else begin
                            st = S_ERR;
                        end
                    end
                    S_HNAME: begin
                        if (hpos == 3'd0 && b == 8'h0d) begin
                            st = S_END_LF;
                        end else if (b == ":") begin
                            if (hpos == 3'd0) begin
                                st = S_ERR;
                            end else if (hpos == 3'd4 && hname) begin
                                if (hseen) begin
                                    st = S_ERR;
                                end else begin
                                    hseen = 1'b1; in_br = 1'b0;
                                    host_len = 16'd0;
                                    st = S_HOWS;
                                end
                            end else begin
                                st = S_SKIP;
                            end
                        end else if (is_ctl(b) || b == 8'h20) begin
                            st = S_ERR;
                        end else begin
                            hname = hname && hpos < 3'd4 && lc(b) == host_ch(hpos);
                            if (hpos != 3'd7) hpos = hpos + 3'd1;
                        end
                    end
                    S_SKIP: begin
                        if (b == 8'h0d) st = S_LF;
                        else if (b == 8'h0a) st = S_ERR;
                    end
                    S_LF: begin
                        if (b == 8'h0a) begin
                            st = S_HNAME; hpos = 3'd0; hname = 1'b1;
                        end else begin
                            st = S_ERR;
                        end
                    end
                    S_HOWS: begin
                        // only whitespace reaches here (see above)
                    end
                    S_HVAL: begin
                        if (b == 8'h0d) begin
                            hdone = 1'b1; st = S_LF;
                        end else if (is_ws(b)) begin
                            st = S_HTRAIL;
                        end else if (is_ctl(b)) begin
                            st = S_ERR;
                        end else if (b == ":" && !in_br) begin
                            st = S_HPORT;
                        end else begin
                            if (b == "[") in_br = 1'b1;
                            if (b == "]") in_br = 1'b0;
                            if (b == "%") hnorm = 1'b1;
                            store_host = 1'b1;
                        end
                    end
                    S_HPORT: begin
                        if (b == 8'h0d) begin
                            hdone = 1'b1; st = S_LF;
                        end else if (is_ws(b)) begin
                            st = S_HTRAIL;
                        end else if (!(b >= "0" && b <= "9")) begin
                            st = S_ERR;
                        end
                    end
                    S_HTRAIL: begin
                        if (b == 8'h0d) begin
                            hdone = 1'b1; st = S_LF;
                        end else if (!is_ws(b)) begin
                            st = S_ERR;
                        end
                    end
                    S_END_LF: begin
                        if (b == 8'h0a) begin
                            endh = 1'b1; st = S_DONE;
                        end else begin
                            st = S_ERR;
                        end
                    end
                    default: begin
                        // S_DONE, S_ERR: the rest is ignored
                    end
                endcase
                // buffer writes outside the state case keep one write port per lane
                if (store_path) begin
                    if (path_len < PAT_MAX) path_buf[path_len[PIDX_W-1:0]*8 +: 8] = pbyte;
                    if (path_len != 16'hffff) path_len = path_len + 16'd1;
                end
                if (store_host) begin
                    host_buf = {host_buf[PAT_MAX*8-9:0], lc(b)};
                    if (host_len != 16'hffff) host_len = host_len + 16'd1;
                end
            end
        end
    end

    r_not_http = (st == S_ERR);
    r_complete = reqline && (hdone || endh);
    r_norm = pnorm || hnorm || (hdone && host_len != 16'd0 && host_buf[7:0] == ".");
    r_method = meth;
end

wire beat = s_axis_tvalid && s_axis_tready;

always @(posedge clk) begin
    if (job_ready) job_valid_reg <= 1'b0;

    if (beat) begin
        if (!in_req_reg) begin
            req_bank_reg <= cur_bank;
            req_tag_reg <= s_axis_tuser;
        end
        if (s_axis_tlast) begin
            in_req_reg <= 1'b0;
            job_valid_reg <= 1'b1;
            job_tag_reg <= in_req_reg ? req_tag_reg : s_axis_tuser;
            job_bank_reg <= in_req_reg ? req_bank_reg : cur_bank;
            job_path_reg <= path_buf;
            job_path_len_reg <= path_len;
            job_host_reg <= host_buf;
            job_host_len_reg <= host_len;
            if (r_not_http) begin
                job_method_reg <= r_method;
                job_flags_reg <= job_flags_of(over, 1'b0, 1'b0, 1'b1, 1'b0, 1'b0);
            end else if (!r_complete) begin
                job_method_reg <= r_method;
                job_flags_reg <= job_flags_of(over, 1'b0, 1'b0, 1'b0, 1'b0, 1'b1);
            end else begin
                job_method_reg <= r_method;
                job_flags_reg <= job_flags_of(over, hdone, absform, 1'b0, r_norm, 1'b0);
            end
            // fresh scanner state for the next request
            st_reg <= S_METHOD; meth_len_reg <= 4'd0; meth_reg <= M_OTHER;
            reqline_reg <= 1'b0; hseen_reg <= 1'b0; hdone_reg <= 1'b0;
            hnorm_reg <= 1'b0; pnorm_reg <= 1'b0; absform_reg <= 1'b0;
            end_reg <= 1'b0; off_reg <= 16'd0; over_reg <= 1'b0;
            path_len_reg <= 16'd0; host_len_reg <= 16'd0;
        end else begin
            in_req_reg <= 1'b1;
            st_reg <= st; meth_buf_reg <= meth_buf; meth_len_reg <= meth_len;
            meth_reg <= meth; tpos_reg <= tpos; http_m_reg <= http_m;
            https_m_reg <= https_m; seg_reg <= seg; path_buf_reg <= path_buf;
            path_len_reg <= path_len; pnorm_reg <= pnorm; absform_reg <= absform;
            vpos_reg <= vpos; reqline_reg <= reqline; hpos_reg <= hpos;
            hname_reg <= hname; host_buf_reg <= host_buf; host_len_reg <= host_len;
            hseen_reg <= hseen; hdone_reg <= hdone; in_br_reg <= in_br;
            hnorm_reg <= hnorm; end_reg <= endh; off_reg <= off; over_reg <= over;
        end
    end

    if (rst) begin
        st_reg <= S_METHOD; meth_len_reg <= 4'd0; meth_reg <= M_OTHER;
        reqline_reg <= 1'b0; hseen_reg <= 1'b0; hdone_reg <= 1'b0;
        hnorm_reg <= 1'b0; pnorm_reg <= 1'b0; absform_reg <= 1'b0;
        end_reg <= 1'b0; off_reg <= 16'd0; over_reg <= 1'b0;
        path_len_reg <= 16'd0; host_len_reg <= 16'd0;
        in_req_reg <= 1'b0; job_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
