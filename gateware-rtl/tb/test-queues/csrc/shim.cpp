// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated stats_counters, evt_queue, pkt_punt_buf and pkt_inject_buf
// models. Each call runs a whole batch cycle by cycle in C++; a cycle limit turns a stall
// into an error code, never a hang. The punt ring descriptor is read with the generated C view
// of the shared records (splicenic_records.h, from registers/records.toml).

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "splicenic_records.h"
#include "splicenic_tb.h"
#include "verilated.h"

#include "Vevtq.h"
#include "Vinj512.h"
#include "Vinj64.h"
#include "Vpunt512.h"
#include "Vpunt64.h"
#include "Vpunt64r.h"
#include "Vstats.h"

namespace {

enum : int { TB_OK = 0, TB_TIMEOUT = -1, TB_PROTOCOL = -2, TB_BAD_ARG = -3 };
constexpr int kResetCycles = 4;

uint32_t lcg_next(uint32_t& s) {
    s = s * 1664525u + 1013904223u;
    return s >> 8;
}

// Byte-level access to Verilator port types (byte 0 = bits 7:0).
template <class T>
void get_bytes(const T& d, uint8_t* b, size_t n) {
    uint64_t v = d;
    for (size_t i = 0; i < n && i < sizeof(T); i++) b[i] = uint8_t(v >> (8 * i));
}
template <std::size_t N>
void get_bytes(const VlWide<N>& d, uint8_t* b, size_t n) {
    for (size_t k = 0; k < n && k < 4 * N; k++) b[k] = uint8_t(d[k / 4] >> (8 * (k % 4)));
}
template <class T>
uint64_t get_u64(const T& d) {
    return uint64_t(d);
}
template <std::size_t N>
uint64_t get_u64(const VlWide<N>& d) {
    return uint64_t(d[0]) | (N > 1 ? uint64_t(d[1]) << 32 : 0);
}

template <class M>
void tick(M& m) {
    m.clk = 1;
    m.eval();
    m.clk = 0;
    m.eval();
}

// ---------------------------------------------------------------------------------------
// stats_counters (COUNTERS 256, INPUTS 4, INC_WIDTH 16)

struct StCycle {
    uint32_t inc_valid;  // bit k: input k
    uint32_t idx[4];
    uint32_t amt[4];
    uint32_t snapshot;
    uint32_t clear_on_snapshot;
    uint32_t rd_valid;
    uint32_t rd_idx;
    uint32_t clear_all;
};

struct StRead {
    uint64_t cycle;  // cycle the result was seen
    uint64_t value;
};

class Stats {
public:
    explicit Stats(uint64_t init) : tb_("st") {
        Vstats& m = *tb_.m;
        m.clk = 0;
        m.rst = 1;
        m.inc_valid = 0;
        m.snapshot = 0;
        m.clear_on_snapshot = 0;
        m.clear_all = 0;
        m.init_value = init;
        m.rd_valid = 0;
        m.eval();
        for (int i = 0; i < kResetCycles; i++) tick(m);
        m.rst = 0;
        m.eval();
        for (int i = 0; i < 2000 && !m.init_done; i++) tick(m);
    }
    bool ready() const { return tb_.m->init_done; }

    // Runs n cycles, then 4 idle cycles; read results in order into out (capacity cap).
    int run(const StCycle* cy, size_t n, StRead* out, size_t cap, size_t* nout) {
        Vstats& m = *tb_.m;
        size_t got = 0;
        for (size_t c = 0; c < n + 4; c++) {
            if (c < n) {
                const StCycle& s = cy[c];
                m.inc_valid = s.inc_valid & 0xf;
                uint32_t idx = 0;
                uint64_t amt = 0;
                for (int k = 0; k < 4; k++) {
                    idx |= (s.idx[k] & 0xff) << (8 * k);
                    amt |= uint64_t(s.amt[k] & 0xffff) << (16 * k);
                }
                m.inc_idx = idx;
                m.inc_amount = amt;
                m.snapshot = s.snapshot & 1;
                m.clear_on_snapshot = s.clear_on_snapshot & 1;
                m.rd_valid = s.rd_valid & 1;
                m.rd_idx = s.rd_idx & 0xff;
                m.clear_all = s.clear_all & 1;
            } else {
                m.clear_all = 0;
                m.inc_valid = 0;
                m.snapshot = 0;
                m.rd_valid = 0;
            }
            m.eval();
            if (m.rd_data_valid) {
                if (got >= cap) return TB_PROTOCOL;
                out[got].cycle = cycle_;
                out[got].value = m.rd_data;
                got++;
            }
            tick(m);
            cycle_++;
        }
        *nout = got;
        return TB_OK;
    }
    uint64_t cycle() const { return cycle_; }

private:
    TbModel<Vstats> tb_;
    uint64_t cycle_ = 0;
};

// ---------------------------------------------------------------------------------------
// evt_queue (PRODUCERS 4, EVT_WIDTH 64, DEPTH 16)

struct EvPop {
    uint32_t src;
    uint32_t word0;
    uint32_t word1;
    uint32_t pad;
    uint64_t data;
};

struct EvRun {
    uint64_t cycles;
    uint64_t max_wait;  // longest run of cycles an offered event waited for ready
    uint64_t overflow;
    uint64_t overflow_prod[4];
    uint64_t pushed;
};

int evt_run(const uint64_t* events, const uint32_t* counts, uint32_t offer_pct, uint32_t pop_pct,
            uint32_t seed, EvPop* out, size_t cap, size_t* nout, EvRun* run) {
    TbModel<Vevtq> tb("evq");
    Vevtq& m = *tb.m;
    m.clk = 0;
    m.rst = 1;
    m.evt_valid = 0;
    m.pop = 0;
    m.head_word_sel = 0;
    m.eval();
    for (int i = 0; i < kResetCycles; i++) tick(m);
    m.rst = 0;
    m.eval();
    size_t base[4], pos[4] = {0, 0, 0, 0}, total = 0;
    for (int p = 0; p < 4; p++) {
        base[p] = total;
        total += counts[p];
    }
    uint32_t lcg = seed ? seed : 1;
    bool offering[4] = {false, false, false, false};
    uint64_t wait[4] = {0, 0, 0, 0}, max_wait = 0;
    size_t got = 0;
    const uint64_t limit = 100000 + 64 * uint64_t(total);
    uint64_t c = 0, idle = 0;
    for (; c < limit; c++) {
        bool all_offered = true;
        uint32_t valid = 0;
        for (int p = 0; p < 4; p++) {
            if (pos[p] < counts[p]) {
                all_offered = false;
                // Once offered, an event stays offered until taken (AXI-style).
                if (!offering[p]) offering[p] = (lcg_next(lcg) % 100) < offer_pct;
                if (offering[p]) {
                    valid |= 1u << p;
                    m.evt_data[2 * p] = uint32_t(events[base[p] + pos[p]]);
                    m.evt_data[2 * p + 1] = uint32_t(events[base[p] + pos[p]] >> 32);
                }
            }
        }
        if (all_offered && !m.head_valid) {
            if (++idle > 40) break;
        }
        m.evt_valid = valid;
        bool do_pop = (lcg_next(lcg) % 100) < pop_pct;
        m.pop = do_pop;
        m.eval();
        if (do_pop && m.head_valid) {
            if (got >= cap) return TB_PROTOCOL;
            EvPop& e = out[got++];
            e.src = m.head_src;
            e.data = m.head_data;
            m.head_word_sel = 0;
            m.eval();
            e.word0 = m.head_word;
            m.head_word_sel = 1;
            m.eval();
            e.word1 = m.head_word;
            m.head_word_sel = 0;
            m.eval();
            e.pad = 0;
        }
        for (int p = 0; p < 4; p++) {
            if (valid & (1u << p)) {
                if (m.evt_ready & (1u << p)) {
                    pos[p]++;
                    offering[p] = false;
                    wait[p] = 0;
                } else {
                    wait[p]++;
                    if (wait[p] > max_wait) max_wait = wait[p];
                }
            }
        }
        tick(m);
    }
    *nout = got;
    run->cycles = c;
    run->max_wait = max_wait;
    run->overflow = m.stat_overflow;
    for (int p = 0; p < 4; p++) run->overflow_prod[p] = m.stat_overflow_prod[p];
    run->pushed = m.stat_pushed;
    return c >= limit ? TB_TIMEOUT : TB_OK;
}

// ---------------------------------------------------------------------------------------
// pkt_punt_buf (SLOTS 8, SLOT_BYTES 2048, META_WIDTH the default: a PuntMeta record; RESERVE
// 0, or 2 for Vpunt64r)

constexpr int kPuntSlots = 8;
// Descriptor of a slot: the head word(s) (PuntHead), then the punt record (PuntMeta).
constexpr uint32_t kDescWords = SPLICENIC_PUNT_HEAD_WORDS + SPLICENIC_PUNT_META_WORDS;

struct PuntIn {
    uint32_t len;
    uint32_t tuser;
    uint32_t meta[SPLICENIC_PUNT_META_WORDS];
    uint32_t gap;  // idle cycles before this frame
    uint32_t low;  // s_axis_tlow (low priority), driven on every beat of the frame
};

struct PuntOut {
    uint32_t frame;  // index of the input frame (by the order of commits; filled by Rust)
    uint32_t len;
    uint32_t flag;
    uint32_t meta[SPLICENIC_PUNT_META_WORDS];
    uint32_t offset;  // byte offset of the data in the output byte buffer
};

struct PuntRun {
    uint64_t cycles;
    uint64_t stall_cycles;  // cycles with tvalid && !tready
    uint64_t frames;
    uint64_t drop_full;
    uint64_t drop_low;
    uint64_t drop_long;
    uint64_t bad_cons;
};

// used_at_start[i]: slots in use (prod - cons) at frame i's first beat. With hold, the
// firmware model starts reading only after the last input frame.
template <class M>
int punt_run(const uint8_t* bytes, const PuntIn* fr, size_t n, uint32_t consume_pct, uint32_t hold,
             uint32_t seed, uint8_t* used_at_start, PuntOut* out, size_t cap, uint8_t* obytes,
             size_t ocap, size_t* nout, PuntRun* run) {
    constexpr size_t kw = sizeof(((M*)nullptr)->s_axis_tdata) >= 64 ? 64 : 8;
    TbModel<M> tb("punt");
    M& m = *tb.m;
    m.clk = 0;
    m.rst = 1;
    m.s_axis_tvalid = 0;
    m.s_axis_tlast = 0;
    m.s_axis_tuser = 0;
    m.s_axis_tlow = 0;
    m.cons_wr = 0;
    m.rd_valid = 0;
    m.eval();
    for (int i = 0; i < kResetCycles; i++) tick(m);
    m.rst = 0;
    m.eval();

    size_t fi = 0, off = 0, beat = 0;
    uint32_t gap = n ? fr[0].gap : 0;
    uint32_t lcg = seed ? seed : 1;
    // Firmware model: reads the oldest slot (descriptor words 0 .. kDescWords - 1, then data
    // words) through the pipelined read port, then frees it.
    enum { FW_IDLE, FW_READ, FW_WAIT } fw = FW_IDLE;
    uint32_t fw_issue = 0, fw_got = 0, fw_words = 0, fw_len = 0;
    uint32_t desc[kDescWords];
    size_t got = 0, obyte = 0;
    uint64_t stalls = 0;
    std::vector<uint32_t> data;
    const uint64_t limit = 200000 + 4000ull * n;
    uint64_t c = 0;
    int rc = TB_OK;
    for (; c < limit; c++) {
        // Input
        bool in_valid = false;
        if (fi < n) {
            if (gap > 0) {
                gap--;
            } else {
                in_valid = true;
                const PuntIn& f = fr[fi];
                size_t rem = f.len - beat * kw;
                size_t nb = rem < kw ? rem : kw;
                tb_set_bytes(m.s_axis_tdata, bytes + off + beat * kw, nb);
                m.s_axis_tkeep = tb_keep_mask(nb);
                m.s_axis_tlast = rem <= kw;
                m.s_axis_tuser = f.tuser & 1;
                m.s_axis_tlow = f.low & 1;
                tb_set_bytes(m.s_meta, reinterpret_cast<const uint8_t*>(f.meta),
                             SPLICENIC_PUNT_META_BITS / 8);
                if (beat == 0) {
                    uint32_t used = (m.prod_idx - m.cons_idx) & (2 * kPuntSlots - 1);
                    used_at_start[fi] = uint8_t(used);
                }
            }
        }
        m.s_axis_tvalid = in_valid;
        // Firmware
        m.rd_valid = 0;
        m.cons_wr = 0;
        uint32_t used = (m.prod_idx - m.cons_idx) & (2 * kPuntSlots - 1);
        if (fw == FW_IDLE && used > 0 && (!hold || fi == n) && (lcg_next(lcg) % 100) < consume_pct) {
            fw = FW_READ;
            fw_issue = 0;
            fw_got = 0;
            fw_words = kDescWords;  // descriptor first, then data once the length is known
            data.clear();
        }
        uint32_t slot = m.cons_idx & (kPuntSlots - 1);
        if (fw == FW_READ) {
            if (fw_issue < kDescWords) {
                m.rd_valid = 1;
                m.rd_desc = 1;
                m.rd_slot = slot;
                m.rd_word = fw_issue;
                fw_issue++;
            } else if (fw_got >= kDescWords && fw_issue < kDescWords + fw_words) {
                m.rd_valid = 1;
                m.rd_desc = 0;
                m.rd_slot = slot;
                m.rd_word = fw_issue - kDescWords;
                fw_issue++;
            }
        }
        m.eval();
        if (m.rd_data_valid && fw == FW_READ) {
            if (fw_got < kDescWords) {
                desc[fw_got] = m.rd_data;
                if (fw_got == kDescWords - 1) {
                    fw_len = uint32_t(splicenic_punt_head_len(desc));
                    fw_words = (fw_len + 3) / 4;
                }
            } else {
                data.push_back(m.rd_data);
            }
            fw_got++;
            if (fw_got >= kDescWords && fw_got == kDescWords + fw_words) {
                if (got >= cap || obyte + fw_len > ocap) {
                    rc = TB_PROTOCOL;
                    break;
                }
                PuntOut& o = out[got++];
                o.frame = 0;
                o.len = fw_len;
                o.flag = uint32_t(splicenic_punt_head_bad(desc));
                for (int k = 0; k < SPLICENIC_PUNT_META_WORDS; k++)
                    o.meta[k] = desc[SPLICENIC_PUNT_HEAD_WORDS + k];
                o.offset = uint32_t(obyte);
                for (uint32_t b = 0; b < fw_len; b++)
                    obytes[obyte + b] = uint8_t(data[b / 4] >> (8 * (b % 4)));
                obyte += fw_len;
                fw = FW_WAIT;
            }
        } else if (fw == FW_WAIT) {
            m.cons_wr = 1;
            m.cons_val = (m.cons_idx + 1) & (2 * kPuntSlots - 1);
            fw = FW_IDLE;
        }
        if (in_valid && !m.s_axis_tready) stalls++;
        if (in_valid && m.s_axis_tready) {
            const PuntIn& f = fr[fi];
            if ((beat + 1) * kw >= f.len) {
                off += f.len;
                beat = 0;
                fi++;
                gap = fi < n ? fr[fi].gap : 0;
            } else {
                beat++;
            }
        }
        tick(m);
        if (fi == n && fw == FW_IDLE && ((m.prod_idx - m.cons_idx) & (2 * kPuntSlots - 1)) == 0)
            break;
    }
    *nout = got;
    run->cycles = c;
    run->stall_cycles = stalls;
    run->frames = m.stat_frames;
    run->drop_full = m.stat_drop_full;
    run->drop_low = m.stat_drop_low;
    run->drop_long = m.stat_drop_long;
    run->bad_cons = m.stat_bad_cons;
    if (rc != TB_OK) return rc;
    return c >= limit ? TB_TIMEOUT : TB_OK;
}

// ---------------------------------------------------------------------------------------
// pkt_inject_buf (SLOTS 4, SLOT_BYTES 2048)

constexpr int kInjSlots = 4;

struct InjIn {
    uint32_t len;
    uint32_t csum_ip;
    uint32_t csum_tcp;
    uint32_t ip_off;
    uint32_t l4_off;
    uint32_t l4_end;
};

struct InjRun {
    uint64_t cycles;
    uint64_t beats;        // output beats
    uint64_t busy_cycles;  // sum over batches of (last beat cycle - first beat cycle + 1)
    uint64_t bad_commit;
    uint64_t frames;
    uint64_t first_latency;  // cycles from the last commit of the first batch to its first beat
};

// Frames go in batches of SLOTS: the firmware model writes every frame of the batch into
// its slot, commits them on consecutive cycles, and the output is collected (random
// back-pressure if ready_pct < 100) until the batch has left.
template <class M>
int inj_run(const uint8_t* bytes, const InjIn* fr, size_t n, uint32_t ready_pct, uint32_t hold,
            uint32_t seed, uint8_t* obytes, size_t ocap, uint32_t* olens, size_t* nout, InjRun* run) {
    constexpr size_t kw = sizeof(((M*)nullptr)->m_axis_tdata) >= 64 ? 64 : 8;
    TbModel<M> tb("inj");
    M& m = *tb.m;
    m.clk = 0;
    m.rst = 1;
    m.wr_valid = 0;
    m.commit_valid = 0;
    m.m_axis_tready = 1;
    m.eval();
    for (int i = 0; i < kResetCycles; i++) tick(m);
    m.rst = 0;
    m.eval();
    uint32_t lcg = seed ? seed : 1;
    size_t off = 0, fi = 0, nfr = 0, obyte = 0;
    uint64_t c = 0, beats = 0, busy = 0, first_lat = 0;
    const uint64_t limit = 100000 + 2000ull * n;
    std::vector<uint8_t> cur;
    while (fi < n) {
        size_t batch = n - fi < size_t(kInjSlots) ? n - fi : size_t(kInjSlots);
        // Write the frames (one 32-bit word per cycle), slots prod_idx .. prod_idx+batch-1.
        uint32_t prod = m.prod_idx;
        size_t boff = off;
        for (size_t b = 0; b < batch; b++) {
            const InjIn& f = fr[fi + b];
            for (uint32_t w = 0; w * 4 < f.len; w++) {
                uint8_t wb[4] = {0, 0, 0, 0};
                for (int k = 0; k < 4; k++)
                    if (w * 4 + k < f.len) wb[k] = bytes[boff + w * 4 + k];
                m.wr_valid = 1;
                m.wr_slot = (prod + b) & (kInjSlots - 1);
                m.wr_word = w;
                m.wr_data = uint32_t(wb[0]) | uint32_t(wb[1]) << 8 | uint32_t(wb[2]) << 16 |
                            uint32_t(wb[3]) << 24;
                m.eval();
                tick(m);
                c++;
            }
            boff += f.len;
        }
        m.wr_valid = 0;
        // Commit on consecutive cycles.
        for (size_t b = 0; b < batch; b++) {
            const InjIn& f = fr[fi + b];
            m.commit_valid = 1;
            m.commit_len = f.len;
            m.commit_csum_ip = f.csum_ip & 1;
            m.commit_csum_tcp = f.csum_tcp & 1;
            m.commit_ip_off = f.ip_off;
            m.commit_l4_off = f.l4_off;
            m.commit_l4_end = f.l4_end;
            m.eval();
            if (!m.commit_ready) return TB_PROTOCOL;
            tick(m);
            c++;
        }
        m.commit_valid = 0;
        uint64_t commit_end = c;
        // Collect this batch's frames (bad commits send nothing: the caller expects that).
        size_t expect = 0;
        for (size_t b = 0; b < batch; b++) {
            const InjIn& f = fr[fi + b];
            bool ok = f.len > 0 && f.len <= 2048;
            if (f.csum_ip) ok = ok && f.ip_off + 20 <= f.l4_off && f.l4_off <= f.len;
            if (f.csum_tcp)
                ok = ok && f.ip_off + 20 <= f.l4_off && f.l4_off + 20 <= f.l4_end && f.l4_end <= f.len;
            expect += ok;
        }
        // hold: keep m_axis_tready low until every checksum pass of the batch is done
        // (the pass runs ahead of the output), then measure the output alone.
        if (hold) {
            size_t beats_b = 0;
            for (size_t b = 0; b < batch; b++) beats_b += (fr[fi + b].len + kw - 1) / kw;
            for (size_t i = 0; i < beats_b + 16; i++) {
                m.m_axis_tready = 0;
                m.eval();
                tick(m);
                c++;
            }
        }
        size_t done = 0;
        uint64_t first = 0, last = 0;
        bool seen = false;
        uint64_t start = c;
        while (done < expect) {
            if (c - start > 20000 || c > limit) {
                *nout = nfr;
                return TB_TIMEOUT;
            }
            bool rdy = ready_pct >= 100 || (lcg_next(lcg) % 100) < ready_pct;
            m.m_axis_tready = rdy;
            m.eval();
            if (m.m_axis_tvalid && rdy) {
                if (!seen) {
                    seen = true;
                    first = c;
                    if (fi == 0) first_lat = c - commit_end;
                }
                last = c;
                beats++;
                uint8_t tmp[64];
                get_bytes(m.m_axis_tdata, tmp, kw);
                uint64_t keep = get_u64(m.m_axis_tkeep);
                for (size_t k = 0; k < kw; k++) {
                    if (keep & (uint64_t(1) << k)) cur.push_back(tmp[k]);
                }
                if (m.m_axis_tlast) {
                    if (obyte + cur.size() > ocap) return TB_PROTOCOL;
                    memcpy(obytes + obyte, cur.data(), cur.size());
                    obyte += cur.size();
                    olens[nfr++] = uint32_t(cur.size());
                    cur.clear();
                    done++;
                }
            }
            tick(m);
            c++;
        }
        if (seen) busy += last - first + 1;
        for (int i = 0; i < 8; i++) {
            m.m_axis_tready = 1;
            m.eval();
            if (m.m_axis_tvalid) return TB_PROTOCOL;  // an unexpected extra beat
            tick(m);
            c++;
        }
        off = boff;
        fi += batch;
    }
    *nout = nfr;
    run->cycles = c;
    run->beats = beats;
    run->busy_cycles = busy;
    run->bad_commit = m.stat_bad_commit;
    run->frames = m.stat_frames;
    run->first_latency = first_lat;
    return TB_OK;
}

}  // namespace

extern "C" {

void* tb_stats_new(uint64_t init) {
    Stats* s = new Stats(init);
    if (!s->ready()) {
        delete s;
        return nullptr;
    }
    return s;
}

void tb_stats_free(void* h) { delete static_cast<Stats*>(h); }

int tb_stats_run(void* h, const StCycle* cy, size_t n, StRead* out, size_t cap, size_t* nout) {
    if (!h || (n && !cy) || (cap && !out) || !nout) return TB_BAD_ARG;
    return static_cast<Stats*>(h)->run(cy, n, out, cap, nout);
}

uint64_t tb_stats_cycle(const void* h) { return static_cast<const Stats*>(h)->cycle(); }

int tb_evt_run(const uint64_t* events, const uint32_t* counts4, uint32_t offer_pct,
               uint32_t pop_pct, uint32_t seed, EvPop* out, size_t cap, size_t* nout,
               EvRun* run) {
    if (!counts4 || !nout || !run) return TB_BAD_ARG;
    size_t total = size_t(counts4[0]) + counts4[1] + counts4[2] + counts4[3];
    if ((total && !events) || (cap && !out)) return TB_BAD_ARG;
    return evt_run(events, counts4, offer_pct, pop_pct, seed, out, cap, nout, run);
}

// model: 0 Vpunt64, 1 Vpunt512, 2 Vpunt64r (RESERVE 2)
int tb_punt_run(int model, const uint8_t* bytes, const PuntIn* fr, size_t n, uint32_t consume_pct,
                uint32_t hold, uint32_t seed, uint8_t* used_at_start, PuntOut* out, size_t cap,
                uint8_t* obytes, size_t ocap, size_t* nout, PuntRun* run) {
    if ((n && (!bytes || !fr || !used_at_start)) || !nout || !run) return TB_BAD_ARG;
    for (size_t i = 0; i < n; i++)
        if (fr[i].len == 0 || fr[i].len > 16384) return TB_BAD_ARG;
    switch (model) {
        case 0:
            return punt_run<Vpunt64>(bytes, fr, n, consume_pct, hold, seed, used_at_start, out, cap,
                                     obytes, ocap, nout, run);
        case 1:
            return punt_run<Vpunt512>(bytes, fr, n, consume_pct, hold, seed, used_at_start, out, cap,
                                      obytes, ocap, nout, run);
        case 2:
            return punt_run<Vpunt64r>(bytes, fr, n, consume_pct, hold, seed, used_at_start, out, cap,
                                      obytes, ocap, nout, run);
        default:
            return TB_BAD_ARG;
    }
}

int tb_inj_run(int wide, const uint8_t* bytes, const InjIn* fr, size_t n, uint32_t ready_pct,
               uint32_t hold, uint32_t seed, uint8_t* obytes, size_t ocap, uint32_t* olens, size_t* nout,
               InjRun* run) {
    if ((n && (!bytes || !fr || !olens)) || !nout || !run) return TB_BAD_ARG;
    for (size_t i = 0; i < n; i++)
        if (fr[i].len > 2048) return TB_BAD_ARG;
    if (wide)
        return inj_run<Vinj512>(bytes, fr, n, ready_pct, hold, seed, obytes, ocap, olens, nout, run);
    return inj_run<Vinj64>(bytes, fr, n, ready_pct, hold, seed, obytes, ocap, olens, nout, run);
}

}  // extern "C"
