// SQLite, the embedded store.
#include <sqlite3.h>
