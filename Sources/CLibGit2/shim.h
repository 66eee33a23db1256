#ifndef TODOSYNC_CLIBGIT2_SHIM_H
#define TODOSYNC_CLIBGIT2_SHIM_H
#include <git2.h>
#endif
