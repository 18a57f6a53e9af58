/**
 * SCIM's error answers (RFC 7644 §3.12): `{"schemas": [Error], "status": "400", "scimType": ..., "detail": ...}`,
 * `status` a string. `ScimError` is what the SCIM use cases throw; the use cases of people and groups they call
 * throw the one ServiceError (lib/platform/errors.ts), which `scimErrorOf` translates: a taken username is
 * `uniqueness`, a refused value `invalidValue`.
 */
import { ServiceError } from '../platform/errors.ts';

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12, Table 9. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  readonly status: number;
  readonly scimType?: ScimType;
  readonly headers: Record<string, string>;

  constructor(status: number, detail: string, scimType?: ScimType, headers: Record<string, string> = {}) {
    super(detail);
    this.name = 'ScimError';
    this.status = status;
    this.scimType = scimType;
    this.headers = headers;
  }
}

export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const mutability = (detail: string) => new ScimError(400, detail, 'mutability');
export const noTarget = (detail: string) => new ScimError(400, detail, 'noTarget');
export const notFound = (detail: string) => new ScimError(404, detail);

export interface ScimErrorBody {
  schemas: [typeof ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail: string;
}

/** The SCIM error an exception stands for; undefined for anything unexpected (a bug: the surface answers 500). */
export function scimErrorOf(error: unknown): ScimError | undefined {
  if (error instanceof ScimError) return error;
  if (!(error instanceof ServiceError) || !error.shown) return undefined;
  switch (error.code) {
    case 'conflict':
      return new ScimError(409, error.message, 'uniqueness');
    case 'invalid_request':
      return new ScimError(400, error.message, 'invalidValue');
    default:
      return new ScimError(error.status, error.message, undefined, error.headers);
  }
}

export function errorBody(error: ScimError): ScimErrorBody {
  return { schemas: [ERROR_SCHEMA], status: String(error.status), ...(error.scimType ? { scimType: error.scimType } : {}), detail: error.message };
}
