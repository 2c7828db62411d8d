// The spec's package ecosystems (§3): what advisories name, alerts are on and the version engine compares.
export const ECOSYSTEMS = ['composer', 'go', 'maven', 'npm', 'nuget', 'pip', 'pub', 'rubygems', 'rust'] as const;

export type Ecosystem = (typeof ECOSYSTEMS)[number];
