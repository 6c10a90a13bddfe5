// libpng's public header: its simplified writing API turns the demo's drawn pictures into PNG.
#include <png.h>
