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

#if defined(__linux__)
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>
int todosync_flushes_whole_file_system(int fd) {
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return 0;
    switch ((unsigned long)info.f_type) {
    case EXT4_SUPER_MAGIC: case XFS_SUPER_MAGIC: case BTRFS_SUPER_MAGIC: case F2FS_SUPER_MAGIC:
        return 1;
    default:
        return 0;
    }
}
int todosync_flush_file_system(int fd) {
    return syncfs(fd);
}
#else
int todosync_flushes_whole_file_system(int fd) {
    (void)fd;
    return 0;
}
int todosync_flush_file_system(int fd) {
    (void)fd;
    errno = ENOSYS;
    return -1;
}
#endif
