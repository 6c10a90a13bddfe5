// Jansson, a strict JSON parser (UTF-8 checked, duplicate keys refused, nesting bounded), for
// request bodies. Foundation's JSONDecoder cost more per refresh than the rest of the request.
#include <jansson.h>
