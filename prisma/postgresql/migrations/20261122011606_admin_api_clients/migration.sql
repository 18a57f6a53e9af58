-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "admin_api" BOOLEAN NOT NULL DEFAULT false;
