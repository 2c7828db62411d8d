import { z } from 'zod';
import { CALLER_RULE_WORDING, type Requirement } from '../auth/requirements';
import { API_VERSION, SUPPORTED_API_VERSIONS } from '../http/api-version';
import { OPERATION_LIST, OPERATION_TAGS, type Operation, type OperationTag } from '../operations';
import { componentRef, componentSchemas, schemaRef } from './components';
import { describeParameter } from './parameters';

type JsonSchema = Record<string, unknown>;

/**
 * A request schema as JSON Schema (draft 2020-12), from the zod schema the route parses
 * with: the input side (what a client sends), refinements aside. A string piped into an
 * enumeration keeps the enumeration; a default keeps its input form.
 */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as unknown as { type: string; out?: z.ZodType; defaultValue?: unknown };
      if (def.type === 'pipe' && def.out && def.out._zod.def.type === 'enum') {
        jsonSchema.enum = (def.out as z.ZodEnum).options;
      }
      if (def.type === 'default' && jsonSchema.default === undefined && ['string', 'number'].includes(typeof def.defaultValue)) {
        jsonSchema.default = String(def.defaultValue);
      }
    },
  });
  return json as JsonSchema;
}

const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Bad request: invalid JSON, an unsupported API version, or invalid input where the operation answers 400 rather than 422' },
  401: { name: 'Unauthorized', description: 'Requires authentication, or bad credentials' },
  403: { name: 'Forbidden', description: 'Forbidden: the token lacks the fine-grained permission, or the rate limit is exhausted' },
  404: { name: 'NotFound', description: 'Resource not found, or not visible to the caller (the same answer)' },
  406: { name: 'NotAcceptable', description: 'Not acceptable: the Accept header takes none of the media types the operation answers in (they are listed in the message)' },
  409: { name: 'Conflict', description: 'Conflict: the alert cannot make this transition' },
  413: { name: 'PayloadTooLarge', description: 'The request body is too large (1 MiB; 4 MiB when creating an attestation or a dependency snapshot; 8 MiB when uploading an SBOM)' },
  414: { name: 'UriTooLong', description: 'The query string is longer than 3,584 bytes once percent-encoded' },
  422: { name: 'ValidationFailed', description: 'Validation failed, or the endpoint has been spammed' },
  429: { name: 'TooManyRequests', description: 'Rate limited (when the operator configures 429 for the "spammed" answer)' },
  503: { name: 'ServiceUnavailable', description: 'The database is unavailable (down, unreachable, out of space or read-only), or the instance takes no more of this work now: retry after the seconds Retry-After gives' },
};

/** What every operation can answer besides its own statuses: see errors/http.ts. */
const COMMON_STATUSES = [400, 401, 403, 404, 413, 414, 422, 429, 503];

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used', 'x-ratelimit-reset', 'x-ratelimit-resource'];

function headerRefs(names: string[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

const COMMON_RESPONSE_HEADERS = [...RATE_LIMIT_HEADERS, 'X-Service-Api-Version-Selected'];

function componentHeaders() {
  const integer = (description: string) => ({ description, schema: { type: 'integer' } });
  return {
    'x-ratelimit-limit': integer('Requests allowed in the current window'),
    'x-ratelimit-remaining': integer('Requests left in the current window'),
    'x-ratelimit-used': integer('Requests made in the current window'),
    'x-ratelimit-reset': integer('When the window resets, in UTC epoch seconds'),
    'x-ratelimit-resource': { description: 'The rate-limit bucket (core)', schema: { type: 'string' } },
    'X-Service-Api-Version-Selected': { description: 'The API version that answered', schema: { type: 'string', enum: [...SUPPORTED_API_VERSIONS] } },
    ETag: { description: 'Entity tag of the body; send it back in If-None-Match to get a 304', schema: { type: 'string' } },
    Link: { description: 'RFC 8288 pagination links (rel="next", "prev", "first", and "last" on page-based lists); absent when everything fits in one page', schema: { type: 'string' } },
    'X-OAuth-Scopes': { description: 'The scopes of the classic or OAuth token used', schema: { type: 'string' } },
    'X-Accepted-OAuth-Scopes': { description: 'The scopes the operation accepts', schema: { type: 'string' } },
    'WWW-Authenticate': { description: 'The authentication scheme to use', schema: { type: 'string' } },
    'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  };
}

function componentResponses() {
  const errorContent = { 'application/json': { schema: { $ref: componentRef('Error') } } };
  const responses: Record<string, unknown> = {
    NotModified: { description: 'Not modified: the ETag sent in If-None-Match still matches (no body)', headers: headerRefs(['ETag', ...COMMON_RESPONSE_HEADERS]) },
  };
  for (const [status, { name, description }] of Object.entries(ERROR_RESPONSES)) {
    const extra = status === '401' ? ['WWW-Authenticate'] : status === '429' || status === '503' ? ['Retry-After'] : [];
    responses[name] = { description, headers: headerRefs([...COMMON_RESPONSE_HEADERS, ...extra]), content: errorContent };
  }
  return responses;
}

function grantDescription(requirement: Requirement): string {
  if (requirement.target === 'public') return `**No token needed:** public reference data; any valid token is accepted too.\n\n**Who may call:** ${CALLER_RULE_WORDING.anyone.who}.`;
  const scopes = requirement.scopes.map((s) => `\`${s}\``).join(' or ');
  const publicScopes = requirement.publicScopes?.length ? ` (or ${requirement.publicScopes.map((s) => `\`${s}\``).join(', ')} when only public repositories are touched)` : '';
  const permission = requirement.permission ? `\`${requirement.permission[0]}\`: ${requirement.permission[1]}` : 'none: fine-grained and app tokens are not accepted';
  const anonymous = requirement.publicRead ? '\n\nCallable without a token when only public resources are requested.' : '';
  return `**Classic/OAuth scope:** ${scopes}${publicScopes}.\n\n**Fine-grained permission:** ${permission}.\n\n**Who may call:** ${CALLER_RULE_WORDING[requirement.caller].who}.${anonymous}`;
}

/** The operation's rules as a Markdown list after the grant text (Swagger UI renders it); nothing when it has none. */
function rulesDescription(rules: readonly string[] | undefined): string {
  return rules?.length ? `\n\n${rules.map((rule) => `- ${rule}`).join('\n')}` : '';
}

function parametersOf({ request }: Operation): unknown[] {
  const path = requestJsonSchema(request.params) as { properties: Record<string, JsonSchema> };
  const params: unknown[] = Object.entries(path.properties).map(([name, schema]) => ({
    name, in: 'path', required: true, schema, ...describeParameter(name),
  }));
  if (request.query) {
    const query = requestJsonSchema(request.query) as { properties: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties)) {
      params.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema, ...describeParameter(name) });
    }
  }
  params.push({ $ref: '#/components/parameters/accept' }, { $ref: '#/components/parameters/api-version' });
  return params;
}

function successResponse({ method, response: body, docs, ndjson, mediaTypes, streamed }: Operation): Record<string, unknown> {
  const headers = [...COMMON_RESPONSE_HEADERS, 'X-OAuth-Scopes', 'X-Accepted-OAuth-Scopes'];
  if (method === 'get' && !streamed) headers.push('ETag');
  if (docs.pagination) headers.push('Link');
  const response: Record<string, unknown> = { description: body ? 'Success' : 'Success (no body)', headers: headerRefs(headers) };
  if (body) {
    const ref = { $ref: schemaRef(body.schema) };
    response.content = mediaTypes
      ? Object.fromEntries(Object.entries(mediaTypes).map(([type, schema]) => [type, { schema: { $ref: schemaRef(schema) } }]))
      : { 'application/json': { schema: body.array ? { type: 'array', items: ref } : ref } };
    // OpenAPI 3.1 cannot say "a stream of items"; the schema is one line's.
    if (ndjson) (response.content as Record<string, unknown>)['application/x-ndjson'] = { schema: { ...ref, description: 'One item per line, every item the query matches, unpaged' } };
  }
  return response;
}

function operationObject(entry: Operation): Record<string, unknown> {
  const { requirement, docs } = entry;
  const responses: Record<string, unknown> = { [entry.success]: successResponse(entry) };
  if (entry.method === 'get' && !entry.streamed) responses['304'] = { $ref: '#/components/responses/NotModified' };
  for (const status of [...COMMON_STATUSES, ...(docs.statuses ?? [])].sort()) {
    responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` };
  }
  const operation: Record<string, unknown> = {
    operationId: entry.operationId,
    summary: docs.summary,
    description: grantDescription(requirement) + rulesDescription(docs.rules),
    tags: [docs.tag],
    parameters: parametersOf(entry),
    responses,
    security: requirement.publicRead || requirement.target === 'public' ? [{ bearer: [] }, {}] : [{ bearer: [] }],
    'x-oauth-scopes': [...requirement.scopes],
    'x-public-oauth-scopes': [...(requirement.publicScopes ?? [])],
    'x-fine-grained-permission': requirement.permission ? { [requirement.permission[0]]: requirement.permission[1] } : null,
    'x-caller': requirement.caller,
  };
  if (entry.request.body) {
    operation.requestBody = { required: true, content: { 'application/json': { schema: requestJsonSchema(entry.request.body) } } };
  }
  return operation;
}

/** What each group of operations is for, as the description's tags say it. */
const TAG_DESCRIPTIONS: Record<OperationTag, string> = {
  'organization-roles': 'Organization roles: list and read the roles of an organization, see which teams and users hold one, and assign or remove them.',
  oidc: 'Actions OIDC: which custom repository properties are included in OIDC tokens, the template of the subject (`sub`) claim for an organization or a repository, and the tokens themselves (minted and previewed).',
  attestations: 'Artifact attestations: store signed Sigstore bundles for a repository and list them by subject digest.',
  'dependency-alerts': 'Dependency alerts (public preview): list the alerts of an enterprise, an organization or a repository, read one, and dismiss, reopen or assign it. '
    + 'Every path here also answers with the segment `dependabot` in place of `dependency-bot`, so clients generated for that layout work unchanged; `Link` URLs keep the segment the request used.',
  advisories: 'The global advisory database: security advisories imported from the public OSV format, searchable by package and version, without a token.',
  'dependency-graph': 'Dependency graph: submit what a repository depends on (a snapshot from CI) and export its current dependencies as an SPDX SBOM.',
  'auto-triage': 'Auto-triage: rules and presets of organizations and repositories that dismiss dependency alerts by themselves, and reopen them when they no longer match.',
  webhooks: 'Webhooks: organization and repository hooks that receive dependency alert and advisory events as signed HTTP POSTs, their pings, and the log of their deliveries with redelivery.',
  'audit-log': 'The audit log: one record for every security change (roles, OIDC settings, alerts and their triage, rules, hooks, tokens, attestations, signing keys), who made it, with which token and request, searchable and streamed as NDJSON.',
};

/** The OpenAPI 3.1 description of the REST API (spec §4, operations #1–#27). */
export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of OPERATION_LIST) (paths[entry.path] ??= {})[entry.method] = operationObject(entry);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'orgsec REST API',
      version: API_VERSION,
      description: 'Organization roles, Actions OIDC customization, repository attestations and dependency alerts. '
        + 'Send `Authorization: Bearer <token>` (exactly one; two are refused with 400) and, optionally, `X-Service-Api-Version`. '
        + 'Pages on other origins may call every operation: answers carry CORS headers (`Access-Control-Allow-Origin: *` unless the operator narrows it) and preflights are answered 204.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags: OPERATION_TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: componentSchemas(),
      responses: componentResponses(),
      headers: componentHeaders(),
      parameters: {
        accept: { name: 'accept', in: 'header', required: false, description: 'Recommended: application/vnd.service+json', schema: { type: 'string' } },
        'api-version': {
          name: 'X-Service-Api-Version', in: 'header', required: false, description: `The API version; absent means ${API_VERSION}`,
          schema: { type: 'string', enum: [...SUPPORTED_API_VERSIONS], default: API_VERSION },
        },
      },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A classic, OAuth, fine-grained, app user or installation token. Each operation names the classic scopes '
            + '(`x-oauth-scopes`) and the fine-grained permission (`x-fine-grained-permission`) it accepts.',
        },
      },
    },
  };
}
