// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated tcp_opt_decoder (TAG_WIDTH 16): one call is one clock cycle.
// The inputs of the cycle are applied, the outputs are read before the rising edge (the
// values the edge samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vparser_opts512.h"
#include "Vparser_opts64.h"
#include "Vtcp_opt_decoder.h"
#include "splicenic_tb.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct OdIn {
    uint32_t rst;
    uint32_t s_valid;
    uint32_t opt_len;
    uint32_t tag;
    uint32_t m_ready;
    uint8_t opt[40];
};

struct OdOut {
    uint32_t s_ready;
    uint32_t m_valid;
    uint32_t tag;
    uint32_t opts[5];
};

class Tb {
public:
    Tb() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new Vtcp_opt_decoder(ctx_.get(), "optdec"));
        m_->clk = 0;
        m_->eval();
    }
    ~Tb() { m_->final(); }

    void step(const OdIn& in, OdOut& out) {
        m_->rst = in.rst & 1;
        m_->s_valid = in.s_valid & 1;
        m_->s_opt_len = in.opt_len & 0x3f;
        m_->s_tag = in.tag & 0xffff;
        m_->m_ready = in.m_ready & 1;
        // option byte k in bits 8k+7:8k
        for (int w = 0; w < 10; ++w) {
            m_->s_opt[w] = uint32_t(in.opt[4 * w]) | uint32_t(in.opt[4 * w + 1]) << 8 |
                           uint32_t(in.opt[4 * w + 2]) << 16 |
                           uint32_t(in.opt[4 * w + 3]) << 24;
        }
        m_->clk = 0;
        m_->eval();
        out.s_ready = m_->s_ready;
        out.m_valid = m_->m_valid;
        out.tag = m_->m_tag;
        for (int w = 0; w < 5; ++w) {
            out.opts[w] = m_->m_opts[w];
        }
        m_->clk = 1;
        m_->eval();
    }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtcp_opt_decoder> m_;
};

// Frames through tb_parser_opts (parser + decoder): frames are offered back to back
// (tvalid high while any is left), m_ready is high with probability ready_pct %; the n
// results go to opts (5 words each) and tags. Returns the number of results, or -1 when
// max_cycles pass first.
template <class M, size_t KW>
int64_t run_parser_opts(const uint8_t* data, const uint32_t* lens, uint32_t n,
                        uint32_t ready_pct, uint64_t seed, uint64_t max_cycles, uint32_t* opts,
                        uint32_t* tags) {
    TbModel<M> t("parser_opts");
    M* m = t.m.get();
    m->clk = 0;
    m->rst = 1;
    m->s_axis_tvalid = 0;
    m->m_ready = 0;
    m->eval();
    for (int i = 0; i < 4; ++i) t.cycle();
    m->rst = 0;
    t.cycle();
    uint64_t rng = seed * 6364136223846793005ull + 1442695040888963407ull;
    size_t frame = 0, off = 0, start = 0;
    uint32_t got = 0;
    for (uint64_t cyc = 0; cyc < max_cycles && got < n; ++cyc) {
        bool valid = frame < n;
        size_t beat = 0;
        if (valid) {
            size_t len = lens[frame];
            beat = len - off < KW ? len - off : KW;
            tb_set_bytes(m->s_axis_tdata, data + start + off, beat);
            m->s_axis_tkeep = tb_keep_mask(beat);
            m->s_axis_tlast = off + KW >= len;
        }
        m->s_axis_tvalid = valid;
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        bool ready = ready_pct >= 100 || (rng >> 33) % 100 < ready_pct;
        m->m_ready = ready;
        m->eval();
        if (valid && m->s_axis_tready) {
            off += KW;
            if (off >= lens[frame]) {
                start += lens[frame];
                off = 0;
                ++frame;
            }
        }
        if (m->m_valid && ready) {
            for (int w = 0; w < 5; ++w) opts[5 * got + w] = m->m_opts[w];
            tags[got] = m->m_tag;
            ++got;
        }
        t.cycle();
    }
    return got == n ? int64_t(got) : -1;
}

}  // namespace

extern "C" {

int64_t parser_opts_run(uint32_t width, const uint8_t* data, const uint32_t* lens, uint32_t n,
                        uint32_t ready_pct, uint64_t seed, uint64_t max_cycles, uint32_t* opts,
                        uint32_t* tags) {
    if (!data || !lens || !opts || !tags) return -2;
    if (width == 64)
        return run_parser_opts<Vparser_opts64, 8>(data, lens, n, ready_pct, seed, max_cycles,
                                                   opts, tags);
    if (width == 512)
        return run_parser_opts<Vparser_opts512, 64>(data, lens, n, ready_pct, seed, max_cycles,
                                                     opts, tags);
    return -2;
}

void* optdec_new() { return new Tb(); }

void optdec_free(void* h) { delete static_cast<Tb*>(h); }

int optdec_step(void* h, const OdIn* in, OdOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
