-- CreateTable
CREATE TABLE "client_sign_in" (
    "client_id" TEXT NOT NULL PRIMARY KEY,
    "password_form" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "client_sign_in_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
