import type { TestApp } from './test-app';

export interface GraphQLResponse<T = any> {
  status: number;
  data: T;
  errors: Array<{ message: string; path?: string[]; extensions: { code: string; fields?: Array<{ field: string }> } }> | undefined;
}

/** POSTs a GraphQL operation through the real HTTP stack. */
export async function gql<T = any>(t: TestApp, query: string, options: { token?: string; variables?: Record<string, unknown> } = {}): Promise<GraphQLResponse<T>> {
  const request = t.http().post('/graphql').set('Content-Type', 'application/json');
  if (options.token) request.set('Authorization', `Bearer ${options.token}`);
  const res = await request.send({ query, variables: options.variables ?? {} });
  return { status: res.status, data: res.body.data, errors: res.body.errors };
}
