/**
 * The namespace of a deployment's keys in Redis (`gatehouse:<namespace>:…`): a
 * random value kept in the database's server_secrets, so every instance of one
 * deployment (and its CLI) shares it and two deployments sharing a Redis never
 * see each other's tokens or throttling counters. Created on first use.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from './database.ts';
import { serverSecret } from './secrets.ts';

export const redisNamespace = (db: Database): Promise<string> => serverSecret(db, 'redis_namespace', () => randomBytes(12).toString('base64url'));
