import type { RequestHandler } from 'express';

/** The forms Apollo Server answers a single result in. */
const APOLLO_JSON_TYPES = ['application/json', 'application/graphql-response+json'];
/** A JSON-based media type: `application/json` itself, or any `+json` type (vendor types included). */
const JSON_FLAVOURED = /^application\/(?:json|[^/;\s]+\+json)$/i;

/**
 * REST-style clients ask for a vendor type: `@octokit/graphql` sends
 * `application/vnd.github.v3+json`, others `application/vnd.service+json`. Those are JSON,
 * which Apollo would refuse with a 406 because it knows only its own two types; such a
 * request is answered as `application/json`. An Accept that rules every JSON type out is
 * left as it is (Apollo's 406), and a browser's HTML Accept still gets the landing page.
 */
export const answerJsonToRestClients: RequestHandler = (req, _res, next) => {
  // With no Accept header, req.accepts answers the first type: Apollo's default already fits.
  if (req.accepts(APOLLO_JSON_TYPES) !== false) return next();
  // With no arguments, the types the client accepts, most preferred first (q=0 left out).
  const accepted = req.accepts() as unknown as string[];
  if (accepted.some((type) => JSON_FLAVOURED.test(type))) req.headers.accept = 'application/json';
  next();
};
