-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_mail_links" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "code_hash" TEXT,
    "code_expires_at" DATETIME,
    "code_failures" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "mail_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_mail_links" ("created_at", "email", "expires_at", "id", "purpose", "used_at", "user_id") SELECT "created_at", "email", "expires_at", "id", "purpose", "used_at", "user_id" FROM "mail_links";
DROP TABLE "mail_links";
ALTER TABLE "new_mail_links" RENAME TO "mail_links";
CREATE INDEX "mail_links_user_id_purpose_idx" ON "mail_links"("user_id", "purpose");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
