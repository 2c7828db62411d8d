import type { z } from 'zod';
import type { DependencyPath } from '../dependency-paths/alert-paths';
import type { dependencyPathSchema } from './alerts.responses';

/** #71's REST shape of one path (alerts.responses.ts): every field present, null when empty. */
export function serializeDependencyPath(path: DependencyPath): z.output<typeof dependencyPathSchema> {
  return {
    manifest_path: path.manifestPath,
    packages: path.packages.map((p) => ({
      package_url: p.packageUrl, ecosystem: p.package.ecosystem, name: p.package.name, version: p.package.version, relationship: p.relationship, scope: p.scope,
    })),
  };
}
