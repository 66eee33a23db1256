#define _GNU_SOURCE
#include "file_swap.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__APPLE__)
int todosync_exchange_paths(const char *a, const char *b) {
    return renamex_np(a, b, RENAME_SWAP);
}
#elif defined(__linux__) && defined(RENAME_EXCHANGE)
int todosync_exchange_paths(const char *a, const char *b) {
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}
#else
int todosync_exchange_paths(const char *a, const char *b) {
    (void)a; (void)b;
    errno = ENOSYS;
    return -1;
}
#endif
