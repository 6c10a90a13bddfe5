// zlib, for gzip-compressing static files once at start.
#include <zlib.h>
