-- AlterTable
ALTER TABLE "users" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "password_imported" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "users_external_id_key" ON "users"("external_id");
