#ifndef TODOSYNC_FILE_SWAP_H
#define TODOSYNC_FILE_SWAP_H

/* Swaps the directory entries `a` and `b` in one atomic step (Linux renameat2 with
 * RENAME_EXCHANGE, macOS renamex_np with RENAME_SWAP). Returns 0, or -1 with errno set;
 * errno is EINVAL or ENOTSUP where the file system cannot, ENOSYS where the system cannot. */
int todosync_exchange_paths(const char *a, const char *b);

/* 1 where `todosync_flush_file_system` is known to flush to disk: Linux, on a local disk
 * file system (ext4, XFS, Btrfs, F2FS); 0 elsewhere (FUSE's syncfs, for one, flushed
 * nothing on older kernels). */
int todosync_flushes_whole_file_system(int fd);

/* Flushes everything written to the file system holding `fd` to disk, reporting a failed
 * write since `fd` was opened (Linux syncfs). Returns 0, or -1 with errno set. */
int todosync_flush_file_system(int fd);

#endif
