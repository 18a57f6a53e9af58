-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "require_second_factor" BOOLEAN NOT NULL DEFAULT false;
