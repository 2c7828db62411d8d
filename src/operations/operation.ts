import type { z } from 'zod';
import type { Requirement } from '../auth/requirements';

// What the catalogue says of one operation: everything the routes, the authorizer,
// /openapi.json and the tests need to know about it, in one entry.

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The groups of the API description (its tags), in the order it lists them. */
export const OPERATION_TAGS = ['organization-roles', 'oidc', 'attestations', 'dependency-alerts', 'advisories', 'dependency-graph', 'auto-triage', 'webhooks', 'audit-log'] as const;
export type OperationTag = (typeof OPERATION_TAGS)[number];

export interface OperationDocs {
  tag: OperationTag;
  summary: string;
  pagination?: 'page' | 'cursor';
  /** Statuses beyond the ones every operation can answer (spec §4, §7). */
  statuses?: readonly number[];
  /** What a caller of this operation must know beyond its schemas, one short sentence each (shown in /docs). */
  rules?: readonly string[];
}

export interface Operation {
  /** The spec's number (§4); operations of interfaces.md Part 2 number on from 28, in the order they were added. */
  number: number;
  /** The original's operationId, which its generated clients name their methods by. */
  operationId: string;
  method: HttpMethod;
  /** The path template, parameters in braces: `/orgs/{org}/organization-roles`. */
  path: string;
  /** Other templates that answer as `path` does (the original's own segment names). */
  aliases?: readonly string[];
  /**
   * URLs the operation's answers link to, read with GET under its name and requirement, not
   * described on their own (#22's `bundle_url`), by name.
   */
  linked?: Readonly<Record<string, string>>;
  success: 200 | 201 | 202 | 204;
  /**
   * The schemas the route parses with (the same objects, never copies). A body may end in a
   * transform into its domain type: it is documented as the JSON it accepts.
   */
  request: { params: z.ZodObject; query?: z.ZodObject; body?: z.ZodObject | z.ZodPipe<z.ZodObject> };
  /** The success body, one of the named response schemas (or an array of one); none for an empty answer. */
  response?: { schema: z.ZodType; array?: boolean };
  requirement: Requirement;
  docs: OperationDocs;
  /**
   * A POST that writes nothing (a token mint, a preview): its services read at the request's
   * data versions and may answer from the caches, as a GET's do, and it is not counted
   * against the write rate limit (app.ts).
   */
  readsOnly?: true;
  /**
   * A read never served from the response cache (nor given an ETag by data version): what it
   * shows is written without moving data_versions (webhook deliveries, which workers write all
   * the time), or tells the time it was made (an SBOM's creation time), so a cached answer, or
   * one ETag for two answers, could be stale.
   */
  uncached?: boolean;
  /**
   * The success body is written as it is read, a document of any size (VEX): it carries no
   * ETag, so a conditional GET never answers 304 (every answer is a new document anyway).
   */
  streamed?: true;
  /**
   * The success body's media types, chosen by Accept, each with its schema (the first when the
   * client takes JSON or anything): the body is a document of its own format, not JSON of the API.
   */
  mediaTypes?: Readonly<Record<string, z.ZodType>>;
  /**
   * Also answers `Accept: application/x-ndjson` with every item the query matches, one JSON
   * object a line, unpaged (a SIEM's export): the success schema must be an array's.
   */
  ndjson?: true;
  /** Bytes of query string accepted as sent, where more than src/http/query-length.ts's default must fit. */
  maxQueryBytes?: number;
}

/** An OpenAPI path template as an Express one: `{org}` becomes `:org`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}
