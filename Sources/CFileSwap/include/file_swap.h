#ifndef TODOSYNC_FILE_SWAP_H
#define TODOSYNC_FILE_SWAP_H

/* Swaps the directory entries `a` and `b` in one atomic step (Linux renameat2 with
 * RENAME_EXCHANGE, macOS renamex_np with RENAME_SWAP). Returns 0, or -1 with errno set;
 * errno is EINVAL or ENOTSUP where the file system cannot, ENOSYS where the system cannot. */
int todosync_exchange_paths(const char *a, const char *b);

#endif
