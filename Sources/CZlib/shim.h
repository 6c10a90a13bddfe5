// zlib, which the tests read gzip back with: an implementation other than the one that wrote it.
#include <zlib.h>
