// cairo's public header: the demo's pictures drawn and written as PNG.
#include <cairo.h>
