// libpq, PostgreSQL's client library: the shared store when several instances serve one feed.
#include <libpq-fe.h>
