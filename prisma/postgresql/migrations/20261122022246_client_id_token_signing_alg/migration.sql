-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "id_token_signed_response_alg" TEXT NOT NULL DEFAULT 'RS256';
