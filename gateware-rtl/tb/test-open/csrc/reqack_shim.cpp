// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated req_ack: one call is one clock cycle. The inputs of the cycle
// are applied, the outputs are read before the rising edge (the values the edge samples: a
// handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vreq_ack.h"
#include "splicenic_tb.h"

namespace {

// repr(C) mirrors in src/reqack.rs.
struct RqIn {
    uint32_t rst;
    uint32_t valid;
    uint32_t tag;
    uint32_t client_isn;
    uint32_t req_len;
    uint32_t client_fin;
    uint32_t shift;
    uint32_t seq;
    uint32_t plen;
    uint32_t fin;
    uint32_t m_ready;
};

struct RqOut {
    uint32_t ready;
    uint32_t m_valid;
    uint32_t tag;
    uint32_t verdict;
    uint32_t skip;
    uint32_t take;
    uint32_t req_len;
    uint32_t client_fin;
    uint32_t ack;
    uint32_t window;
};

class Tb {
public:
    Tb() : t_("req_ack") {
        t_.m->clk = 0;
        t_.m->eval();
    }

    void step(const RqIn& in, RqOut& out) {
        Vreq_ack* m = t_.m.get();
        m->rst = in.rst & 1;
        m->s_valid = in.valid & 1;
        m->s_tag = in.tag & 0xffff;
        m->s_client_isn = in.client_isn;
        m->s_req_len = in.req_len & 0x7ff;
        m->s_client_fin = in.client_fin & 1;
        m->s_shift = in.shift & 0xf;
        m->s_seq = in.seq;
        m->s_plen = in.plen & 0xffff;
        m->s_fin = in.fin & 1;
        m->m_ready = in.m_ready & 1;
        m->clk = 0;
        m->eval();
        out.ready = m->s_ready;
        out.m_valid = m->m_valid;
        out.tag = m->m_tag;
        out.verdict = m->m_verdict;
        out.skip = m->m_skip;
        out.take = m->m_take;
        out.req_len = m->m_req_len;
        out.client_fin = m->m_client_fin;
        out.ack = m->m_ack;
        out.window = m->m_window;
        m->clk = 1;
        m->eval();
    }

private:
    TbModel<Vreq_ack> t_;
};

}  // namespace

extern "C" {

void* reqack_new() { return new Tb(); }

void reqack_free(void* h) { delete static_cast<Tb*>(h); }

int reqack_step(void* h, const RqIn* in, RqOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
