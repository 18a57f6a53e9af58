-- AlterTable
-- In place (no table rebuild): existing connections keep passing login_hint, as before.
ALTER TABLE "connections" ADD COLUMN "pass_login_hint" BOOLEAN NOT NULL DEFAULT true;
