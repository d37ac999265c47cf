// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated tcp_opt_decoder (TAG_WIDTH 16): one call is one clock cycle.
// The inputs of the cycle are applied, the outputs are read before the rising edge (the
// values the edge samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vtcp_opt_decoder.h"

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

}  // namespace

extern "C" {

void* optdec_new() { return new Tb(); }

void optdec_free(void* h) { delete static_cast<Tb*>(h); }

int optdec_step(void* h, const OdIn* in, OdOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
