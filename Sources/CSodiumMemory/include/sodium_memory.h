#ifndef GATEHOUSE_SODIUM_MEMORY_H
#define GATEHOUSE_SODIUM_MEMORY_H

// Memory lent to libsodium's argon2id (issue 41).
//
// libsodium maps a fresh 19 MiB region for every hash and unmaps it after: on this hardware
// the kernel spends about 9 of a hash's 21 ms allocating and zeroing those pages, and two
// threads doing so at once contend for the process's memory-map lock. libsodium offers no
// allocator hook, so on Linux this target defines `mmap` and `munmap` in the executable, which
// the dynamic linker binds libsodium's calls to. They pass every call through to the C
// library, except while the calling thread has lent a region: then the thread's next private
// anonymous read-write mapping that fits is that region, and unmapping it keeps it for the next.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Lends `size` bytes at `base` to the calling thread's next fitting anonymous mapping.
void gatehouse_memory_lend(void *base, size_t size);

/// Ends the calling thread's loan; returns 1 if a mapping was served from it, else 0.
int gatehouse_memory_end_loan(void);

/// 1 when this process's `mmap` is the one defined here, so a loan can be taken; else 0 (not
/// Linux, or an executable whose linker did not export the definition).
int gatehouse_memory_interposes(void);

#ifdef __cplusplus
}
#endif

#endif
