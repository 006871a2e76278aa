#ifndef GATEHOUSE_SQLITE_SETTINGS_H
#define GATEHOUSE_SQLITE_SETTINGS_H

struct sqlite3;

/* Turns on SQLite's query planner stability guarantee for the connection `db` (SQLiteNIO's
 * build, `sqlite_nio_`-prefixed): a statement's plan never depends on the values bound to it,
 * so a kept statement is never compiled again because a bind changed. Returns SQLite's result
 * code. `sqlite3_db_config` is variadic, which Swift cannot call. */
int gatehouse_sqlite_plan_by_text_only(struct sqlite3 *db);

#endif
