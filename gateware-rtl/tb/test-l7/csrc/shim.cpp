// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated l7_matcher (DATA_WIDTH 64 and 512). The clock, the request
// stream, the rule writes and the result collection all run here, many cycles per call.
// Every wait has a cycle limit: a stall comes back as an error code, never a hang. Rule word
// codes come from the generated C view of the shared records (splicenic_records.h).

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "splicenic_records.h"
#include "verilated.h"

#include "Vl7_w512.h"
#include "Vl7_w64.h"

namespace {

enum : int { L7_OK = 0, L7_TIMEOUT = -1, L7_BAD_ARG = -2, L7_PROTOCOL = -3 };

constexpr uint64_t kWriteTimeout = 100000;

// The result record handed back to Rust (repr(C) mirror in src/lib.rs).
struct L7Result {
    uint32_t tag;
    uint32_t rule_id;
    uint32_t pool;
    uint32_t flags;
    uint32_t method;
    uint32_t bank;        // bank the RTL says it used
    uint32_t start_bank;  // active bank when the request's first beat was accepted
    uint32_t latency;     // cycles from the tlast beat to the result handshake
    uint32_t start_dflt;  // default pool of the start bank when the first beat was accepted
    uint32_t max_holdoff; // longest cfg write hold-off seen in the run (same in every record)
};

struct L7RunOpts {
    uint32_t valid_gap_pct;  // chance (%) of a cycle without tvalid
    uint32_t ready_gap_pct;  // chance (%) of a cycle without m_res_ready
    uint32_t switch_per_mille;  // chance (1/1000) of a bank switch pulse per cycle
    uint32_t seed;
    uint32_t dflt_after_switch;  // after each switch, write a new default pool (0x8000 + n)
                                 // into the now-inactive bank, through cfg_wr_valid/ready
    uint64_t max_cycles;
};

struct Rng {
    uint64_t s;
    uint32_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return static_cast<uint32_t>(s >> 16);
    }
};

template <class T>
void set_bytes(T& port, const uint8_t* b, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(b[i]) << (8 * i);
    port = static_cast<T>(v);
}

template <std::size_t W>
void set_bytes(VlWide<W>& port, const uint8_t* b, int n) {
    for (std::size_t w = 0; w < W; ++w) port[w] = 0;
    for (int i = 0; i < n; ++i) port[i / 4] |= static_cast<uint32_t>(b[i]) << (8 * (i % 4));
}

template <class T>
void set_keep(T& port, int n) {
    port = static_cast<T>(n >= 64 ? ~0ULL : ((1ULL << n) - 1));
}

class Tb {
public:
    virtual ~Tb() = default;
    virtual int write(uint32_t rule, uint32_t word, uint32_t data) = 0;
    virtual void bank_switch() = 0;
    virtual uint32_t active_bank() = 0;
    virtual int run(const uint8_t* buf, const uint32_t* lens, uint32_t n, const L7RunOpts* o,
                    L7Result* out, uint64_t* cycles) = 0;
};

template <class M, int BYTES>
class TbImpl final : public Tb {
public:
    TbImpl() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new M(ctx_.get(), "l7"));
        idle_inputs();
        m_->rst = 1;
        for (int i = 0; i < 4; ++i) tick();
        m_->rst = 0;
        tick();
    }
    ~TbImpl() override { m_->final(); }

    int write(uint32_t rule, uint32_t word, uint32_t data) override {
        m_->cfg_wr_valid = 1;
        m_->cfg_wr_rule = rule;
        m_->cfg_wr_word = word;
        m_->cfg_wr_data = data;
        for (uint64_t c = 0; c < kWriteTimeout; ++c) {
            m_->clk = 0;
            m_->eval();
            bool fire = m_->cfg_wr_ready;
            edge();
            if (fire) {
                if (word == SPLICENIC_RULE_WORD_INDEX_DEFAULT_POOL) dflt_[m_->status_active_bank ^ 1] = data & 0xffff;
                m_->cfg_wr_valid = 0;
                return L7_OK;
            }
        }
        m_->cfg_wr_valid = 0;
        return L7_TIMEOUT;
    }

    void bank_switch() override {
        m_->cmd_bank_switch = 1;
        tick();
        m_->cmd_bank_switch = 0;
    }

    uint32_t active_bank() override {
        m_->clk = 0;
        m_->eval();
        return m_->status_active_bank;
    }

    int run(const uint8_t* buf, const uint32_t* lens, uint32_t n, const L7RunOpts* o,
            L7Result* out, uint64_t* cycles) override {
        Rng rng{0x9e3779b97f4a7c15ULL ^ (static_cast<uint64_t>(o->seed) << 1) ^ 1};
        std::vector<uint64_t> offs(n + 1, 0);
        for (uint32_t i = 0; i < n; ++i) offs[i + 1] = offs[i] + lens[i];
        std::vector<uint32_t> start_bank(n, 0);
        std::vector<uint64_t> tlast_cycle(n, 0);
        uint32_t req = 0;        // request being fed
        uint64_t pos = 0;        // byte position within it
        uint32_t got = 0;        // results collected
        uint64_t cyc = 0;
        std::vector<uint32_t> start_dflt(n, 0);
        bool pending = false;
        uint32_t wcount = 0;
        uint64_t wstart = 0, max_hold = 0;
        while (got < n) {
            if (cyc >= o->max_cycles) {
                idle_inputs();
                *cycles = cyc;
                return L7_TIMEOUT;
            }
            // drive inputs for this cycle
            bool drive = req < n && (rng.next() % 100) >= o->valid_gap_pct;
            int nb = 0;
            if (drive) {
                uint64_t left = lens[req] - pos;
                nb = static_cast<int>(left < BYTES ? left : BYTES);
                set_bytes(m_->s_axis_tdata, buf + offs[req] + pos, nb);
                set_keep(m_->s_axis_tkeep, nb);
                m_->s_axis_tlast = (pos + nb == lens[req]);
                m_->s_axis_tuser = req & 0xffff;
            }
            m_->s_axis_tvalid = drive;
            m_->m_res_ready = (rng.next() % 100) >= o->ready_gap_pct;
            bool sw = (rng.next() % 1000) < o->switch_per_mille;
            m_->cmd_bank_switch = sw && !pending;
            m_->cfg_wr_valid = pending;
            m_->cfg_wr_word = SPLICENIC_RULE_WORD_INDEX_DEFAULT_POOL;
            m_->cfg_wr_rule = 0;
            m_->cfg_wr_data = 0x8000 + wcount;
            m_->clk = 0;
            m_->eval();
            if (pending && m_->cfg_wr_ready) {
                dflt_[m_->status_active_bank ^ 1] = 0x8000 + wcount;
                ++wcount;
                pending = false;
                if (cyc - wstart > max_hold) max_hold = cyc - wstart;
            }
            if (m_->cmd_bank_switch) {
                if (o->dflt_after_switch) {
                    pending = true;
                    wstart = cyc + 1;
                }
            }
            // sample handshakes before the edge
            if (drive && m_->s_axis_tready) {
                if (pos == 0) {
                    start_bank[req] = m_->status_active_bank;
                    start_dflt[req] = dflt_[m_->status_active_bank];
                }
                pos += nb;
                if (pos == lens[req]) {
                    tlast_cycle[req] = cyc;
                    ++req;
                    pos = 0;
                }
            }
            if (m_->m_res_valid && m_->m_res_ready) {
                if (got >= req) {
                    idle_inputs();
                    *cycles = cyc;
                    return L7_PROTOCOL;  // a result for a request not yet fed
                }
                L7Result& r = out[got];
                r.tag = m_->m_res_tag;
                r.rule_id = m_->m_res_rule_id;
                r.pool = m_->m_res_pool;
                r.flags = m_->m_res_flags;
                r.method = m_->m_res_method;
                r.bank = m_->m_res_bank;
                r.start_bank = start_bank[got];
                r.latency = static_cast<uint32_t>(cyc - tlast_cycle[got]);
                r.start_dflt = start_dflt[got];
                ++got;
            }
            edge();
            ++cyc;
        }
        for (uint32_t i = 0; i < n; ++i) out[i].max_holdoff = static_cast<uint32_t>(max_hold);
        idle_inputs();
        tick();
        *cycles = cyc;
        return static_cast<int>(got);
    }

private:
    void idle_inputs() {
        m_->s_axis_tvalid = 0;
        m_->s_axis_tlast = 0;
        m_->cfg_wr_valid = 0;
        m_->cmd_bank_switch = 0;
        m_->m_res_ready = 1;
    }
    void edge() {
        m_->clk = 1;
        m_->eval();
        m_->clk = 0;
        m_->eval();
    }
    void tick() {
        m_->clk = 0;
        m_->eval();
        edge();
    }

    uint32_t dflt_[2] = {0, 0};  // default pools as written through this shim
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<M> m_;
};

}  // namespace

extern "C" {

void* l7_new(uint32_t width) {
    switch (width) {
        case 64:
            return static_cast<Tb*>(new TbImpl<Vl7_w64, 8>());
        case 512:
            return static_cast<Tb*>(new TbImpl<Vl7_w512, 64>());
        default:
            return nullptr;
    }
}

void l7_free(void* h) { delete static_cast<Tb*>(h); }

int l7_write(void* h, uint32_t rule, uint32_t word, uint32_t data) {
    if (!h) return L7_BAD_ARG;
    return static_cast<Tb*>(h)->write(rule, word, data);
}

int l7_switch(void* h) {
    if (!h) return L7_BAD_ARG;
    static_cast<Tb*>(h)->bank_switch();
    return L7_OK;
}

int l7_active_bank(void* h) {
    if (!h) return L7_BAD_ARG;
    return static_cast<int>(static_cast<Tb*>(h)->active_bank());
}

int l7_run(void* h, const uint8_t* buf, const uint32_t* lens, uint32_t n, const L7RunOpts* o,
           L7Result* out, uint64_t* cycles) {
    if (!h || (n && (!buf || !lens || !out)) || !o || !cycles) return L7_BAD_ARG;
    for (uint32_t i = 0; i < n; ++i) {
        if (lens[i] == 0) return L7_BAD_ARG;  // an AXI-Stream packet has at least one byte
    }
    return static_cast<Tb*>(h)->run(buf, lens, n, o, out, cycles);
}

}  // extern "C"
