-- AlterTable
ALTER TABLE "users" ADD COLUMN     "family_name" TEXT,
ADD COLUMN     "given_name" TEXT,
ADD COLUMN     "locale" TEXT,
ADD COLUMN     "phone_number" TEXT,
ADD COLUMN     "phone_number_verified" BOOLEAN,
ADD COLUMN     "picture" TEXT,
ADD COLUMN     "zoneinfo" TEXT;

-- CreateTable
CREATE TABLE "user_attributes" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'string',
    "editable_by" TEXT NOT NULL DEFAULT 'admin',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_attributes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_attribute_values" (
    "user_id" TEXT NOT NULL,
    "attribute_id" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "user_attribute_values_pkey" PRIMARY KEY ("user_id","attribute_id")
);

-- CreateTable
CREATE TABLE "client_claim_mappings" (
    "client_id" TEXT NOT NULL,
    "claim" TEXT NOT NULL,
    "attribute_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "client_claim_mappings_pkey" PRIMARY KEY ("client_id","claim")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_attributes_key_key" ON "user_attributes"("key");

-- CreateIndex
CREATE INDEX "user_attribute_values_attribute_id_idx" ON "user_attribute_values"("attribute_id");

-- CreateIndex
CREATE INDEX "client_claim_mappings_attribute_id_idx" ON "client_claim_mappings"("attribute_id");

-- AddForeignKey
ALTER TABLE "user_attribute_values" ADD CONSTRAINT "user_attribute_values_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_attribute_values" ADD CONSTRAINT "user_attribute_values_attribute_id_fkey" FOREIGN KEY ("attribute_id") REFERENCES "user_attributes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_claim_mappings" ADD CONSTRAINT "client_claim_mappings_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_claim_mappings" ADD CONSTRAINT "client_claim_mappings_attribute_id_fkey" FOREIGN KEY ("attribute_id") REFERENCES "user_attributes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
