-- Usernames become unique regardless of case (lib/db/users.ts usernameKey).
-- `username_key` is the username with its ASCII letters lowercased: translate()
-- rather than lower(), which would also fold non-ASCII letters under most
-- collations and so disagree with SQLite and with usernameKey.
-- Accounts that already differ only in case must not make this migration fail:
-- in each such group the oldest (then the smallest id) gets the plain key and
-- every other one `<key>#<id>`. No username can contain '#', so no new account
-- can take either; each still signs in with its exact spelling, and
-- reportUsernameClashes (lib/services/username-clashes.ts) names them at start
-- until an admin renames them.

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "username_key" TEXT;

UPDATE "users" AS u
SET "username_key" = CASE WHEN r.n = 1 THEN r.k ELSE r.k || '#' || u."id" END
FROM (
    SELECT "id", k, row_number() OVER (PARTITION BY k ORDER BY "created_at", "id") AS n
    FROM (SELECT "id", "created_at", translate("username", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') AS k FROM "users") AS keyed
) AS r
WHERE r."id" = u."id";

ALTER TABLE "users" ALTER COLUMN "username_key" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key_key" ON "users"("username_key");
