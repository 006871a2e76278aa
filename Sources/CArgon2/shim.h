#include <argon2.h>
#ifdef __linux__
#include <unistd.h>
#include <sys/syscall.h>
/* The calling thread's kernel id, so the hashing threads can lower their own priority. */
static inline int gatehouse_thread_id(void) { return (int)syscall(SYS_gettid); }
#endif
