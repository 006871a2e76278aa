#include <argon2.h>
#ifdef __linux__
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
/* The calling thread's kernel id, so the hashing threads can lower their own priority. */
static inline int gatehouse_thread_id(void) { return (int)syscall(SYS_gettid); }
/* Names the calling thread for `top -H` and /proc (the kernel keeps 15 bytes of it). */
static inline void gatehouse_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }
#endif
