// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated round-trip module `records_rt` (Vrt64, Vrt512): set the
// record and the beat, evaluate, read the unpacked leaves and the beat of the packed record.

#include <cstddef>
#include <cstdint>

#include "splicenic_tb.h"
#include "verilated.h"

#include "Vrt512.h"
#include "Vrt64.h"

namespace {

template <class T>
void set_words(T& sig, const uint32_t* w, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < (sizeof(T) + 3) / 4; i++) v |= uint64_t(w[i]) << (32 * i);
    sig = T(v);
}
template <std::size_t N>
void set_words(VlWide<N>& sig, const uint32_t* w, size_t n) {
    for (size_t i = 0; i < N; i++) sig[i] = i < n ? w[i] : 0;
}
template <class T>
size_t get_words(const T& sig, uint32_t* w, size_t n) {
    uint64_t v = sig;
    size_t k = (sizeof(T) + 3) / 4;
    for (size_t i = 0; i < n && i < k; i++) w[i] = uint32_t(v >> (32 * i));
    return k;
}
template <std::size_t N>
size_t get_words(const VlWide<N>& sig, uint32_t* w, size_t n) {
    for (size_t i = 0; i < n && i < N; i++) w[i] = sig[i];
    return N;
}

template <class M>
struct Rt {
    TbModel<M> tb{"records_rt"};
};

template <class M>
int eval(void* h, uint32_t sel, const uint32_t* rec, size_t rec_words, uint32_t beat,
         uint32_t* leaves, size_t leaf_words, uint32_t* beat_out, size_t beat_words) {
    auto* r = static_cast<Rt<M>*>(h);
    M& m = *r->tb.m;
    m.sel = sel;
    m.beat = beat;
    set_words(m.rec_in, rec, rec_words);
    m.eval();
    if (get_words(m.leaves_out, leaves, leaf_words) < leaf_words) return -3;
    if (get_words(m.beat_out, beat_out, beat_words) < beat_words) return -3;
    return 0;
}

}  // namespace

extern "C" {

void* rt_new(uint32_t width) {
    if (width == 64) return new Rt<Vrt64>();
    if (width == 512) return new Rt<Vrt512>();
    return nullptr;
}

void rt_free(void* h, uint32_t width) {
    if (width == 64) delete static_cast<Rt<Vrt64>*>(h);
    if (width == 512) delete static_cast<Rt<Vrt512>*>(h);
}

int rt_eval(void* h, uint32_t width, uint32_t sel, const uint32_t* rec, size_t rec_words,
            uint32_t beat, uint32_t* leaves, size_t leaf_words, uint32_t* beat_out,
            size_t beat_words) {
    if (width == 64)
        return eval<Vrt64>(h, sel, rec, rec_words, beat, leaves, leaf_words, beat_out,
                           beat_words);
    if (width == 512)
        return eval<Vrt512>(h, sel, rec, rec_words, beat, leaves, leaf_words, beat_out,
                            beat_words);
    return -3;
}

}  // extern "C"
