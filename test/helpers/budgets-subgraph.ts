import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';

// A company's own subgraph beside orgsec in a supergraph: budgets per organization (extending
// orgsec's Organization by its login) and deployments referring to orgsec's repositories.

const BUDGETS_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
  type Organization @key(fields: "login") { login: String! budget: Int! }
  type Repository @key(fields: "nameWithOwner", resolvable: false) { nameWithOwner: String! }
  type Deployment { environment: String! repository: Repository! }
  type Query { budgets: [Organization!]! deployments: [Deployment!]! }
`;
const BUDGETS: Record<string, number> = { 'acme-corp': 1200, globex: 300 };
const DEPLOYMENTS = [{ environment: 'production', repository: 'acme-corp/api' }, { environment: 'staging', repository: 'acme-corp/web' }];

export async function startBudgetsSubgraph(port = 0): Promise<{ url: string; stop(): Promise<void> }> {
  const server = new ApolloServer({
    plugins: [ApolloServerPluginInlineTraceDisabled()],
    schema: buildSubgraphSchema({
      typeDefs: parse(BUDGETS_SDL),
      resolvers: {
        Query: { budgets: () => Object.keys(BUDGETS).map((login) => ({ login })), deployments: () => DEPLOYMENTS.map((d) => ({ environment: d.environment, repository: { nameWithOwner: d.repository } })) },
        Organization: { __resolveReference: ({ login }: { login: string }) => ({ login }), budget: ({ login }: { login: string }) => BUDGETS[login] ?? 0 },
      } as never,
    }),
  });
  const started = await startStandaloneServer(server, { listen: { port, host: '127.0.0.1' } });
  return { url: started.url, stop: () => server.stop() };
}
