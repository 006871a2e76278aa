// See sodium_memory.h.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "sodium_memory.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef void *(*mmap_function)(void *, size_t, int, int, int, off_t);
typedef int (*munmap_function)(void *, size_t);

// The calling thread's loan: the region, its size, whether a mapping holds it, and whether
// one was served from it since it was lent.
static _Thread_local void *lent_base;
static _Thread_local size_t lent_size;
static _Thread_local int lent_taken;
static _Thread_local int lent_used;

// The C library's functions, found once (a race stores the same pointer twice).
static _Atomic(mmap_function) next_mmap;
static _Atomic(munmap_function) next_munmap;

static void *system_mmap(void *address, size_t length, int protection, int flags, int descriptor, off_t offset) {
    mmap_function next = atomic_load_explicit(&next_mmap, memory_order_relaxed);
    if (next == NULL) {
        next = (mmap_function)dlsym(RTLD_NEXT, "mmap");
        atomic_store_explicit(&next_mmap, next, memory_order_relaxed);
    }
    if (next == NULL) return (void *)syscall(SYS_mmap, address, length, protection, flags, descriptor, offset);
    return next(address, length, protection, flags, descriptor, offset);
}

static int system_munmap(void *address, size_t length) {
    munmap_function next = atomic_load_explicit(&next_munmap, memory_order_relaxed);
    if (next == NULL) {
        next = (munmap_function)dlsym(RTLD_NEXT, "munmap");
        atomic_store_explicit(&next_munmap, next, memory_order_relaxed);
    }
    if (next == NULL) return (int)syscall(SYS_munmap, address, length);
    return next(address, length);
}

void *mmap(void *address, size_t length, int protection, int flags, int descriptor, off_t offset) {
    const int private_anonymous = MAP_PRIVATE | MAP_ANONYMOUS;
    if (lent_base != NULL && !lent_taken && address == NULL && descriptor == -1 && length <= lent_size
        && (flags & (private_anonymous | MAP_SHARED | MAP_FIXED)) == private_anonymous
        && protection == (PROT_READ | PROT_WRITE)) {
        lent_taken = 1;
        lent_used = 1;
        return lent_base;
    }
    return system_mmap(address, length, protection, flags, descriptor, offset);
}

int munmap(void *address, size_t length) {
    if (lent_taken && address == lent_base) {
        // Kept for the thread's next hash, which overwrites it. Not wiped, as libsodium does
        // not wipe it either: the blocks are derived from the password as the stored hash is,
        // and the password itself passed through this process's request buffers; wiping 19 MiB
        // cost 7 % of the server's CPU in a login flood. The scratch is left out of core dumps
        // and unmapped (so the kernel zeroes it before anyone else has it) when idle.
        (void)length;
        lent_taken = 0;
        return 0;
    }
    return system_munmap(address, length);
}

void gatehouse_memory_lend(void *base, size_t size) {
    lent_base = base;
    lent_size = size;
    lent_taken = 0;
    lent_used = 0;
}

int gatehouse_memory_end_loan(void) {
    int used = lent_used;
    lent_base = NULL;
    lent_size = 0;
    lent_taken = 0;
    lent_used = 0;
    return used;
}

int gatehouse_memory_interposes(void) {
    return dlsym(RTLD_DEFAULT, "mmap") == (void *)mmap && dlsym(RTLD_DEFAULT, "munmap") == (void *)munmap;
}

#else

void gatehouse_memory_lend(void *base, size_t size) { (void)base; (void)size; }
int gatehouse_memory_end_loan(void) { return 0; }
int gatehouse_memory_interposes(void) { return 0; }

#endif
