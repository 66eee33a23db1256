#ifndef TODOSYNC_CLIBGIT2_SHIM_H
#define TODOSYNC_CLIBGIT2_SHIM_H
#include <git2.h>
#include <git2/sys/transport.h>

/* A smart subtransport and its stream as libgit2 sees them, followed by the owner the
 * callbacks are given back (libgit2 hands back only the pointer to the first member). */
typedef struct {
    git_smart_subtransport parent;
    void *owner;
} todosync_subtransport;

typedef struct {
    git_smart_subtransport_stream parent;
    void *owner;
} todosync_subtransport_stream;

#endif
