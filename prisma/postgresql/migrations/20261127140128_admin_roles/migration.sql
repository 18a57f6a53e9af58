-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "actor_role" TEXT;

-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "admin_role" TEXT NOT NULL DEFAULT 'admin';

-- Admin roles: whoever held the one admin role before could do everything, as an owner can now.
UPDATE "users" SET "role" = 'owner' WHERE "role" = 'admin';
