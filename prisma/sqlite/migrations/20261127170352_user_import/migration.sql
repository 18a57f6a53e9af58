-- CreateTable
CREATE TABLE "user_imports" (
    "user_id" TEXT NOT NULL PRIMARY KEY,
    "external_id" TEXT NOT NULL,
    "password_imported" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_imports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "user_imports_external_id_key" ON "user_imports"("external_id");
