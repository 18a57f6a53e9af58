-- Nothing on SQLite: the PostgreSQL migration of this name adds the triggers that notify
-- other instances' read caches (lib/db/read-cache.ts), which SQLite, one process, does not keep.
-- The name exists here too so that both histories list the same migrations.
SELECT 1;
