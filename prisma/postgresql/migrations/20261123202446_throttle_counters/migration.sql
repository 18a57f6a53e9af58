-- CreateTable
CREATE TABLE "throttle_counters" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "throttle_counters_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "throttle_counters_expire_idx" ON "throttle_counters"("expire");
