-- Tells every instance's read cache (lib/db/read-cache.ts) that a grant, a session, a client or an
-- account changed or went, whoever changed it (the provider, the portal, the CLI, a migration): one
-- notification per row on the channel gatehouse_cache, sent by PostgreSQL at commit, never for a
-- write that rolled back. The payload is "<schema>:<Model>:<key>", a session's key its uid.
-- Inserts need none: the caches keep nothing that was missing.
CREATE FUNCTION "gatehouse_cache_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'oidc_model_instances' THEN
    PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':' || OLD.model || ':' || CASE WHEN OLD.model = 'Session' THEN coalesce(OLD.uid, '') ELSE OLD.id END);
  ELSIF TG_TABLE_NAME = 'clients' THEN
    PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':Client:' || OLD.id);
  ELSE
    PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':Account:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;

-- Only grants and sessions: tokens and codes are not cached, and their writes should cost nothing more.
CREATE TRIGGER "oidc_model_instances_cache" AFTER UPDATE OR DELETE ON "oidc_model_instances"
  FOR EACH ROW WHEN (OLD."model" IN ('Grant', 'Session')) EXECUTE FUNCTION "gatehouse_cache_notify"();

CREATE TRIGGER "clients_cache" AFTER UPDATE OR DELETE ON "clients"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_cache_notify"();

CREATE TRIGGER "users_cache" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_cache_notify"();
