// libdeflate, for gzip-compressing the static files and `/` once per version of each.
#include <libdeflate.h>
