// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated head_replay_top builds (head_buf + head_replay): one call is
// one clock cycle. The inputs of the cycle are applied, the outputs are read before the
// rising edge (the values the edge samples: a handshake is valid && ready there), then the
// edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vhead_replay512.h"
#include "Vhead_replay64.h"
#include "splicenic_tb.h"

namespace {

constexpr uint64_t MAC_MASK = (uint64_t(1) << 48) - 1;

// repr(C) mirrors in src/replay.rs.
struct RpIn {
    uint64_t data;
    uint64_t dst_mac;
    uint64_t src_mac;
    uint32_t rst;
    uint32_t alloc_req;
    uint32_t free_en;
    uint32_t free_id;
    uint32_t valid;
    uint32_t buf;
    uint32_t off;
    uint32_t len;
    uint32_t last;
    uint32_t r_valid;
    uint32_t r_buf;
    uint32_t r_max_len;
    uint32_t src_ip;
    uint32_t dst_ip;
    uint32_t sport;
    uint32_t dport;
    uint32_t seq;
    uint32_t ack;
    uint32_t flags;
    uint32_t window;
    uint32_t ts;
    uint32_t tsval;
    uint32_t tsecr;
    uint32_t tready;
};

struct RpOut {
    uint8_t tdata[64];
    uint64_t tkeep;
    uint32_t alloc_valid;
    uint32_t alloc_ok;
    uint32_t alloc_id;
    uint32_t ready;
    uint32_t res_valid;
    uint32_t r_ready;
    uint32_t tvalid;
    uint32_t tlast;
    uint32_t rr_valid;
    uint32_t rr_long;
    uint32_t rr_len;
    uint32_t sent;
    uint32_t longs;
};

class RpBase {
public:
    virtual ~RpBase() = default;
    virtual void step(const RpIn& in, RpOut& out) = 0;
};

template <class M, size_t BYTES>
class Rp : public RpBase {
public:
    Rp() : t_("replay") {
        t_.m->clk = 0;
        t_.m->eval();
    }

    void step(const RpIn& in, RpOut& out) override {
        M* m = t_.m.get();
        m->rst = in.rst & 1;
        m->alloc_req = in.alloc_req & 1;
        m->free_en = in.free_en & 1;
        m->free_id = in.free_id;
        m->s_valid = in.valid & 1;
        m->s_buf = in.buf;
        m->s_off = in.off & 0xffff;
        m->s_len = in.len & 0xffff;
        m->s_data = in.data;
        m->s_last = in.last & 1;
        m->r_valid = in.r_valid & 1;
        m->r_buf = in.r_buf;
        m->r_max_len = in.r_max_len & 0xffff;
        m->r_dst_mac = in.dst_mac & MAC_MASK;
        m->r_src_mac = in.src_mac & MAC_MASK;
        m->r_src_ip = in.src_ip;
        m->r_dst_ip = in.dst_ip;
        m->r_sport = in.sport & 0xffff;
        m->r_dport = in.dport & 0xffff;
        m->r_seq = in.seq;
        m->r_ack = in.ack;
        m->r_flags = in.flags & 0xff;
        m->r_window = in.window & 0xffff;
        m->r_ts = in.ts & 1;
        m->r_tsval = in.tsval;
        m->r_tsecr = in.tsecr;
        m->m_axis_tready = in.tready & 1;
        m->clk = 0;
        m->eval();
        for (size_t i = 0; i < 64; ++i) {
            out.tdata[i] = i < BYTES ? tb_get_byte(m->m_axis_tdata, i) : 0;
        }
        out.tkeep = uint64_t(m->m_axis_tkeep);
        out.alloc_valid = m->alloc_valid;
        out.alloc_ok = m->alloc_ok;
        out.alloc_id = m->alloc_id;
        out.ready = m->s_ready;
        out.res_valid = m->res_valid;
        out.r_ready = m->r_ready;
        out.tvalid = m->m_axis_tvalid;
        out.tlast = m->m_axis_tlast;
        out.rr_valid = m->rr_valid;
        out.rr_long = m->rr_long;
        out.rr_len = m->rr_len;
        out.sent = m->stat_sent;
        out.longs = m->stat_long;
        m->clk = 1;
        m->eval();
    }

private:
    TbModel<M> t_;
};

}  // namespace

extern "C" {

void* replay_new(uint32_t variant) {
    switch (variant) {
        case 0:
            return static_cast<RpBase*>(new Rp<Vhead_replay64, 8>());
        case 1:
            return static_cast<RpBase*>(new Rp<Vhead_replay512, 64>());
        default:
            return nullptr;
    }
}

void replay_free(void* h) { delete static_cast<RpBase*>(h); }

int replay_step(void* h, const RpIn* in, RpOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<RpBase*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
