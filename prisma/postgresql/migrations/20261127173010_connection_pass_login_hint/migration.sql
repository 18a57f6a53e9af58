-- AlterTable
ALTER TABLE "connections" ADD COLUMN "pass_login_hint" BOOLEAN NOT NULL DEFAULT true;
