#ifndef NUDGE_CSQLITE_SHIM_H
#define NUDGE_CSQLITE_SHIM_H

#include <sqlite3.h>

/// sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, 0): the connection's close
/// leaves the write-ahead log alone (no checkpoint, no delete). sqlite3_db_config is
/// variadic, which Swift cannot call.
static inline int nudge_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
