/**
 * What every /api/admin route handler is: `adminRoute(endpoint)` authorizes
 * the caller (auth.ts), validates path parameters, query and JSON body with
 * the operation's schemas (operations.ts), runs the use case, checks its
 * answer against the response schema, and turns every failure into the one
 * error model (errors.ts). Every answer carries Cache-Control: no-store and
 * the request id. A route file exports `adminRoutes(<endpoint>, ...)`: its
 * operations, and a 405 for every other method.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Env } from '../../config/env.ts';
import type { Database } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Log } from '../../ops/log.ts';
import { serverContext } from '../../context.ts';
import type { Throttle } from '../../platform/throttle.ts';
import { checkAdminToken } from '../../oidc/admin-token.ts';
import { clientActor, requestContext, type AuditBy } from '../../audit/log.ts';
import { requestIdOf } from '../../platform/request-context.ts';
import { adminSessionAccess } from '../portal/session.ts';
import { authorizeAdminRequest, callerRole, type AdminCaller, type AuthSources } from './auth.ts';
import { Forbidden, MethodNotAllowed, NotFound } from '../../platform/errors.ts';
import { may, mayActOn, mayActOnClient } from '../../admin-roles/roles.ts';
import { findClient } from '../../clients/repository.ts';
import { findUserById } from '../../users/repository.ts';
import { apiHeaders, errorResponse, invalidRequest } from './errors.ts';
import { readJsonBody } from './http.ts';
import type { Method, Operation } from './operations.ts';

type Out<O, K extends 'params' | 'query' | 'body'> = O extends { [key in K]: infer S extends z.ZodType } ? z.output<S> : undefined;
type Result<O> = O extends { produces: object } ? Response : O extends { response: infer R extends z.ZodType } ? z.input<R> : void;

export interface AdminContext<O extends Operation> {
  request: Request;
  caller: AdminCaller;
  /** Who acts, for the audit log: the signed-in admin, or the client as `client:<client_id>`, from this request's address. */
  by: AuditBy;
  db: Database;
  config: Env;
  /** The process's counters of failed sign-ins, for the lock on a user (read on first use). */
  throttle: Throttle;
  /** Outgoing mail, for the links a new user gets (read on first use), and the clock their expiry counts from. */
  mailer: Mailer;
  /** The process's log, for what a use case reports without failing (a mail that could not be sent). */
  log: Log;
  now: () => number;
  /** Serves changed signing keys from this instance at once (lib/context.ts); the others follow within seconds. */
  refreshProvider: () => Promise<boolean>;
  params: Out<O, 'params'>;
  query: Out<O, 'query'>;
  body: Out<O, 'body'>;
}

export interface Endpoint<O extends Operation = Operation> {
  operation: O;
  handle(context: AdminContext<O>): Promise<Result<O>>;
}

/** Binds a use case to its operation; the route file passes the result to `adminRoute`. */
export function endpoint<O extends Operation>(operation: O, handle: (context: AdminContext<O>) => Promise<Result<O>>): Endpoint<O> {
  return { operation, handle };
}

function liveSources(): AuthSources {
  return {
    issuer: serverContext().config.ISSUER,
    session: adminSessionAccess,
    bearer: async (token) => {
      const check = await checkAdminToken(await serverContext().provider(), token);
      if (check.kind !== 'client') return check;
      // The role is read on every request, as a person's is: a changed role takes effect at once.
      const client = await findClient(serverContext().db, check.clientId);
      return client ? { ...check, role: client.adminRole } : { kind: 'invalid' };
    },
  };
}

/**
 * The admin API's one authorization check after authentication: the caller's admin role must allow the
 * operation's permission (the table in lib/admin-roles/roles.ts), and (checkTarget) an operation on a
 * person's account needs a role that may act on theirs. A refusal is 403 in the API's error model.
 */
function checkPermission(operation: Operation, caller: AdminCaller): void {
  const role = callerRole(caller);
  if (!may(role, operation.permission)) {
    throw new Forbidden(`the ${role} admin role may not do this (it needs the ${operation.permission} permission)`);
  }
}

/** The second half of the check, once the path is valid: whether the caller's role may act on the person or client `{id}` names. */
async function checkTarget(db: Database, operation: Operation, caller: AdminCaller, params: unknown): Promise<void> {
  const role = callerRole(caller);
  const id = (params as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return;
  // An unknown id passes: the use case answers it as not found.
  if (operation.actsOn === 'user') {
    const target = await findUserById(db, id);
    if (target && !mayActOn(role, target.role))
      throw new Forbidden(`the ${role} admin role may not change the account of a person with the ${target.role} role`);
  }
  if (operation.actsOn === 'client') {
    const target = await findClient(db, id);
    if (target && !mayActOnClient(role, target)) throw new Forbidden(`the ${role} admin role may not change a client that acts as owner`);
  }
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidRequest(result.error, {}, where);
  return result.data;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function adminRoute<O extends Operation>({ operation, handle }: Endpoint<O>) {
  return async (request: Request, route?: RouteContext): Promise<Response> => {
    const requestId = requestIdOf(request.headers) ?? randomUUID();
    try {
      const caller = await authorizeAdminRequest(request, liveSources());
      const by: AuditBy = {
        actor:
          caller.kind === 'session'
            ? { id: caller.admin.id, username: caller.admin.username, role: caller.admin.role }
            : clientActor(caller.clientId, caller.role),
        context: requestContext(request.headers),
      };
      const url = new URL(request.url);
      // Refused before anything is validated: a role without the permission learns nothing more from a 400.
      checkPermission(operation, caller);
      const params = operation.params ? parsed(operation.params, (await route?.params) ?? {}, 'path') : undefined;
      await checkTarget(serverContext().db, operation, caller, params);
      const query = operation.query ? parsed(operation.query, Object.fromEntries(url.searchParams), 'query') : undefined;
      const body = operation.body ? parsed(operation.body, await readJsonBody(request), 'body') : undefined;
      const server = serverContext();
      const context = {
        request,
        caller,
        by,
        db: server.db,
        config: server.config,
        params,
        query,
        body,
        now: server.now,
        log: server.log.child({ request_id: requestId }),
        refreshProvider: () => server.refreshProvider(),
        // Getters, so only the operations that read them open the counters or the mail transport.
        get throttle() {
          return server.throttle;
        },
        get mailer() {
          return server.mailer;
        },
      };
      const result = await handle(context as AdminContext<O>);
      if (operation.produces && (result as unknown) instanceof Response) {
        const response = result as unknown as Response;
        for (const [name, value] of Object.entries(apiHeaders(requestId))) response.headers.set(name, value);
        return response;
      }
      if (operation.status === 204 || !operation.response) return new Response(null, { status: 204, headers: apiHeaders(requestId) });
      // The answer is checked too: a field that should not be there (a secret, a hash) is a bug, answered as server_error.
      return Response.json(operation.response.parse(result), { status: operation.status, headers: apiHeaders(requestId) });
    } catch (error) {
      return errorResponse(error, requestId, serverContext().log);
    }
  };
}

type RouteHandler = (request: Request, route?: RouteContext) => Promise<Response>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const satisfies readonly Method[];

/**
 * A route file's handlers, one per method: its endpoints' (each under its operation's method), and
 * for every other method a 405 in the one error model with the methods the path has in Allow
 * (RFC 9110 §15.5.6), authorized first like the rest, as an unknown path's 404 is. Next itself
 * answers a method the file does not export with an empty 405.
 */
export function adminRoutes(...endpoints: Endpoint[]): Record<(typeof METHODS)[number], RouteHandler> {
  const served = new Map(endpoints.map((served) => [served.operation.method, adminRoute(served)]));
  if (served.size !== endpoints.length) throw new Error('adminRoutes: two endpoints with one method');
  const methods = METHODS.filter((method) => served.has(method));
  // Next answers HEAD with GET's handler and OPTIONS itself.
  const allow = [...methods, ...(served.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const notAllowed: RouteHandler = async (request) => {
    const requestId = requestIdOf(request.headers) ?? randomUUID();
    try {
      await authorizeAdminRequest(request, liveSources());
      throw new MethodNotAllowed(`${request.method} is not a method of this path; it has ${methods.join(', ')}`, { headers: { allow } });
    } catch (error) {
      return errorResponse(error, requestId, serverContext().log);
    }
  };
  return Object.fromEntries(METHODS.map((method) => [method, served.get(method) ?? notAllowed])) as Record<(typeof METHODS)[number], RouteHandler>;
}

/** Any other path under /api/admin: authorized like the rest, then 404 in the same error model. */
export async function unknownAdminPath(request: Request): Promise<Response> {
  const requestId = requestIdOf(request.headers) ?? randomUUID();
  try {
    await authorizeAdminRequest(request, liveSources());
    throw new NotFound('no such admin API path; see /api/admin/openapi.json');
  } catch (error) {
    return errorResponse(error, requestId, serverContext().log);
  }
}
