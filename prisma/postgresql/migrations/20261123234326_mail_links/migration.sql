-- CreateTable
CREATE TABLE "mail_links" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mail_links_user_id_purpose_idx" ON "mail_links"("user_id", "purpose");

-- AddForeignKey
ALTER TABLE "mail_links" ADD CONSTRAINT "mail_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
