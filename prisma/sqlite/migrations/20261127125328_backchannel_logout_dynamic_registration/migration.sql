-- CreateTable
CREATE TABLE "backchannel_logouts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "client_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "sid" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "last_error" TEXT
);

-- CreateTable
CREATE TABLE "initial_access_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "token_hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "max_clients" INTEGER NOT NULL,
    "clients_registered" INTEGER NOT NULL DEFAULT 0,
    "redirect_hosts" TEXT NOT NULL,
    "grant_types" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "require_approval" BOOLEAN NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "revoked_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

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
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_clients" ("admin_api", "application_type", "created_at", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "require_second_factor", "resource_server", "scope", "secret_hash", "token_endpoint_auth_method", "updated_at") SELECT "admin_api", "application_type", "created_at", "enabled", "first_party", "grant_types", "id", "id_token_signed_response_alg", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "require_second_factor", "resource_server", "scope", "secret_hash", "token_endpoint_auth_method", "updated_at" FROM "clients";
DROP TABLE "clients";
ALTER TABLE "new_clients" RENAME TO "clients";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "backchannel_logouts_next_attempt_at_idx" ON "backchannel_logouts"("next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "initial_access_tokens_token_hash_key" ON "initial_access_tokens"("token_hash");
