/*
 * aclsim: GlobalTensor's address_ (the kernel's raw pointer to the tensor's first element), declared
 * before the generated API (aclsim_ascendc_extra.h includes this file).
 *
 * Ascend C keeps the tensor's GM address in the public member address_, and kernels use it to store
 * through a raw pointer (`auto p = gm.address_ + i; *p = v;`).  Here address_ is a member that
 * gives the tensor's current address (GetPhyAddr: the host address of the device memory's bytes)
 * whenever it is read, so it follows SetGlobalBuffer and operator[].  A store through it is not an
 * Ascend C instruction: the launch reports the bytes it changed as an unrecorded write.
 */
#ifndef ACLSIM_ASCENDC_MULTI_EXTRA_H
#define ACLSIM_ASCENDC_MULTI_EXTRA_H

namespace aclsim {
namespace detail {

template <class G, class T> struct GmAddress {
    const G* owner;
    T* get() const { return owner->GetPhyAddr(nullptr, 0); }  // no line of its own (an expression's)
    operator T*() const { return get(); }
    T* operator->() const { return get(); }
    T& operator*() const { return *get(); }
    T& operator[](int64_t i) const { return get()[i]; }
    T* operator+(int64_t i) const { return get() + i; }
    T* operator-(int64_t i) const { return get() - i; }
};

}  // namespace detail
}  // namespace aclsim

/* GlobalTensor: address_, rebound to the new object by copies */
#define ACLSIM_CLASS_EXTRA_GlobalTensor                                                             \
    ::aclsim::detail::GmAddress<GlobalTensor, T> address_{this};                                    \
    __aicore__ GlobalTensor(const GlobalTensor& o) : Object(o.h_) {}                                \
    __aicore__ GlobalTensor& operator=(const GlobalTensor& o)                                       \
    {                                                                                               \
        h_ = o.h_;                                                                                  \
        return *this;                                                                               \
    }

#endif
