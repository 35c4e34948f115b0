// rosterrig/detail/flat_map.hpp: an open-addressing hash map from 64-bit keys,
// for the per-NPI state of the checks (a few million keys, no erase). Linear
// probing over one array of {key, value} slots: one cache miss per lookup
// instead of a node chase. An empty slot holds the key `empty_key`; that one
// key, should it ever be inserted, lives in an extra slot after the table, so
// every 64-bit key is allowed and no separate "used" array has to be read.
//
// For streams of lookups, prefetch(key) issues the cache-line load of the
// key's home slot early (callers keep a few keys in flight). Slots of 16, 32
// or 64 bytes are aligned to their size, so each sits in one cache line.
#ifndef ROSTERRIG_DETAIL_FLAT_MAP_HPP
#define ROSTERRIG_DETAIL_FLAT_MAP_HPP

#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "rosterrig/random/splitmix64.hpp"

namespace rosterrig::detail {

template <class V>
class flat_map {
public:
private:
    struct natural_slot {
        std::uint64_t key;
        V value;
    };
    /// A slot of 16, 32 or 64 bytes is aligned to its size, so that no slot
    /// straddles two cache lines (one line per lookup); others keep their
    /// natural alignment.
    static constexpr std::size_t slot_align =
        sizeof(natural_slot) == 16 || sizeof(natural_slot) == 32 || sizeof(natural_slot) == 64 ? sizeof(natural_slot)
                                                                                               : alignof(natural_slot);

public:
    struct alignas(slot_align) slot {
        std::uint64_t key;
        V value;
    };
    static constexpr std::uint64_t empty_key = ~std::uint64_t{0};

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
        basic_iterator& operator++() {
            ++index_;
            skip();
            return *this;
        }
        basic_iterator operator++(int) {
            auto t = *this;
            ++*this;
            return t;
        }
        friend bool operator==(const basic_iterator& a, const basic_iterator& b) { return a.index_ == b.index_; }

    private:
        void skip() {
            const std::size_t cap = map_->capacity();
            while (index_ < cap && map_->slots_[index_].key == empty_key) ++index_;
            if (index_ == cap && !map_->has_empty_key_) ++index_;
        }
        owner* map_ = nullptr;
        std::size_t index_ = 0;
    };
    using iterator = basic_iterator<false>;
    using const_iterator = basic_iterator<true>;

    flat_map() { rehash(16); }

    /// A map with the same keys, in the same slots, as `other`, each value
    /// made by value_of(other's value): a sequential copy, no rehashing.
    template <class U, class F>
    static flat_map same_keys(const flat_map<U>& other, F value_of) {
        flat_map m;
        m.slots_.assign(other.slots_.size(), slot{empty_key, V{}});
        for (std::size_t i = 0; i < other.slots_.size(); ++i) {
            const auto& s = other.slots_[i];
            if (s.key != empty_key || (i == other.capacity() && other.has_empty_key_))
                m.slots_[i] = slot{s.key, value_of(s.value)};
        }
        m.has_empty_key_ = other.has_empty_key_;
        m.size_ = other.size_;
        return m;
    }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }

    void reserve(std::size_t n) {
        std::size_t capacity = 16;
        while (capacity < n * 2) capacity *= 2;
        if (capacity > this->capacity()) rehash(capacity);
    }

    /// Inserts {key, value} unless key is present; returns {slot value, inserted}.
    std::pair<V*, bool> try_emplace(std::uint64_t key, const V& value = V{}) {
        if (key == empty_key) {
            slot& s = slots_[capacity()];
            if (has_empty_key_) return {&s.value, false};
            s.value = value;
            has_empty_key_ = true;
            ++size_;
            return {&s.value, true};
        }
        if ((size_ + 1) * 2 > capacity()) rehash(capacity() * 2);
        const std::size_t i = probe(key);
        if (slots_[i].key == key) return {&slots_[i].value, false};
        slots_[i] = slot{key, value};
        ++size_;
        return {&slots_[i].value, true};
    }

    V& operator[](std::uint64_t key) { return *try_emplace(key).first; }

    V* find(std::uint64_t key) noexcept { return const_cast<V*>(std::as_const(*this).find(key)); }
    const V* find(std::uint64_t key) const noexcept {
        if (key == empty_key) return has_empty_key_ ? &slots_[capacity()].value : nullptr;
        const std::size_t i = probe(key);
        return slots_[i].key == key ? &slots_[i].value : nullptr;
    }
    const V& at(std::uint64_t key) const {
        if (const V* v = find(key)) return *v;
        throw std::out_of_range("flat_map::at: no such key");
    }
    bool contains(std::uint64_t key) const noexcept { return find(key) != nullptr; }

    /// Starts loading key's home slot into the cache (a hint; no effect on contents).
    void prefetch([[maybe_unused]] std::uint64_t key) const noexcept {
#if defined(__GNUC__)
        __builtin_prefetch(&slots_[home(key)], 1);
#endif
    }

    iterator begin() { return iterator(this, 0); }
    iterator end() { return iterator(this, capacity() + 1); }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, capacity() + 1); }

private:
    template <class>
    friend class flat_map;

    /// Table slots; slots_ holds one more, the home of empty_key.
    std::size_t capacity() const noexcept { return slots_.size() - 1; }

    std::size_t home(std::uint64_t key) const noexcept {
        return static_cast<std::size_t>(mix64(key)) & (capacity() - 1);
    }

    /// The slot holding key, or the empty slot where it would go (key != empty_key).
    std::size_t probe(std::uint64_t key) const noexcept {
        const std::size_t mask = capacity() - 1;
        std::size_t i = home(key);
        while (slots_[i].key != key && slots_[i].key != empty_key) i = (i + 1) & mask;
        return i;
    }

    void rehash(std::size_t capacity) {
        std::vector<slot> old(capacity + 1, slot{empty_key, V{}});
        old.swap(slots_);
        if (!old.empty()) {
            slots_.back() = std::move(old.back());  // the empty_key slot, if used
            for (std::size_t i = 0; i + 1 < old.size(); ++i)
                if (old[i].key != empty_key) slots_[probe(old[i].key)] = std::move(old[i]);
        }
    }

    std::vector<slot> slots_;
    bool has_empty_key_ = false;
    std::size_t size_ = 0;
};

}  // namespace rosterrig::detail

#endif
