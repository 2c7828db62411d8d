import { globalAdvisorySchema } from '../modules/advisories/advisories.responses';
import { MAX_ADVISORY_QUERY_BYTES, advisoryListPath, advisoryListQuery, advisoryPath } from '../modules/advisories/advisories.schemas';
import { MAX_AFFECTS } from '../modules/advisories/advisories.types';
import type { Operation } from './operation';

// interfaces.md Part 2, "Advisory database": the original's global advisories API, renamed.

const TAG = 'advisories';

/** Public reference data: no token needed, any valid token accepted (a bad one is still 401). */
const PUBLIC = { target: 'public', scopes: [], permission: null, caller: 'anyone' } as const;

export const ADVISORY_OPERATIONS = {
  listGlobalAdvisories: {
    number: 28, operationId: 'security-advisories/list-global-advisories', method: 'get', path: '/advisories', success: 200,
    request: { params: advisoryListPath, query: advisoryListQuery },
    response: { schema: globalAdvisorySchema, array: true },
    requirement: PUBLIC,
    maxQueryBytes: MAX_ADVISORY_QUERY_BYTES,
    docs: { tag: TAG, summary: 'List global security advisories', pagination: 'cursor', rules: [
        '`type` defaults to every type but `malware`. Every filter given must hold; `cwes` matches any of the CWEs listed.',
        `\`affects\` lists up to ${MAX_AFFECTS} \`package\` or \`package@version\` values: an advisory is listed when a version falls in one of its ranges `
        + '(by the ecosystem\'s own version order; package names normalized as the ecosystem does), or, without a version, when it names the package. '
        + 'With `ecosystem` the packages are looked for there, otherwise in every ecosystem.',
        '`published`, `updated` and `modified` (published or updated) take a date or time, `a..b` (either end `*`), `>=a`, `<=a`, `>a` or `<a`; a date is its whole UTC day.',
        `The query string may be up to ${MAX_ADVISORY_QUERY_BYTES} bytes. When it is too long to repeat in \`Link\` URLs, they carry it inside their cursors instead.`,
        'An invalid value (a version that is not one of the ecosystem, an unknown ecosystem, more than 1,000 `affects` values) answers 422 naming the parameter.',
        'Paged by cursor: follow the `Link` header. The `page` parameter answers 400, as does a cursor that was not issued or that belongs to another `sort` or `direction`.',
      ] },
  },
  getGlobalAdvisory: {
    number: 29, operationId: 'security-advisories/get-global-advisory', method: 'get', path: '/advisories/{svcsa_id}', success: 200,
    request: { params: advisoryPath },
    response: { schema: globalAdvisorySchema },
    requirement: PUBLIC,
    docs: { tag: TAG, summary: 'Get a global security advisory', rules: ['An unknown `svcsa_id` answers 404.'] },
  },
} satisfies Record<string, Operation>;
