import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// Validates real responses against the service's own OpenAPI description: the operation is
// found by method and path, the status must be documented for it, and the body must match
// the documented schema (an empty body where none is documented). Any API test can call
// `assertDocumented(response)` on a supertest response.

type Json = Record<string, unknown>;

interface DocumentedOperation {
  operationId: string;
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  responses: Record<string, Json>;
}

export interface CheckedResponse {
  method: string;
  /** The request path, with or without query string; an /api/v3 prefix is dropped. */
  path: string;
  status: number;
  body: unknown;
  /** The raw text, to tell an empty body from `{}`. */
  text?: string | undefined;
  /** The answer's Content-Type: an operation documenting several media types is held to that one's schema. */
  contentType?: string | undefined;
}

const DOCUMENT_ID = 'https://orgsec.invalid/openapi.json';
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly operations: DocumentedOperation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    // The description is not a JSON Schema itself; strict mode would refuse its OpenAPI keys.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    const paths = document.paths as Record<string, Record<string, Json>>;
    for (const [template, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}|\{\w+\}/g, '[^/]+');
        this.operations.push({
          operationId: String(operation.operationId),
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source}$`),
          literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
          responses: operation.responses as Record<string, Json>,
        });
      }
    }
  }

  /** The first tag of the operation at a method and path template (Swagger UI groups by it). */
  tagOf(method: string, template: string): string {
    const paths = this.document.paths as Record<string, Record<string, { tags?: string[] }>>;
    return paths[template]![method.toLowerCase()]!.tags![0]!;
  }

  operationIds(): string[] {
    return this.operations.map((o) => o.operationId);
  }

  /** The documented operation a request goes to: the template with the most literal segments wins. */
  operationFor(method: string, path: string): DocumentedOperation {
    const bare = path.split('?')[0]!.replace(/^\/api\/v3(?=\/)/, '');
    const matches = this.operations
      .filter((o) => o.method === method.toUpperCase() && o.pattern.test(bare))
      .sort((a, b) => b.literalSegments - a.literalSegments);
    if (!matches[0]) throw new Error(`OpenAPI: no documented operation for ${method} ${bare}`);
    return matches[0];
  }

  private resolve(node: Json): Json {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    const found = ref.slice(2).split('/').reduce<unknown>((at, key) => (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
    return this.resolve(found as Json);
  }

  /** Throws, naming the operation, status and mismatch, unless the response is as documented. */
  check(response: CheckedResponse): string {
    const operation = this.operationFor(response.method, response.path);
    const where = `${operation.operationId} (${response.method} ${operation.template}) answered ${response.status}`;
    const declared = operation.responses[String(response.status)];
    if (!declared) throw new Error(`OpenAPI: ${where}, a status it does not document (documented: ${Object.keys(operation.responses).join(', ')})`);
    const documented = this.resolve(declared);
    const content = documented.content as Record<string, { schema: Json }> | undefined;
    const hasBody = (response.text ?? '') !== '' || (response.text === undefined && response.body !== undefined && !isEmptyObject(response.body));
    if (!content) {
      if (hasBody) throw new Error(`OpenAPI: ${where} with a body, but documents none`);
      return operation.operationId;
    }
    if (!hasBody) throw new Error(`OpenAPI: ${where} with no body, but documents one`);
    const mediaType = response.contentType?.split(';')[0]!.trim().toLowerCase();
    const documentedType = mediaType !== undefined && mediaType in content ? mediaType : 'application/json';
    if (!(documentedType in content)) throw new Error(`OpenAPI: ${where} as ${mediaType}, a media type it does not document (documented: ${Object.keys(content).join(', ')})`);
    const validate = this.validatorFor(operation, String(response.status), declared, documentedType);
    // An NDJSON answer comes as its lines (contract-recorder.ts), each held to the one item's schema.
    const items = documentedType === 'application/x-ndjson' && Array.isArray(response.body) ? response.body : [response.body];
    if (!items.every((item) => validate(item))) {
      throw new Error(`OpenAPI: ${where} with a body that does not match its schema:\n${this.ajv.errorsText(validate.errors, { separator: '\n' })}`);
    }
    return operation.operationId;
  }

  private validatorFor(operation: DocumentedOperation, status: string, declared: Json, mediaType: string): ValidateFunction {
    const key = `${operation.method} ${operation.template} ${status} ${mediaType}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const pointer = typeof declared.$ref === 'string'
        ? declared.$ref.slice(1)
        : `/paths/${escapePointer(operation.template)}/${operation.method.toLowerCase()}/responses/${status}`;
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}/content/${escapePointer(mediaType)}/schema` });
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** A supertest response, checked against the description. */
export function assertDocumented(validator: OpenApiValidator, res: { status: number; body: unknown; text?: string }): string {
  // supertest keeps the node ClientRequest, untyped, as `req`.
  const { req } = res as unknown as { req: { method: string; path: string } };
  const contentType = (res as { headers?: Record<string, string> }).headers?.['content-type'];
  return validator.check({ method: req.method, path: req.path, status: res.status, body: res.body, text: res.text, contentType });
}
