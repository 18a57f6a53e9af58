-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "actor_role" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_clients" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT,
    "redirect_uris" TEXT NOT NULL,
    "post_logout_redirect_uris" TEXT NOT NULL DEFAULT '[]',
    "grant_types" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "token_endpoint_auth_method" TEXT NOT NULL,
    "application_type" TEXT NOT NULL DEFAULT 'web',
    "logo_uri" TEXT,
    "first_party" BOOLEAN NOT NULL DEFAULT false,
    "resource_server" BOOLEAN NOT NULL DEFAULT false,
    "admin_api" BOOLEAN NOT NULL DEFAULT false,
    "admin_role" TEXT NOT NULL DEFAULT 'admin',
    "id_token_signed_response_alg" TEXT NOT NULL DEFAULT 'RS256',
    "require_second_factor" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_clients" ("admin_api", "application_type", "created_at", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "require_second_factor", "resource_server", "scope", "secret_hash", "token_endpoint_auth_method", "updated_at") SELECT "admin_api", "application_type", "created_at", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "require_second_factor", "resource_server", "scope", "secret_hash", "token_endpoint_auth_method", "updated_at" FROM "clients";
DROP TABLE "clients";
ALTER TABLE "new_clients" RENAME TO "clients";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Admin roles: whoever held the one admin role before could do everything, as an owner can now.
UPDATE "users" SET "role" = 'owner' WHERE "role" = 'admin';
