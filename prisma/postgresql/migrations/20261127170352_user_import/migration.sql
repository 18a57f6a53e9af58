-- CreateTable
CREATE TABLE "user_imports" (
    "user_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "password_imported" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_imports_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_imports_external_id_key" ON "user_imports"("external_id");

-- AddForeignKey
ALTER TABLE "user_imports" ADD CONSTRAINT "user_imports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
