// rosterrig/detail/flat_map.hpp: an open-addressing hash map from 64-bit keys,
// for the per-NPI state of the checks (a few million keys, no erase). Linear
// probing over one array: one cache miss per lookup instead of a node chase.
#ifndef ROSTERRIG_DETAIL_FLAT_MAP_HPP
#define ROSTERRIG_DETAIL_FLAT_MAP_HPP

#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rosterrig/random/splitmix64.hpp"

namespace rosterrig::detail {

template <class V>
class flat_map {
public:
    struct slot {
        std::uint64_t key;
        V value;
    };

    template <bool Const>
    class basic_iterator {
    public:
        using owner = std::conditional_t<Const, const flat_map, flat_map>;
        using reference = std::conditional_t<Const, const slot&, slot&>;
        using value_type = slot;
        using difference_type = std::ptrdiff_t;
        using iterator_category = std::forward_iterator_tag;
        basic_iterator() = default;
        basic_iterator(owner* m, std::size_t i) : map_(m), index_(i) { skip(); }
        reference operator*() const { return map_->slots_[index_]; }
        auto* operator->() const { return &map_->slots_[index_]; }
        basic_iterator& operator++() { ++index_; skip(); return *this; }
        basic_iterator operator++(int) { auto t = *this; ++*this; return t; }
        friend bool operator==(const basic_iterator& a, const basic_iterator& b) { return a.index_ == b.index_; }

    private:
        void skip() {
            while (index_ < map_->slots_.size() && !map_->used_[index_]) ++index_;
        }
        owner* map_ = nullptr;
        std::size_t index_ = 0;
    };
    using iterator = basic_iterator<false>;
    using const_iterator = basic_iterator<true>;

    flat_map() { rehash(16); }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }

    void reserve(std::size_t n) {
        std::size_t capacity = 16;
        while (capacity < n * 2) capacity *= 2;
        if (capacity > slots_.size()) rehash(capacity);
    }

    /// Inserts {key, value} unless key is present; returns {slot value, inserted}.
    std::pair<V*, bool> try_emplace(std::uint64_t key, const V& value = V{}) {
        if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
        std::size_t i = probe(key);
        if (used_[i]) return {&slots_[i].value, false};
        used_[i] = 1;
        slots_[i] = slot{key, value};
        ++size_;
        return {&slots_[i].value, true};
    }

    V& operator[](std::uint64_t key) { return *try_emplace(key).first; }

    V* find(std::uint64_t key) noexcept {
        const std::size_t i = probe(key);
        return used_[i] ? &slots_[i].value : nullptr;
    }
    const V* find(std::uint64_t key) const noexcept {
        const std::size_t i = probe(key);
        return used_[i] ? &slots_[i].value : nullptr;
    }
    const V& at(std::uint64_t key) const {
        if (const V* v = find(key)) return *v;
        throw std::out_of_range("flat_map::at: no such key");
    }
    bool contains(std::uint64_t key) const noexcept { return find(key) != nullptr; }

    iterator begin() { return iterator(this, 0); }
    iterator end() { return iterator(this, slots_.size()); }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, slots_.size()); }

private:
    std::size_t probe(std::uint64_t key) const noexcept {
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = static_cast<std::size_t>(mix64(key)) & mask;
        while (used_[i] && slots_[i].key != key) i = (i + 1) & mask;
        return i;
    }

    void rehash(std::size_t capacity) {
        std::vector<slot> old_slots(capacity);
        std::vector<std::uint8_t> old_used(capacity, 0);
        old_slots.swap(slots_);
        old_used.swap(used_);
        size_ = 0;
        for (std::size_t i = 0; i < old_slots.size(); ++i)
            if (old_used[i]) {
                const std::size_t j = probe(old_slots[i].key);
                used_[j] = 1;
                slots_[j] = std::move(old_slots[i]);
                ++size_;
            }
    }

    std::vector<slot> slots_;
    std::vector<std::uint8_t> used_;
    std::size_t size_ = 0;
};

} // namespace rosterrig::detail

#endif
