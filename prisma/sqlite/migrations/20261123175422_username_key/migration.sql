-- Usernames become unique regardless of case (lib/db/users.ts usernameKey).
-- `username_key` is the username with its ASCII letters lowercased: SQLite's
-- lower() folds ASCII only, as usernameKey does, and usernames are ASCII.
-- Accounts that already differ only in case must not make this migration fail:
-- in each such group the oldest (then the smallest id) gets the plain key and
-- every other one `<key>#<id>`. No username can contain '#', so no new account
-- can take either; each still signs in with its exact spelling, and
-- reportUsernameClashes (lib/services/username-clashes.ts) names them at start
-- until an admin renames them.

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_users" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "username" TEXT NOT NULL,
    "username_key" TEXT NOT NULL,
    "email" TEXT,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT,
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'user',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_users" ("created_at", "disabled", "email", "email_verified", "id", "name", "password_hash", "role", "updated_at", "username", "username_key")
SELECT "created_at", "disabled", "email", "email_verified", "id", "name", "password_hash", "role", "updated_at", "username",
    CASE WHEN ROW_NUMBER() OVER (PARTITION BY lower("username") ORDER BY "created_at", "id") = 1
        THEN lower("username")
        ELSE lower("username") || '#' || "id"
    END
FROM "users";
DROP TABLE "users";
ALTER TABLE "new_users" RENAME TO "users";
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");
CREATE UNIQUE INDEX "users_username_key_key" ON "users"("username_key");
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
