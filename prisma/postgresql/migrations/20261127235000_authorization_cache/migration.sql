-- Tells every instance's read cache (lib/db/read-cache.ts) that the authorization model changed, so what every token
-- for an API reads (lib/authorization/repository.ts: the model's snapshot, a person's roles and groups, a client's
-- permissions) can be kept in memory. Inserts too: an empty list of roles or groups is kept like any other. Deletes
-- that cascade (a group, a role, an API, a person, a client) fire these row triggers as well.
CREATE FUNCTION "gatehouse_authorization_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  changed := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  IF TG_TABLE_NAME IN ('user_roles', 'group_members') THEN
    PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':AccessOf:' || changed.user_id);
    IF TG_OP = 'UPDATE' AND OLD.user_id <> NEW.user_id THEN
      PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':AccessOf:' || OLD.user_id);
    END IF;
  ELSIF TG_TABLE_NAME = 'client_permissions' THEN
    PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':ClientPermissions:' || changed.client_id);
    IF TG_OP = 'UPDATE' AND OLD.client_id <> NEW.client_id THEN
      PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':ClientPermissions:' || OLD.client_id);
    END IF;
  ELSE
    PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':AccessModel');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "apis_cache" AFTER INSERT OR UPDATE OR DELETE ON "apis"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "api_permissions_cache" AFTER INSERT OR UPDATE OR DELETE ON "api_permissions"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "roles_cache" AFTER INSERT OR UPDATE OR DELETE ON "roles"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "role_permissions_cache" AFTER INSERT OR UPDATE OR DELETE ON "role_permissions"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "groups_cache" AFTER INSERT OR UPDATE OR DELETE ON "groups"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "group_roles_cache" AFTER INSERT OR UPDATE OR DELETE ON "group_roles"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "group_members_cache" AFTER INSERT OR UPDATE OR DELETE ON "group_members"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "user_roles_cache" AFTER INSERT OR UPDATE OR DELETE ON "user_roles"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
CREATE TRIGGER "client_permissions_cache" AFTER INSERT OR UPDATE OR DELETE ON "client_permissions"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_authorization_notify"();
