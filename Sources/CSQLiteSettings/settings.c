#include "sqlite_settings.h"
#include "sqlite_nio_sqlite3.h"

int gatehouse_sqlite_plan_by_text_only(struct sqlite3 *db) {
    int enabled = 0;
    int result = sqlite_nio_sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_QPSG, 1, &enabled);
    if (result != SQLITE_OK) return result;
    return enabled ? SQLITE_OK : SQLITE_ERROR;
}
