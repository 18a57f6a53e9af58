-- AlterTable
ALTER TABLE "users" ADD COLUMN     "requires_verified_email" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "password_hash" DROP NOT NULL;
