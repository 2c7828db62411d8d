// Domain types of dependency snapshots (interfaces.md Part 2, S1/S2).

export type DependencyScope = 'runtime' | 'development';
export type DependencyRelationship = 'direct' | 'indirect' | 'unknown';
export type SnapshotResult = 'SUCCESS' | 'ACCEPTED';

/** A package as alerts name it, read from its purl. */
export interface DependencyPackage {
  purlType: string;
  /** null for purl types no advisory ecosystem has: stored and listed, never matched. */
  ecosystem: string | null;
  name: string;
  /** null when the purl has none: listed in the SBOM, never matched. */
  version: string | null;
}

export interface ResolvedDependency {
  /** The key of `resolved` it was sent under. */
  key: string;
  packageUrl: string;
  package: DependencyPackage;
  scope: DependencyScope;
  relationship: DependencyRelationship;
  dependencies: string[];
  metadata: Record<string, unknown>;
}

export interface SnapshotManifest {
  /** The key of `manifests` it was sent under. */
  key: string;
  name: string;
  sourceLocation: string | null;
  metadata: Record<string, unknown>;
  resolved: ResolvedDependency[];
}

/** A submission as S1's body gives it, checked. */
export interface SnapshotInput {
  version: number;
  job: { id: string; correlator: string; htmlUrl: string | null };
  sha: string;
  ref: string;
  detector: { name: string; version: string; url: string };
  /** UTC, ISO 8601 with milliseconds (fixed width: text order is time order). */
  scanned: string;
  metadata: Record<string, unknown>;
  manifests: SnapshotManifest[];
}

export interface SnapshotReceipt {
  id: number;
  createdAt: string;
  result: SnapshotResult;
  message: string;
  /** Stored and queued: the worker applies it (snapshot-worker.ts). */
  queued: boolean;
}

/** One dependency of a repository's current set: a resolved package in a manifest. */
export interface CurrentDependency {
  /** Unique per repository's current set: stable order and cursors. */
  id: number;
  packageUrl: string;
  package: DependencyPackage;
  manifestName: string;
  /** The manifest's file.source_location, else its name (alerts' dependency.manifest_path). */
  manifestPath: string;
  scope: DependencyScope;
  relationship: DependencyRelationship;
  dependencies: string[];
}
