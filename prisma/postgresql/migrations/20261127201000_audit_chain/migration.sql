-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "hash" TEXT,
ADD COLUMN     "prev_hash" TEXT,
ADD COLUMN     "seq" INTEGER;

-- CreateTable
CREATE TABLE "audit_chain_heads" (
    "id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_chain_heads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_checkpoints" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "kid" TEXT NOT NULL,
    "jws" TEXT NOT NULL,

    CONSTRAINT "audit_checkpoints_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_checkpoints_seq_idx" ON "audit_checkpoints"("seq");

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_seq_key" ON "audit_events"("seq");

-- The chain's genesis: entries from before this migration stay out of it (seq null); the first entry after it is
-- seq 1, whose prev_hash is 64 zeros (lib/audit/chain.ts GENESIS_HASH).
INSERT INTO "audit_chain_heads" ("id", "seq", "hash") VALUES ('audit', 0, '0000000000000000000000000000000000000000000000000000000000000000');
