-- CreateTable
CREATE TABLE "throttle_counters" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT
);

-- CreateIndex
CREATE INDEX "throttle_counters_expire_idx" ON "throttle_counters"("expire");
