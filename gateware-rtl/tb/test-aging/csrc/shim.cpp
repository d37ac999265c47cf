// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated aging_check: one call is one clock cycle. The inputs of the
// cycle are applied, the outputs are read before the rising edge (the values the edge
// samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vaging_check.h"
#include "splicenic_tb.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct AcIn {
    uint32_t rst;
    uint32_t valid;
    uint32_t slot;
    uint32_t state;
    uint32_t flags;
    uint32_t teardown;
    uint32_t last_seen;
    uint32_t m_ready;
    uint32_t now;
    uint32_t wr_en;
    uint32_t wr_idx;
    uint32_t wr_ticks;
};

struct AcOut {
    uint32_t ready;
    uint32_t m_valid;
    uint32_t slot;
    uint32_t class_;
    uint32_t expired;
};

class Tb {
public:
    Tb() : t_("aging") {
        t_.m->clk = 0;
        t_.m->eval();
    }

    void step(const AcIn& in, AcOut& out) {
        Vaging_check* m = t_.m.get();
        m->rst = in.rst & 1;
        m->s_valid = in.valid & 1;
        m->s_slot = in.slot & 0xffff;
        m->s_state = in.state & 0xff;
        m->s_flags = in.flags & 0xff;
        m->s_teardown = in.teardown & 0xff;
        m->s_last_seen = in.last_seen;
        m->m_ready = in.m_ready & 1;
        m->cfg_now = in.now;
        m->cfg_to_wr_en = in.wr_en & 1;
        m->cfg_to_wr_idx = in.wr_idx & 0xf;
        m->cfg_to_wr_ticks = in.wr_ticks;
        m->clk = 0;
        m->eval();
        out.ready = m->s_ready;
        out.m_valid = m->m_valid;
        out.slot = m->m_slot;
        out.class_ = m->m_class;
        out.expired = m->m_expired;
        m->clk = 1;
        m->eval();
    }

private:
    TbModel<Vaging_check> t_;
};

}  // namespace

extern "C" {

void* aging_new() { return new Tb(); }

void aging_free(void* h) { delete static_cast<Tb*>(h); }

int aging_step(void* h, const AcIn* in, AcOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
