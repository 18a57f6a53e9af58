-- AlterTable
ALTER TABLE "users" ADD COLUMN "family_name" TEXT;
ALTER TABLE "users" ADD COLUMN "given_name" TEXT;
ALTER TABLE "users" ADD COLUMN "locale" TEXT;
ALTER TABLE "users" ADD COLUMN "phone_number" TEXT;
ALTER TABLE "users" ADD COLUMN "phone_number_verified" BOOLEAN;
ALTER TABLE "users" ADD COLUMN "picture" TEXT;
ALTER TABLE "users" ADD COLUMN "zoneinfo" TEXT;

-- CreateTable
CREATE TABLE "user_attributes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'string',
    "editable_by" TEXT NOT NULL DEFAULT 'admin',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "user_attribute_values" (
    "user_id" TEXT NOT NULL,
    "attribute_id" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL,

    PRIMARY KEY ("user_id", "attribute_id"),
    CONSTRAINT "user_attribute_values_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "user_attribute_values_attribute_id_fkey" FOREIGN KEY ("attribute_id") REFERENCES "user_attributes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "client_claim_mappings" (
    "client_id" TEXT NOT NULL,
    "claim" TEXT NOT NULL,
    "attribute_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("client_id", "claim"),
    CONSTRAINT "client_claim_mappings_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "client_claim_mappings_attribute_id_fkey" FOREIGN KEY ("attribute_id") REFERENCES "user_attributes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "user_attributes_key_key" ON "user_attributes"("key");

-- CreateIndex
CREATE INDEX "user_attribute_values_attribute_id_idx" ON "user_attribute_values"("attribute_id");

-- CreateIndex
CREATE INDEX "client_claim_mappings_attribute_id_idx" ON "client_claim_mappings"("attribute_id");
