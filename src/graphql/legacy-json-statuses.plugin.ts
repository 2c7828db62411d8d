import type { ApolloServerPlugin } from '@apollo/server';
import Negotiator from 'negotiator';

// GraphQL over HTTP (graphql.github.io/graphql-over-http, "Legacy watershed"): a client that
// takes `application/json` learns of a request the server could not execute from the errors
// of a 200, as every GraphQL client before the spec did; only a client that asks for
// `application/graphql-response+json` is given 4xx statuses for them. Apollo answers 400 for
// both: for the first, such a request answers 200 here. Transport refusals (a body that is not JSON, no query, the CSRF
// check) are not GraphQL results and keep their status.

const JSON_TYPES = ['application/json', 'application/graphql-response+json'];
/**
 * What the spec means by a well-formed request the server would not execute: a document that
 * does not parse or validate (orgsec's depth, alias, directive and token limits among them),
 * one over the cost limit, an operation name the document lacks, variables that do not coerce.
 */
const REQUEST_ERRORS = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'QUERY_TOO_COMPLEX', 'OPERATION_RESOLUTION_FAILURE', 'BAD_USER_INPUT']);

/** The type Apollo answers in (its own choice: the client's preference, `application/json` on a tie or no Accept). */
function answersInJson(accept: string | undefined): boolean {
  return new Negotiator({ headers: { accept: accept ?? '*/*' } }).mediaType(JSON_TYPES) !== JSON_TYPES[1];
}

export function legacyJsonStatuses(): ApolloServerPlugin {
  return {
    async requestDidStart({ request }) {
      return {
        async willSendResponse({ response, errors }) {
          if (response.http.status !== 400 || !errors?.length) return;
          if (!answersInJson(request.http?.headers.get('accept'))) return;
          if (errors.every((error) => REQUEST_ERRORS.has(String(error.extensions?.code)))) response.http.status = 200;
        },
      };
    },
  };
}
