import type { ApolloServerPlugin } from '@apollo/server';
import etag from 'etag';
import { ifNoneMatchMatches } from '../http/conditional';
import { serializeResult } from './cached-responses';

/**
 * GraphQL over GET answers If-None-Match as every other read of orgsec does (http/conditional.ts):
 * Apollo's answer is sent by Express's res.send, whose own check gives up on `Cache-Control:
 * no-cache`, which fetch adds to every conditional request. The ETag is the one Express would
 * make of the same bytes (its default, weak), set before it sends, so Express keeps it and
 * drops the body of the 304.
 */
export function conditionalGet(): ApolloServerPlugin {
  return {
    async requestDidStart({ request }) {
      if (request.http?.method !== 'GET') return;
      return {
        async willSendResponse({ response }) {
          const status = response.http.status ?? 200;
          if (response.body.kind !== 'single' || status < 200 || status >= 300) return;
          const tag = etag(serializeResult(response.body.singleResult), { weak: true });
          response.http.headers.set('etag', tag);
          if (ifNoneMatchMatches(request.http?.headers.get('if-none-match'), tag)) response.http.status = 304;
        },
      };
    },
  };
}
