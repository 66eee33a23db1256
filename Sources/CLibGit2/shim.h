#ifndef TODOSYNC_CLIBGIT2_SHIM_H
#define TODOSYNC_CLIBGIT2_SHIM_H
#include <git2.h>
#include <git2/sys/transport.h>
#include <git2/sys/repository.h>
#include <git2/sys/index.h>
#include <git2/sys/mempack.h>

/* A smart subtransport as libgit2 sees it, followed by the owner its callbacks are given
 * back (libgit2 hands back only the pointer to the first member; a stream reaches it through
 * its `subtransport`). */
typedef struct {
    git_smart_subtransport parent;
    void *owner;
} todosync_subtransport;

/* git_libgit2_opts is variadic, which Swift cannot call: the options todosync sets. */
static inline int todosync_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}

static inline int todosync_set_cache_object_limit(git_object_t type, size_t size) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, size);
}

#endif
