import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../cli/paths';
import { printedSchema } from './schema';

// `npm run schema`: writes schema.graphql from the code (the only way it changes).
fs.writeFileSync(path.join(packageRoot(), 'schema.graphql'), printedSchema());
