-- AlterTable: columns added in place rather than the users table rebuilt, so the rows, their
-- order and any column another migration adds to users stay as they are.
ALTER TABLE "users" ADD COLUMN "external_id" TEXT;
ALTER TABLE "users" ADD COLUMN "password_imported" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "users_external_id_key" ON "users"("external_id");
