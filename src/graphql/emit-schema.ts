import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../cli/paths';
// schema.ts first: it loads reflect-metadata, which the type classes federation.ts imports need.
import { graphqlSchema, printedSchema } from './schema';
import { printedSubgraphSchema } from './federation';

// `npm run schema`: writes schema.graphql (the graph clients see) and the subgraph SDL a
// gateway composes (src/graphql/subgraph.graphql) from the code, the only way either changes.
fs.writeFileSync(path.join(packageRoot(), 'schema.graphql'), printedSchema());
fs.writeFileSync(path.join(packageRoot(), 'src', 'graphql', 'subgraph.graphql'), printedSubgraphSchema(graphqlSchema()));
