-- retired_at was never set: a row that had one was no longer published, and goes.
DELETE FROM "signing_keys" WHERE "retired_at" IS NOT NULL;

-- AlterTable
ALTER TABLE "signing_keys" DROP COLUMN "retired_at",
ADD COLUMN     "activates_at" TIMESTAMP(3),
ADD COLUMN     "retire_after" TIMESTAMP(3),
ADD COLUMN     "state" TEXT NOT NULL DEFAULT 'current';

-- Every key that was published is current (the oldest of each alg signed); a second
-- current key of an alg is made previous by the first rotation check (lib/services/signing-keys.ts).
UPDATE "signing_keys" SET "activates_at" = "created_at";
