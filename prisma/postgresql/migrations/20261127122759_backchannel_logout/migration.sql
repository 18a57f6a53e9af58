-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "backchannel_logout_session_required" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "backchannel_logout_uri" TEXT;

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

-- CreateIndex
CREATE INDEX "backchannel_logouts_next_attempt_at_idx" ON "backchannel_logouts"("next_attempt_at");
