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
INSERT INTO "new_clients" ("admin_api", "application_type", "approval_pending", "backchannel_logout_session_required", "backchannel_logout_uri", "created_at", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "initial_access_token_id", "last_used_at", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "registered_dynamically", "require_second_factor", "resource_server", "scope", "secret_hash", "token_endpoint_auth_method", "updated_at") SELECT "admin_api", "application_type", "approval_pending", "backchannel_logout_session_required", "backchannel_logout_uri", "created_at", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "initial_access_token_id", "last_used_at", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "registered_dynamically", "require_second_factor", "resource_server", "scope", "secret_hash", "token_endpoint_auth_method", "updated_at" FROM "clients";
DROP TABLE "clients";
ALTER TABLE "new_clients" RENAME TO "clients";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
