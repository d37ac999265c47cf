// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated splice_rewriter (DATA_WIDTH 64 and 512) and the
// splice_csum_update unit. Frames are queued here, clocked through the model in C++ for
// many cycles per call, and collected with per-frame timing. A cycle limit turns a stall
// into an error code.

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "splicenic_tb.h"

#include "Vsplice_rw64.h"
#include "Vsplice_rw512.h"
#include "Vsplice_csum.h"

namespace {

enum : int { RW_OK = 0, RW_TIMEOUT = -1, RW_EMPTY = -2, RW_BAD_ARG = -3, RW_SMALL_BUF = -4 };

struct RwDesc {
    uint8_t flags;
    uint8_t l3_offset;
    uint8_t ihl;
    uint8_t doff;
    uint8_t eth_dst[6];
    uint8_t eth_src[6];
    uint32_t ip_src;
    uint32_t ip_dst;
    uint16_t sport;
    uint16_t dport;
    uint32_t seq_delta;
    uint32_t ack_delta;
    uint32_t tsval_delta;
    uint32_t tsecr_delta;
    int8_t wscale_shift;
};

struct RwFrameInfo {
    uint64_t in_cycle;   // cycle of the first beat's s_axis handshake
    uint64_t out_cycle;  // cycle of the first beat's m_axis handshake
    uint64_t beats;
};

struct RwStats {
    uint64_t cycles;
    uint64_t in_beats;
    uint64_t out_beats;
    uint64_t first_out_cycle;
    uint64_t last_out_cycle;
    uint64_t first_in_cycle;
    uint64_t last_in_cycle;
    uint32_t stat_frames;
    uint32_t stat_bypass;
    uint32_t stat_opt_err;
    uint32_t cfg_latency;
};

struct InFrame {
    std::vector<uint8_t> data;
    RwDesc desc;
};

struct OutFrame {
    std::vector<uint8_t> data;
    RwFrameInfo info;
};

uint64_t mac48(const uint8_t* m) {
    uint64_t v = 0;
    for (int i = 0; i < 6; i++) v = (v << 8) | m[i];
    return v;
}

class Rw {
public:
    virtual ~Rw() = default;
    virtual int run(uint64_t max_cycles) = 0;
    std::deque<InFrame> in;
    std::deque<OutFrame> out;
    RwStats st{};
    uint32_t gap_permille = 0;
    uint32_t stall_permille = 0;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    bool chance(uint32_t permille) {
        if (permille == 0) return false;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return (rng % 1000) < permille;
    }
};

template <class M, size_t KEEP>
class RwImpl final : public Rw {
public:
    RwImpl() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new M(ctx_.get(), "rw"));
        m_->clk = 0;
        m_->rst = 1;
        m_->s_axis_tvalid = 0;
        m_->desc_valid = 0;
        m_->m_axis_tready = 1;
        for (int i = 0; i < 4; i++) tick();
        m_->rst = 0;
        st.first_out_cycle = UINT64_MAX;
        st.first_in_cycle = UINT64_MAX;
    }
    ~RwImpl() override { m_->final(); }

    int run(uint64_t max_cycles) override {
        uint64_t limit = st.cycles + max_cycles;
        while (!in.empty() || holding_ || pending_out_ > 0) {
            if (st.cycles >= limit) return RW_TIMEOUT;
            step();
        }
        // let the output drain completely (tail of the last frame)
        return RW_OK;
    }

private:
    void tick() {
        m_->clk = 0;
        m_->eval();
        m_->clk = 1;
        m_->eval();
    }

    void drive_inputs() {
        if (!holding_ && !in.empty() && !chance(gap_permille)) holding_ = true;
        if (holding_) {
            const InFrame& f = in.front();
            size_t n = f.data.size() - off_;
            if (n > KEEP) n = KEEP;
            tb_set_bytes(m_->s_axis_tdata, f.data.data() + off_, n);
            m_->s_axis_tkeep = tb_keep_mask(n);
            m_->s_axis_tlast = (off_ + n == f.data.size());
            m_->s_axis_tuser = 0;
            m_->s_axis_tvalid = 1;
            bool first = off_ == 0;
            m_->desc_valid = first;
            const RwDesc& d = f.desc;
            m_->desc_flags = d.flags;
            m_->desc_l3_offset = d.l3_offset;
            m_->desc_ihl = d.ihl;
            m_->desc_doff = d.doff;
            m_->desc_eth_dst = mac48(d.eth_dst);
            m_->desc_eth_src = mac48(d.eth_src);
            m_->desc_ip_src = d.ip_src;
            m_->desc_ip_dst = d.ip_dst;
            m_->desc_tcp_sport = d.sport;
            m_->desc_tcp_dport = d.dport;
            m_->desc_seq_delta = d.seq_delta;
            m_->desc_ack_delta = d.ack_delta;
            m_->desc_tsval_delta = d.tsval_delta;
            m_->desc_tsecr_delta = d.tsecr_delta;
            m_->desc_wscale_shift = uint8_t(d.wscale_shift) & 0x1f;
        } else {
            m_->s_axis_tvalid = 0;
            m_->desc_valid = 0;
        }
    }

    void step() {
        m_->clk = 0;
        drive_inputs();
        m_->m_axis_tready = !chance(stall_permille);
        m_->eval();
        bool s_hs = m_->s_axis_tvalid && m_->s_axis_tready;
        bool m_hs = m_->m_axis_tvalid && m_->m_axis_tready;
        if (m_hs) {
            if (cur_.data.empty() && !cur_started_) {
                cur_.info.out_cycle = st.cycles;
                cur_started_ = true;
            }
            uint64_t keep = uint64_t(m_->m_axis_tkeep);
            for (size_t i = 0; i < KEEP; i++)
                if ((keep >> i) & 1) cur_.data.push_back(tb_get_byte(m_->m_axis_tdata, i));
            cur_.info.beats++;
            st.out_beats++;
            if (st.first_out_cycle == UINT64_MAX) st.first_out_cycle = st.cycles;
            st.last_out_cycle = st.cycles;
            if (m_->m_axis_tlast) {
                if (!in_cycles_.empty()) {
                    cur_.info.in_cycle = in_cycles_.front();
                    in_cycles_.pop_front();
                }
                out.push_back(std::move(cur_));
                cur_ = OutFrame{};
                cur_started_ = false;
                pending_out_--;
            }
        }
        m_->clk = 1;
        m_->eval();
        if (s_hs) {
            if (off_ == 0) {
                in_cycles_.push_back(st.cycles);
                pending_out_++;
            }
            st.in_beats++;
            if (st.first_in_cycle == UINT64_MAX) st.first_in_cycle = st.cycles;
            st.last_in_cycle = st.cycles;
            size_t n = in.front().data.size() - off_;
            off_ += n > KEEP ? KEEP : n;
            if (off_ >= in.front().data.size()) {
                in.pop_front();
                off_ = 0;
            }
            holding_ = false;
        }
        st.cycles++;
        st.stat_frames = m_->stat_frames;
        st.stat_bypass = m_->stat_bypass;
        st.stat_opt_err = m_->stat_opt_err;
        st.cfg_latency = m_->cfg_latency;
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<M> m_;
    bool holding_ = false;
    size_t off_ = 0;
    int64_t pending_out_ = 0;
    std::deque<uint64_t> in_cycles_;
    OutFrame cur_{};
    bool cur_started_ = false;
};

}  // namespace

extern "C" {

void* rw_new(int width) {
    switch (width) {
    case 64: return static_cast<Rw*>(new RwImpl<Vsplice_rw64, 8>());
    case 512: return static_cast<Rw*>(new RwImpl<Vsplice_rw512, 64>());
    default: return nullptr;
    }
}

void rw_free(void* h) { delete static_cast<Rw*>(h); }

int rw_push(void* h, const uint8_t* data, size_t len, const RwDesc* d) {
    if (!h || !data || !d || len == 0) return RW_BAD_ARG;
    InFrame f;
    f.data.assign(data, data + len);
    f.desc = *d;
    static_cast<Rw*>(h)->in.push_back(std::move(f));
    return RW_OK;
}

void rw_config(void* h, uint32_t gap_permille, uint32_t stall_permille, uint64_t seed) {
    Rw* r = static_cast<Rw*>(h);
    r->gap_permille = gap_permille > 1000 ? 1000 : gap_permille;
    r->stall_permille = stall_permille > 1000 ? 1000 : stall_permille;
    r->rng = seed | 1;
}

int rw_run(void* h, uint64_t max_cycles) {
    if (!h) return RW_BAD_ARG;
    return static_cast<Rw*>(h)->run(max_cycles);
}

size_t rw_out_len(void* h) {
    Rw* r = static_cast<Rw*>(h);
    return r->out.empty() ? 0 : r->out.front().data.size();
}

int rw_pop(void* h, uint8_t* buf, size_t cap, size_t* len, RwFrameInfo* info) {
    Rw* r = static_cast<Rw*>(h);
    if (!r || !len || !info) return RW_BAD_ARG;
    if (r->out.empty()) return RW_EMPTY;
    OutFrame& f = r->out.front();
    if (f.data.size() > cap) return RW_SMALL_BUF;
    if (!f.data.empty()) std::memcpy(buf, f.data.data(), f.data.size());
    *len = f.data.size();
    *info = f.info;
    r->out.pop_front();
    return RW_OK;
}

void rw_stats(void* h, RwStats* out) {
    if (h && out) *out = static_cast<Rw*>(h)->st;
}

// splice_csum_update with WORDS = 4, evaluated combinationally
void* csum_new() {
    auto* ctx = new VerilatedContext;
    ctx->debug(0);
    return new Vsplice_csum(ctx, "csum");
}

void csum_free(void* h) {
    auto* m = static_cast<Vsplice_csum*>(h);
    VerilatedContext* ctx = m->contextp();
    delete m;
    delete ctx;
}

uint16_t csum_update4(void* h, uint16_t hc, const uint16_t* old_words, const uint16_t* new_words) {
    auto* m = static_cast<Vsplice_csum*>(h);
    uint64_t o = 0, n = 0;
    for (int i = 0; i < 4; i++) {
        o |= uint64_t(old_words[i]) << (16 * i);
        n |= uint64_t(new_words[i]) << (16 * i);
    }
    m->csum_in = hc;
    m->old_words = o;
    m->new_words = n;
    m->eval();
    return m->csum_out;
}

}  // extern "C"
