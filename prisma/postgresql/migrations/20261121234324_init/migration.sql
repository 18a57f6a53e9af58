-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "username" TEXT NOT NULL,
    "email" TEXT,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT,
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'user',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clients" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT,
    "redirect_uris" TEXT NOT NULL,
    "post_logout_redirect_uris" TEXT NOT NULL DEFAULT '[]',
    "grant_types" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "token_endpoint_auth_method" TEXT NOT NULL,
    "application_type" TEXT NOT NULL DEFAULT 'web',
    "logo_uri" TEXT,
    "first_party" BOOLEAN NOT NULL DEFAULT false,
    "resource_server" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_model_instances" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "grant_id" TEXT,
    "client_id" TEXT,
    "account_id" TEXT,
    "uid" TEXT,
    "user_code" TEXT,
    "expires_at" BIGINT,
    "consumed_at" BIGINT,

    CONSTRAINT "oidc_model_instances_pkey" PRIMARY KEY ("model","id")
);

-- CreateTable
CREATE TABLE "signing_keys" (
    "kid" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "private_jwk" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMP(3),

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateTable
CREATE TABLE "server_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "server_secrets_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "oidc_model_instances_grant_id_idx" ON "oidc_model_instances"("grant_id");

-- CreateIndex
CREATE INDEX "oidc_model_instances_client_id_idx" ON "oidc_model_instances"("client_id");

-- CreateIndex
CREATE INDEX "oidc_model_instances_account_id_idx" ON "oidc_model_instances"("account_id");

-- CreateIndex
CREATE INDEX "oidc_model_instances_uid_idx" ON "oidc_model_instances"("uid");

-- CreateIndex
CREATE INDEX "oidc_model_instances_user_code_idx" ON "oidc_model_instances"("user_code");

-- CreateIndex
CREATE INDEX "oidc_model_instances_expires_at_idx" ON "oidc_model_instances"("expires_at");
