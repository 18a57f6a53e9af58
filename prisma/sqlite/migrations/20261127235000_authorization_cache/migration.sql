-- Nothing on SQLite: the PostgreSQL migration of this name adds the triggers that notify other instances' read caches
-- of a changed authorization model, person's links or client's permissions (lib/db/read-cache.ts); on SQLite the
-- cache follows other connections' commits by PRAGMA data_version. The name exists here too so that both histories
-- list the same migrations.
SELECT 1;
