#ifndef TODOSYNC_CZLIB_SHIM_H
#define TODOSYNC_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros, which Swift cannot call. */
static inline int todosync_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

static inline int todosync_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
#endif
