-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_signing_keys" (
    "kid" TEXT NOT NULL PRIMARY KEY,
    "alg" TEXT NOT NULL,
    "private_jwk" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'current',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "activates_at" DATETIME,
    "retire_after" DATETIME
);
-- Kept: every key that was published (all of them current, as the oldest of each alg signed);
-- a second current key of an alg is made previous by the first rotation check (lib/services/signing-keys.ts).
-- retired_at was never set: a row that had one was no longer published, and goes.
INSERT INTO "new_signing_keys" ("alg", "created_at", "kid", "private_jwk", "state", "activates_at")
  SELECT "alg", "created_at", "kid", "private_jwk", 'current', "created_at" FROM "signing_keys" WHERE "retired_at" IS NULL;
DROP TABLE "signing_keys";
ALTER TABLE "new_signing_keys" RENAME TO "signing_keys";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
