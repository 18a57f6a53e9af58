-- AlterTable
ALTER TABLE "mail_links" ADD COLUMN     "code_expires_at" TIMESTAMP(3),
ADD COLUMN     "code_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "code_hash" TEXT;
