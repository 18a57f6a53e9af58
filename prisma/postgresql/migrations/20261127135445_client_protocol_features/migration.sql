-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "dpop_bound_access_tokens" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "jwks" TEXT,
ADD COLUMN     "request_object_signing_alg" TEXT,
ADD COLUMN     "require_pushed_authorization_requests" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "sector_identifier_uri" TEXT,
ADD COLUMN     "subject_type" TEXT NOT NULL DEFAULT 'public';
