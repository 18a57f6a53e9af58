-- A group's SCIM externalId (lib/scim/groups.ts): the provisioning client's own id for it, unique when set, so a
-- client finds the group it made with `externalId eq` (RFC 7643 §3.1).
ALTER TABLE "groups" ADD COLUMN "external_id" TEXT;

CREATE UNIQUE INDEX "groups_external_id_key" ON "groups"("external_id");
