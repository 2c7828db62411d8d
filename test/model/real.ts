import type { Response } from 'supertest';
import { hashTables } from '../helpers/table-hash';
import { bearer, type TestApp } from '../helpers/test-app';
import { CALLER_LOGIN, ORG, tokenOf, modelWorld, type Caller, type Login } from './model-world';

// The real system: the app over its database, with the ids the world got (they order lists).

export interface Real {
  t: TestApp;
  /** login → account id, team slug (of the organization) → id, role name → id (unknown names: an id no role has). */
  userId(login: string): number;
  teamId(slug: string): number;
  roleId(name: string): number;
}

/** Empties the database and loads the model world: a fresh world for every run. */
export async function resetWorld(t: TestApp): Promise<Real> {
  await t.services.world.load(modelWorld(), { replace: true });
  const knex = t.db.knex;
  const users = new Map((await knex('accounts').select('id', 'login')).map((r) => [r.login as string, Number(r.id)]));
  const orgId = users.get(ORG)!;
  const teams = new Map((await knex('teams').where('org_id', orgId).select('id', 'slug')).map((r) => [r.slug as string, Number(r.id)]));
  const roleRows = await knex('organization_roles').select('id', 'name', 'org_id');
  // Predefined roles (no organization) and this organization's own, by name; other organizations' by name too, for 404s.
  const roles = new Map(roleRows.map((r) => [r.name as string, Number(r.id)]));
  const unknownRole = Math.max(...roles.values()) + 1000;
  const known = (map: Map<string, number>, what: string) => (key: string) => {
    const id = map.get(key);
    if (id === undefined) throw new Error(`the world has no ${what} ${key}`);
    return id;
  };
  return { t, userId: known(users, 'user'), teamId: known(teams, 'team'), roleId: (name) => roles.get(name) ?? unknownRole };
}

export const loginOf = (caller: Caller): Login | null => (caller === 'anonymous' ? null : CALLER_LOGIN[caller]);

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
/** A request body: JSON, or raw text sent as JSON (malformed or not an object). */
export type Body = { json: unknown } | { raw: string } | undefined;

export async function send(real: Real, caller: Caller, method: Method, path: string, body?: Body): Promise<Response> {
  let request = real.t.http()[method](path);
  if (caller !== 'anonymous') request = request.set(bearer(tokenOf(caller)));
  if (body && 'raw' in body) return request.set('Content-Type', 'application/json').send(body.raw);
  if (body) return request.send(body.json as object);
  return request;
}

/** Sends a request that must change nothing (a refusal, or an idempotent no-op): every table is the same after. */
export async function unchangedBy(real: Real, request: () => Promise<Response>): Promise<Response> {
  const before = await hashTables(real.t.db.knex);
  const res = await request();
  expect(await hashTables(real.t.db.knex)).toEqual(before);
  return res;
}

/** A refusal: the status, the documented error body, and no change anywhere. */
export async function expectRefused(real: Real, status: number, request: () => Promise<Response>): Promise<Response> {
  const res = await unchangedBy(real, request);
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: expect.objectContaining({ message: expect.any(String), documentation_url: expect.any(String), status: String(status) }),
  });
  return res;
}

export function expectStatus(res: Response, status: number): void {
  // The body goes along, so a failure shows what the API said.
  expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.anything() });
}
