-- CreateTable
CREATE TABLE "connections" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "icon" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "issuer" TEXT,
    "authorization_endpoint" TEXT,
    "token_endpoint" TEXT,
    "userinfo_endpoint" TEXT,
    "emails_endpoint" TEXT,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT,
    "scopes" TEXT NOT NULL DEFAULT 'openid profile email',
    "pkce" BOOLEAN NOT NULL DEFAULT true,
    "claim_mapping" TEXT NOT NULL DEFAULT '{}',
    "jit_create" BOOLEAN NOT NULL DEFAULT false,
    "jit_state" TEXT NOT NULL DEFAULT 'enabled',
    "email_domains" TEXT NOT NULL DEFAULT '[]',
    "client_ids" TEXT NOT NULL DEFAULT '[]',
    "trusted_for_mfa" BOOLEAN NOT NULL DEFAULT false,
    "upstream_logout" BOOLEAN NOT NULL DEFAULT false,
    "keep_tokens" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "federated_identities" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "connection_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" DATETIME,
    "upstream_tokens" TEXT,
    CONSTRAINT "federated_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "federated_identities_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "connections" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "connections_slug_key" ON "connections"("slug");

-- CreateIndex
CREATE INDEX "federated_identities_user_id_idx" ON "federated_identities"("user_id");

-- CreateIndex
CREATE INDEX "federated_identities_connection_id_idx" ON "federated_identities"("connection_id");

-- CreateIndex
CREATE UNIQUE INDEX "federated_identities_issuer_subject_key" ON "federated_identities"("issuer", "subject");
