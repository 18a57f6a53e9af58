-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "approval_pending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "backchannel_logout_session_required" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "backchannel_logout_uri" TEXT,
ADD COLUMN     "initial_access_token_id" TEXT,
ADD COLUMN     "last_used_at" TIMESTAMP(3),
ADD COLUMN     "registered_dynamically" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "backchannel_logouts" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "sid" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "last_error" TEXT,

    CONSTRAINT "backchannel_logouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "initial_access_tokens" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "max_clients" INTEGER NOT NULL,
    "clients_registered" INTEGER NOT NULL DEFAULT 0,
    "redirect_hosts" TEXT NOT NULL,
    "grant_types" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "require_approval" BOOLEAN NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "initial_access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "backchannel_logouts_next_attempt_at_idx" ON "backchannel_logouts"("next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "initial_access_tokens_token_hash_key" ON "initial_access_tokens"("token_hash");
