// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated flow_table and flow_state_mem models. Each call runs a
// whole batch (many lookups, commands, updates) cycle by cycle in C++; a cycle limit turns
// a stall into an error code, never a hang. Entry and key sizes and the FlowOp codes come
// from the generated C view of the shared records (splicenic_records.h).

#include <cstdint>
#include <cstring>
#include <memory>

#include "splicenic_records.h"
#include "splicenic_tb.h"
#include "verilated.h"

#include "Vfs_big.h"
#include "Vfs_small.h"
#include "Vft_big.h"
#include "Vft_small.h"

namespace {

enum : int { TB_OK = 0, TB_TIMEOUT = -1, TB_BAD_ARG = -3 };
constexpr int kResetCycles = 4;

// ---------------------------------------------------------------------------------------
// flow_table

struct FtRsp {
    uint32_t status;
    uint32_t value;
    uint32_t dir;
    uint32_t bucket;
    uint32_t way;
    uint32_t cycles;  // accept to response
};

struct FtCmd {
    uint32_t op;
    uint32_t key[SPLICENIC_FLOW_KEY_WORDS];
    uint32_t value;
    uint32_t dir;
};

struct FtRes {
    uint32_t hit;
    uint32_t value;
    uint32_t dir;
    uint32_t bucket;
    uint32_t latency;  // cycles from accept to result
    uint32_t ver_lo;   // commands completed when the lookup was accepted
    uint32_t ver_hi;   // commands completed when its result came out
};

struct FtRun {
    uint64_t cycles;          // cycles of the whole call
    uint64_t accept_span;     // cycles from first to last lookup accept, inclusive
    uint64_t accepted;        // lookups accepted
    uint64_t stall_cycles;    // cycles with a lookup offered but not accepted
};

class Ft {
public:
    virtual ~Ft() = default;
    virtual int run(const uint32_t* keys, size_t n, const FtCmd* cmds, size_t ncmds,
                    FtRes* res, FtRsp* rsp, uint32_t bp_seed, FtRun* out) = 0;
    virtual void stats(uint32_t* out) = 0;
    virtual uint32_t buckets() const = 0;
};

template <class M>
class FtImpl final : public Ft {
public:
    FtImpl(uint32_t buckets) : tb_("ft"), buckets_(buckets) {
        M& m = *tb_.m;
        m.clk = 0;
        m.rst = 1;
        m.s_lookup_valid = 0;
        m.m_lookup_ready = 1;
        m.cmd_valid = 0;
        m.eval();
        for (int i = 0; i < kResetCycles; i++) cycle();
        m.rst = 0;
        m.eval();
        // Init sweep: BUCKETS cycles.
        for (uint64_t i = 0; i < 4ull * buckets_ + 16 && !m.init_done; i++) cycle();
    }

    uint32_t buckets() const override { return buckets_; }

    void stats(uint32_t* out) override {
        M& m = *tb_.m;
        out[0] = m.stat_entries;
        out[1] = m.stat_inserts;
        out[2] = m.stat_deletes;
        out[3] = m.stat_exists;
        out[4] = m.stat_bucket_full;
        out[5] = m.stat_not_found;
        out[6] = m.init_done;
    }

    int run(const uint32_t* keys, size_t n, const FtCmd* cmds, size_t ncmds, FtRes* res,
            FtRsp* rsp, uint32_t bp_seed, FtRun* out) override {
        M& m = *tb_.m;
        const uint64_t limit = 1000 + 8ull * n + ncmds * (uint64_t(buckets_) + 32);
        size_t issued = 0, results = 0, cmd_issued = 0, cmd_done = 0;
        uint64_t first_accept = 0, last_accept = 0, stalls = 0;
        uint64_t cmd_accept_cycle = 0;
        uint32_t lcg = bp_seed;
        std::unique_ptr<uint64_t[]> accept_cycle(new uint64_t[n ? n : 1]);
        uint64_t c = 0;
        for (; c < limit; c++) {
            if (issued == n && results == n && cmd_done == ncmds) break;
            // Drive.
            m.s_lookup_valid = issued < n;
            if (issued < n) {
                for (int w = 0; w < SPLICENIC_FLOW_KEY_WORDS; w++)
                    m.s_lookup_key.at(w) = keys[SPLICENIC_FLOW_KEY_WORDS * issued + w];
            }
            if (bp_seed) {
                lcg = lcg * 1664525u + 1013904223u;
                m.m_lookup_ready = ((lcg >> 16) & 3) != 0;
            } else {
                m.m_lookup_ready = 1;
            }
            m.cmd_valid = cmd_issued < ncmds && cmd_issued == cmd_done;
            if (m.cmd_valid) {
                const FtCmd& k = cmds[cmd_issued];
                m.cmd_op = k.op & 3;
                for (int w = 0; w < SPLICENIC_FLOW_KEY_WORDS; w++) m.cmd_key.at(w) = k.key[w];
                m.cmd_value = k.value;
                m.cmd_dir = k.dir & 1;
            }
            m.eval();
            // Observe (before the edge).
            if (m.rsp_valid) {
                if (cmd_done < cmd_issued) {
                    FtRsp& r = rsp[cmd_done];
                    r.status = m.rsp_status;
                    r.value = m.rsp_value;
                    r.dir = m.rsp_dir;
                    r.bucket = m.rsp_bucket;
                    r.way = m.rsp_way;
                    r.cycles = uint32_t(c - cmd_accept_cycle);
                    cmd_done++;
                }
            }
            if (m.m_lookup_valid && m.m_lookup_ready) {
                if (results >= issued) return TB_BAD_ARG;  // a result nobody asked for
                FtRes& r = res[results];
                r.hit = m.m_lookup_hit;
                r.value = m.m_lookup_value;
                r.dir = m.m_lookup_dir;
                r.bucket = m.m_lookup_bucket;
                r.latency = uint32_t(c - accept_cycle[results]);
                r.ver_hi = uint32_t(cmd_done);
                results++;
            }
            if (m.s_lookup_valid && m.s_lookup_ready) {
                if (issued == 0) first_accept = c;
                last_accept = c;
                accept_cycle[issued] = c;
                res[issued].ver_lo = uint32_t(cmd_done);
                issued++;
            } else if (m.s_lookup_valid) {
                stalls++;
            }
            if (m.cmd_valid && m.cmd_ready) {
                cmd_accept_cycle = c;
                cmd_issued++;
            }
            cycle();
        }
        m.s_lookup_valid = 0;
        m.cmd_valid = 0;
        m.m_lookup_ready = 1;
        m.eval();
        if (out) {
            out->cycles = c;
            out->accept_span = n ? last_accept - first_accept + 1 : 0;
            out->accepted = issued;
            out->stall_cycles = stalls;
        }
        if (issued != n || results != n || cmd_done != ncmds) return TB_TIMEOUT;
        return TB_OK;
    }

private:
    void cycle() { tb_.cycle(); }
    TbModel<M> tb_;
    uint32_t buckets_;
};

// ---------------------------------------------------------------------------------------
// flow_state_mem

constexpr int kStaticWords = SPLICENIC_FLOW_STATIC_WORDS;  // record FlowStatic
constexpr int kDynWords = SPLICENIC_FLOW_DYN_WORDS;        // record FlowDyn

struct FsUpd {
    uint32_t slot;
    uint32_t dir;
    uint32_t bytes;
    uint32_t time;
    uint32_t fin;
    uint32_t fin_end;
    uint32_t ack;
    uint32_t ack_x;
};

struct FsCmd {
    uint32_t op;
    uint32_t slot;
    uint32_t at_update;  // offered once this many updates were accepted
    uint32_t wstatic[kStaticWords];
    uint32_t wdyn[kDynWords];
};

struct FsCmdRes {
    uint32_t updates_before;  // updates accepted before the command was accepted
    uint32_t writes_before;   // static writes accepted before (this one excluded)
    uint32_t cycles;          // accept to response
    uint32_t rstatic[kStaticWords];
    uint32_t rdyn[kDynWords];
};

struct FsRd {
    uint32_t slot;
    uint32_t writes_seen;  // static writes accepted up to and including the read cycle
    uint32_t latency;
    uint32_t data[kStaticWords];
};

struct FsRun {
    uint64_t cycles;
    uint64_t upd_span;  // cycles from first to last update accept, inclusive
    uint64_t upd_stalls;
};

class Fs {
public:
    virtual ~Fs() = default;
    virtual int run(const FsUpd* upd, size_t nupd, const uint32_t* rd_slots, size_t nrd,
                    const FsCmd* cmds, size_t ncmds, FsRd* rd, FsCmdRes* res, FsRun* out) = 0;
};

template <class M>
class FsImpl final : public Fs {
public:
    FsImpl() : tb_("fs") {
        M& m = *tb_.m;
        m.clk = 0;
        m.rst = 1;
        m.rd_valid = 0;
        m.upd_valid = 0;
        m.cmd_valid = 0;
        m.eval();
        for (int i = 0; i < kResetCycles; i++) cycle();
        m.rst = 0;
        m.eval();
    }

    int run(const FsUpd* upd, size_t nupd, const uint32_t* rd_slots, size_t nrd,
            const FsCmd* cmds, size_t ncmds, FsRd* rd, FsCmdRes* res, FsRun* out) override {
        M& m = *tb_.m;
        const uint64_t limit = 1000 + 4ull * (nupd + nrd) + 8ull * ncmds;
        size_t ui = 0, ri = 0, rdone = 0, ci = 0, cdone = 0;
        uint32_t writes = 0;
        uint64_t first_upd = 0, last_upd = 0, stalls = 0, cmd_accept_cycle = 0;
        uint64_t rd_cycle = 0;
        bool rd_pending = false;
        uint64_t c = 0;
        for (; c < limit; c++) {
            if (ui == nupd && rdone == nrd && cdone == ncmds) break;
            m.upd_valid = ui < nupd;
            if (ui < nupd) {
                m.upd_slot = upd[ui].slot;
                m.upd_dir = upd[ui].dir & 1;
                m.upd_bytes = upd[ui].bytes;
                m.upd_time = upd[ui].time;
                m.upd_fin = upd[ui].fin & 1;
                m.upd_fin_end = upd[ui].fin_end;
                m.upd_ack = upd[ui].ack & 1;
                m.upd_ack_x = upd[ui].ack_x;
            }
            m.rd_valid = ri < nrd;
            if (ri < nrd) m.rd_slot = rd_slots[ri];
            m.cmd_valid = ci < ncmds && ci == cdone && ui >= cmds[ci].at_update;
            if (m.cmd_valid) {
                const FsCmd& k = cmds[ci];
                m.cmd_op = k.op & ((1u << SPLICENIC_FLOW_OP_WIDTH) - 1);
                m.cmd_slot = k.slot;
                for (int w = 0; w < kStaticWords; w++) m.cmd_wdata_static.at(w) = k.wstatic[w];
                for (int w = 0; w < kDynWords; w++) m.cmd_wdata_dyn.at(w) = k.wdyn[w];
            }
            m.eval();
            // Observe before the edge.
            if (m.rsp_valid && cdone < ci) {
                FsCmdRes& r = res[cdone];
                for (int w = 0; w < kStaticWords; w++) r.rstatic[w] = m.rsp_rdata_static.at(w);
                for (int w = 0; w < kDynWords; w++) r.rdyn[w] = m.rsp_rdata_dyn.at(w);
                r.cycles = uint32_t(c - cmd_accept_cycle);
                cdone++;
            }
            if (rd_pending) {
                if (!m.rd_resp_valid) return TB_BAD_ARG;  // fixed latency broken
                FsRd& r = rd[rdone];
                for (int w = 0; w < kStaticWords; w++) r.data[w] = m.rd_resp_data.at(w);
                r.latency = uint32_t(c - rd_cycle);
                rdone++;
                rd_pending = false;
            }
            bool cmd_fire = m.cmd_valid && m.cmd_ready;
            bool cmd_write = cmd_fire && (m.cmd_op == SPLICENIC_FLOW_OP_WRITE ||
                                          m.cmd_op == SPLICENIC_FLOW_OP_WRITE_STATIC);
            if (cmd_fire) {
                res[ci].updates_before = uint32_t(ui);
                res[ci].writes_before = writes;
                cmd_accept_cycle = c;
                ci++;
            }
            if (cmd_write) writes++;
            if (m.rd_valid) {
                rd[ri].slot = rd_slots[ri];
                rd[ri].writes_seen = writes;
                rd_cycle = c;
                rd_pending = true;
                ri++;
            }
            if (m.upd_valid && m.upd_ready) {
                if (ui == 0) first_upd = c;
                last_upd = c;
                ui++;
            } else if (m.upd_valid) {
                stalls++;
            }
            cycle();
        }
        m.upd_valid = 0;
        m.rd_valid = 0;
        m.cmd_valid = 0;
        m.eval();
        if (out) {
            out->cycles = c;
            out->upd_span = nupd ? last_upd - first_upd + 1 : 0;
            out->upd_stalls = stalls;
        }
        if (ui != nupd || rdone != nrd || cdone != ncmds) return TB_TIMEOUT;
        return TB_OK;
    }

private:
    void cycle() { tb_.cycle(); }
    TbModel<M> tb_;
};

}  // namespace

extern "C" {

void* tb_ft_new(int big) {
    if (big) return static_cast<Ft*>(new FtImpl<Vft_big>(16384));
    return static_cast<Ft*>(new FtImpl<Vft_small>(256));
}

void tb_ft_free(void* h) { delete static_cast<Ft*>(h); }

uint32_t tb_ft_buckets(const void* h) { return static_cast<const Ft*>(h)->buckets(); }

void tb_ft_stats(void* h, uint32_t* out7) { static_cast<Ft*>(h)->stats(out7); }

int tb_ft_run(void* h, const uint32_t* keys, size_t n, const FtCmd* cmds, size_t ncmds,
              FtRes* res, FtRsp* rsp, uint32_t bp_seed, FtRun* out) {
    if (!h || (n && (!keys || !res)) || (ncmds && (!cmds || !rsp))) return TB_BAD_ARG;
    return static_cast<Ft*>(h)->run(keys, n, cmds, ncmds, res, rsp, bp_seed, out);
}

void* tb_fs_new(int big) {
    if (big) return static_cast<Fs*>(new FsImpl<Vfs_big>());
    return static_cast<Fs*>(new FsImpl<Vfs_small>());
}

void tb_fs_free(void* h) { delete static_cast<Fs*>(h); }

int tb_fs_run(void* h, const FsUpd* upd, size_t nupd, const uint32_t* rd_slots, size_t nrd,
              const FsCmd* cmds, size_t ncmds, FsRd* rd, FsCmdRes* res, FsRun* out) {
    if (!h || (nupd && !upd) || (nrd && (!rd_slots || !rd)) || (ncmds && (!cmds || !res)))
        return TB_BAD_ARG;
    return static_cast<Fs*>(h)->run(upd, nupd, rd_slots, nrd, cmds, ncmds, rd, res, out);
}

}  // extern "C"
