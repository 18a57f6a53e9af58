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
    "backchannel_logout_uri" TEXT,
    "backchannel_logout_session_required" BOOLEAN NOT NULL DEFAULT false,
    "registered_dynamically" BOOLEAN NOT NULL DEFAULT false,
    "approval_pending" BOOLEAN NOT NULL DEFAULT false,
    "initial_access_token_id" TEXT,
    "last_used_at" DATETIME,
    "require_pushed_authorization_requests" BOOLEAN NOT NULL DEFAULT false,
    "request_object_signing_alg" TEXT,
    "jwks" TEXT,
    "dpop_bound_access_tokens" BOOLEAN NOT NULL DEFAULT false,
    "subject_type" TEXT NOT NULL DEFAULT 'public',
    "sector_identifier_uri" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_clients" ("admin_api", "application_type", "approval_pending", "backchannel_logout_session_required", "backchannel_logout_uri", "created_at", "dpop_bound_access_tokens", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "initial_access_token_id", "jwks", "last_used_at", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "registered_dynamically", "request_object_signing_alg", "require_pushed_authorization_requests", "require_second_factor", "resource_server", "scope", "secret_hash", "sector_identifier_uri", "subject_type", "token_endpoint_auth_method", "updated_at") SELECT "admin_api", "application_type", "approval_pending", "backchannel_logout_session_required", "backchannel_logout_uri", "created_at", "dpop_bound_access_tokens", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "initial_access_token_id", "jwks", "last_used_at", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "registered_dynamically", "request_object_signing_alg", "require_pushed_authorization_requests", "require_second_factor", "resource_server", "scope", "secret_hash", "sector_identifier_uri", "subject_type", "token_endpoint_auth_method", "updated_at" FROM "clients";
DROP TABLE "clients";
ALTER TABLE "new_clients" RENAME TO "clients";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Admin roles: whoever held the one admin role before could do everything, as an owner can now.
UPDATE "users" SET "role" = 'owner' WHERE "role" = 'admin';
