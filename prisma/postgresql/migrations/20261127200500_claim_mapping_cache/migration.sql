-- Tells every instance's read cache (lib/db/read-cache.ts) that a client's claim mapping changed, so the mapping
-- the provider reads for every ID token and userinfo answer (lib/claims/repository.ts `mappedClaims`) can be kept
-- in memory. Inserts too, unlike 20261125010000_cache_invalidation: an empty mapping is what most clients have, and
-- it is kept. A mapping deleted with its attribute or its client notifies as well (cascades fire row triggers).
CREATE FUNCTION "gatehouse_claim_mapping_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':ClaimMappings:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.client_id ELSE NEW.client_id END);
  IF TG_OP = 'UPDATE' AND OLD.client_id <> NEW.client_id THEN
    PERFORM pg_notify('gatehouse_cache', TG_TABLE_SCHEMA || ':ClaimMappings:' || OLD.client_id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "client_claim_mappings_cache" AFTER INSERT OR UPDATE OR DELETE ON "client_claim_mappings"
  FOR EACH ROW EXECUTE FUNCTION "gatehouse_claim_mapping_notify"();
