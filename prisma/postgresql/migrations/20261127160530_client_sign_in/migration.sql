-- CreateTable
CREATE TABLE "client_sign_in" (
    "client_id" TEXT NOT NULL,
    "password_form" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "client_sign_in_pkey" PRIMARY KEY ("client_id")
);

-- AddForeignKey
ALTER TABLE "client_sign_in" ADD CONSTRAINT "client_sign_in_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;
