-- CreateTable
CREATE TABLE "data_migrations" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "applied_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
