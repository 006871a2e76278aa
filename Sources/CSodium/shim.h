#include <sodium.h>
#ifdef __linux__
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
/* A hashing helper's start: close every descriptor it inherited beyond the three standard ones,
   and die with the thread that started it. */
static inline void gatehouse_hasher_detach(void) {
    syscall(SYS_close_range, 3U, ~0U, 0U);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
}
#endif
